import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-principal.decorator';
import { TenantAuthenticated } from '../auth/tenant-authenticated.decorator';
import { ApiErrors, invalid, notFound } from '../common/api-errors.decorator';
import { ArrivedAt } from '../common/request-arrival';
import { GATEWAY_PREFIX } from '../common/routes';
import { TenantId } from '../common/tenant-id';
import { AsOf } from '../database/read-scope';
import { ExecutionListResponse } from './dto/execution.response';
import { ExecutionDetailResponse } from './dto/execution-detail.response';
import { ExecutionStatsResponse } from './dto/execution-stats.response';
import { ExecutionLogService } from './execution-log.service';
import { ApiExecutionListQuery } from './execution-list.openapi';
import { parseExecutionListQuery, QueryValue } from './execution-query';
import { InvalidRequestError } from '../common/common.errors';

/** The tenant's whole delivery log and its numbers. */
@ApiTags('executions')
@ApiBearerAuth()
@ApiErrors(401, 429)
@Controller(GATEWAY_PREFIX)
@TenantAuthenticated()
export class TenantExecutionsController {
  constructor(private readonly log: ExecutionLogService) {}

  @Get('executions')
  @ApiOperation({
    operationId: 'listTenantExecutions',
    summary: 'Every execution of the tenant, newest first, filtered and paged',
    description: 'Each page continues where the previous one ended (next_cursor), so executions stored meanwhile are neither repeated nor make a page skip any.',
  })
  @ApiExecutionListQuery(true)
  @ApiOkResponse({ type: ExecutionListResponse })
  @ApiErrors(invalid('since: must be an RFC 3339 date-time, like 2026-11-27T10:00:00Z'), notFound('Action not found'))
  async list(@CurrentTenant() tenantId: TenantId, @ArrivedAt() arrivedAt: AsOf, @Query() query: Record<string, QueryValue>): Promise<ExecutionListResponse> {
    return this.log.list(tenantId, undefined, parseExecutionListQuery(query, true), arrivedAt);
  }

  @Get('executions/:execution_id')
  @ApiOperation({
    operationId: 'getExecutionById',
    summary: 'One execution of the tenant, whichever its action: its attempts, what was sent and what came back',
    description:
      'Found by its id alone: the webhook-id header a receiver logged. The same answer as GET /actions/{action_name}/executions/{execution_id}. ' +
      'The payload is there while payload logging was on for the action and EXECUTION_PAYLOAD_RETENTION_DAYS have not passed.',
  })
  @ApiParam({ name: 'execution_id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: ExecutionDetailResponse })
  @ApiErrors(notFound('Execution not found'))
  async get(@CurrentTenant() tenantId: TenantId, @Param('execution_id') id: string): Promise<ExecutionDetailResponse> {
    return { execution: await this.log.getOfTenant(tenantId, id) };
  }

  @Get('stats')
  @ApiOperation({
    operationId: 'getExecutionStats',
    summary: 'Executions, successes, failures and p50/p95 duration, per hour (48 hours) and per day (the retention window)',
    description:
      'Of the whole tenant, with each action\'s numbers over the last 24 hours; or of one action (`action`). Read from rollups kept as executions are stored.',
  })
  @ApiQuery({ name: 'action', required: false, description: 'One action\'s numbers (its name)', schema: { type: 'string' } })
  @ApiOkResponse({ type: ExecutionStatsResponse })
  @ApiErrors(notFound('Action not found'), invalid('action: must be given once'))
  async stats(@CurrentTenant() tenantId: TenantId, @ArrivedAt() arrivedAt: AsOf, @Query('action') action?: QueryValue): Promise<ExecutionStatsResponse> {
    if (Array.isArray(action)) throw new InvalidRequestError('action: must be given once');
    return { stats: await this.log.stats(tenantId, action, arrivedAt) };
  }
}
