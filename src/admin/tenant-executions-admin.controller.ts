import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiParam, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ActionNameParam } from '../actions/dto/action-fields';
import { ApiErrors, conflict, invalid, notFound } from '../common/api-errors.decorator';
import { ForwardsAsWritten } from '../common/json-body.interceptor';
import { ADMIN_PREFIX } from '../common/routes';
import { TenantId } from '../common/tenant-id';
import { ManagementAuthGuard } from '../console-auth/management-auth.guard';
import { ExecuteActionRequest } from '../executions/dto/execute-action.request';
import { ExecutionDetailListResponse, ExecutionDetailResponse } from '../executions/dto/execution-detail.response';
import { ExecutionResponse } from '../executions/dto/execution.response';
import { parseExecutionLimit, parseExecutionStatus } from '../executions/execution-query';
import { ExecutionsService } from '../executions/executions.service';
import { TenantBudgeted } from '../rate-limit/managed-tenant-throttler.guard';
import { ExistingTenant, ExistingTenantGuard } from '../tenancy/existing-tenant.guard';
import { RequestTrace } from '../tracing/request-trace';
import { TraceParent } from '../tracing/trace-context';

/**
 * Running a tenant's action from the console ("try it") and reading its execution log with every attempt. Runs go
 * through the gateway's own ExecutionsService and count against the tenant's hourly budget.
 */
@ApiTags('admin')
@ApiBearerAuth('admin')
@ApiCookieAuth('console')
@ApiErrors(401, 429, notFound('Tenant not found', 'Action not found'))
@Controller(`${ADMIN_PREFIX}/tenants/:tenant_id/actions/:action_name`)
@ApiParam({ name: 'tenant_id', schema: { type: 'string', format: 'uuid' } })
@ActionNameParam()
@UseGuards(ManagementAuthGuard, ExistingTenantGuard)
export class TenantExecutionsAdminController {
  constructor(private readonly executions: ExecutionsService) {}

  @Post('execute')
  @HttpCode(200)
  @TenantBudgeted()
  @ForwardsAsWritten()
  @ApiOperation({
    summary: 'Run the action as the platform does (parameters checked, signed POST, retries, stored); counts against the tenant\'s rate limit',
    operationId: 'executeTenantAction',
  })
  @ApiBody({ type: ExecuteActionRequest, required: false, description: 'May be left out: no body runs the action with parameters {}' })
  @ApiOkResponse({ type: ExecutionResponse, description: 'Whatever the receiver did; the execution says how it went' })
  @ApiErrors(invalid('parameters: must be a JSON object', { error: 'Invalid parameters', details: "parameters: must have required property 'city'" }), conflict('no active HMAC key for this tenant'), 413, 429)
  async execute(
    @ExistingTenant() tenantId: TenantId,
    @Param('action_name') name: string,
    @Body() body: ExecuteActionRequest,
    @RequestTrace() trace: TraceParent,
  ): Promise<ExecutionResponse> {
    return { execution: await this.executions.execute(tenantId, name, body.parameters ?? {}, undefined, trace) };
  }

  @Get('executions')
  @ApiOperation({ summary: 'The action\'s execution log, newest first, with every attempt', operationId: 'listTenantActionExecutions' })
  @ApiQuery({ name: 'limit', required: false, description: 'How many, newest first; at most 100 are listed, whatever is asked', schema: { type: 'integer', minimum: 1, default: 20 } })
  @ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: ['succeeded', 'failed'] } })
  @ApiOkResponse({ type: ExecutionDetailListResponse })
  @ApiErrors(invalid('limit: must be a positive integer'))
  async list(
    @ExistingTenant() tenantId: TenantId,
    @Param('action_name') name: string,
    @Query('limit') limit?: string,
    @Query('status') status?: string,
  ): Promise<ExecutionDetailListResponse> {
    return { executions: await this.executions.listWithAttempts(tenantId, name, parseExecutionLimit(limit), parseExecutionStatus(status)) };
  }

  @Get('executions/:execution_id')
  @ApiOperation({ summary: 'One execution with every attempt (start, duration, status, error)', operationId: 'getTenantActionExecution' })
  @ApiOkResponse({ type: ExecutionDetailResponse })
  async get(
    @ExistingTenant() tenantId: TenantId,
    @Param('action_name') name: string,
    @Param('execution_id') id: string,
  ): Promise<ExecutionDetailResponse> {
    return { execution: await this.executions.getWithAttempts(tenantId, name, id) };
  }
}
