import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrors, invalid, notFound } from '../common/api-errors.decorator';
import { InvalidRequestError } from '../common/common.errors';
import { ADMIN_PREFIX } from '../common/routes';
import { TenantId } from '../common/tenant-id';
import { ManagementAuthGuard } from '../console-auth/management-auth.guard';
import { ExecutionDetailListResponse, ExecutionDetailResponse } from '../executions/dto/execution-detail.response';
import { ExecutionStatsResponse } from '../executions/dto/execution-stats.response';
import { ExecutionLogService } from '../executions/execution-log.service';
import { ApiExecutionListQuery } from '../executions/execution-list.openapi';
import { parseExecutionListQuery, QueryValue } from '../executions/execution-query';
import { ExistingTenant, ExistingTenantGuard } from '../tenancy/existing-tenant.guard';

/**
 * A tenant's whole delivery log under the management API, as the gateway's `GET /executions` and `GET /stats`
 * give it to the tenant, plus a lookup by id alone (the console's "go to an execution"): the console's tenant-wide
 * log and charts.
 */
@ApiTags('admin')
@ApiBearerAuth('admin')
@ApiCookieAuth('console')
@ApiErrors(401, 429, notFound('Tenant not found'))
@Controller(`${ADMIN_PREFIX}/tenants/:tenant_id`)
@ApiParam({ name: 'tenant_id', schema: { type: 'string', format: 'uuid' } })
@UseGuards(ManagementAuthGuard, ExistingTenantGuard)
export class TenantLogAdminController {
  constructor(private readonly log: ExecutionLogService) {}

  @Get('executions')
  @ApiOperation({ summary: 'Every execution of the tenant, newest first, with every attempt; filtered and paged', operationId: 'listTenantLog' })
  @ApiExecutionListQuery(true)
  @ApiOkResponse({ type: ExecutionDetailListResponse })
  @ApiErrors(invalid('since: must be an RFC 3339 date-time, like 2026-11-27T10:00:00Z'), notFound('Tenant not found', 'Action not found'))
  async list(@ExistingTenant() tenantId: TenantId, @Query() query: Record<string, QueryValue>): Promise<ExecutionDetailListResponse> {
    return this.log.listWithAttempts(tenantId, undefined, parseExecutionListQuery(query, true));
  }

  @Get('executions/:execution_id')
  @ApiOperation({ summary: 'One execution of the tenant, whichever its action: every attempt, what was sent and what came back', operationId: 'getTenantExecution' })
  @ApiParam({ name: 'execution_id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: ExecutionDetailResponse })
  @ApiErrors(notFound('Tenant not found', 'Execution not found'))
  async get(@ExistingTenant() tenantId: TenantId, @Param('execution_id') id: string): Promise<ExecutionDetailResponse> {
    return { execution: await this.log.getOfTenant(tenantId, id) };
  }

  @Get('stats')
  @ApiOperation({
    summary: 'Executions, successes, failures and p50/p95 duration, per hour (48 hours) and per day (the retention window), of the tenant or one action',
    operationId: 'getTenantStats',
  })
  @ApiQuery({ name: 'action', required: false, description: 'One action\'s numbers (its name)', schema: { type: 'string' } })
  @ApiOkResponse({ type: ExecutionStatsResponse })
  @ApiErrors(notFound('Tenant not found', 'Action not found'), invalid('action: must be given once'))
  async stats(@ExistingTenant() tenantId: TenantId, @Query('action') action?: QueryValue): Promise<ExecutionStatsResponse> {
    if (Array.isArray(action)) throw new InvalidRequestError('action: must be given once');
    return { stats: await this.log.stats(tenantId, action) };
  }
}
