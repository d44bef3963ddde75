import { Body, Controller, Get, Headers, HttpCode, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { prefersRespondAsync } from '../common/prefer';
import { ApiBearerAuth, ApiBody, ApiParam, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ActionNameParam } from '../actions/dto/action-fields';
import { ActionsService } from '../actions/actions.service';
import { ApiErrors, conflict, gone, invalid, notFound } from '../common/api-errors.decorator';
import { ForwardsAsWritten } from '../common/json-body.interceptor';
import { ADMIN_PREFIX } from '../common/routes';
import { TenantId } from '../common/tenant-id';
import { ManagementAuthGuard } from '../console-auth/management-auth.guard';
import { ExecuteActionRequest } from '../executions/dto/execute-action.request';
import { ExecutionDetailListResponse, ExecutionDetailResponse } from '../executions/dto/execution-detail.response';
import { ExecutionResponse, ReplayResponse } from '../executions/dto/execution.response';
import { circuitBody, CircuitResponse } from '../executions/dto/circuit.response';
import { LogSettingsResponse, UpdateLogSettingsRequest } from '../executions/dto/log-settings';
import { ExecutionLogService } from '../executions/execution-log.service';
import { ApiExecutionListQuery } from '../executions/execution-list.openapi';
import { parseExecutionListQuery, QueryValue } from '../executions/execution-query';
import { ExecutionsService } from '../executions/executions.service';
import { BulkReplays } from '../executions/bulk-replays';
import { accepted, ApiRespondAsync } from '../executions/respond-async';
import { ApiIdempotencyKey, idempotencyKeyOf, INVALID_KEY_EXAMPLE, KEY_IN_USE_EXAMPLE, markReplayed, REPLAYED_RESPONSE_HEADER } from '../executions/idempotency';
import { BulkReplayRequest, BulkReplayResponse } from '../executions/dto/bulk-replay';
import { TenantBudgeted } from '../rate-limit/managed-tenant-throttler.guard';
import { ActiveTenantOnly, ExistingTenant, ExistingTenantGuard } from '../tenancy/existing-tenant.guard';
import { RequestTrace } from '../tracing/request-trace';
import { TraceParent } from '../tracing/trace-context';
import { TenantDisabledError } from '../tenancy/tenancy.errors';

const TENANT_DISABLED = new TenantDisabledError().message;

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
  constructor(
    private readonly executions: ExecutionsService,
    private readonly log: ExecutionLogService,
    private readonly actions: ActionsService,
    private readonly bulk: BulkReplays,
  ) {}

  @Post('execute')
  @HttpCode(200)
  @ActiveTenantOnly()
  @TenantBudgeted()
  @ForwardsAsWritten()
  @ApiOperation({
    summary: 'Run the action as the platform does (parameters checked, signed POST, retries, stored); counts against the tenant\'s rate limit',
    operationId: 'executeTenantAction',
  })
  @ApiBody({ type: ExecuteActionRequest, required: false, description: 'May be left out: no body runs the action with parameters {}' })
  @ApiOkResponse({ type: ExecutionResponse, description: 'Whatever the receiver did; the execution says how it went', headers: REPLAYED_RESPONSE_HEADER })
  @ApiIdempotencyKey()
  @ApiRespondAsync('`Location` is `/api/v1/admin/tenants/{tenant_id}/executions/{execution_id}`.')
  @ApiErrors(
    invalid('parameters: must be a JSON object', { error: 'Invalid parameters', details: "parameters: must have required property 'city'" }, INVALID_KEY_EXAMPLE),
    conflict('no active HMAC key for this tenant', KEY_IN_USE_EXAMPLE, TENANT_DISABLED), 413)
  async execute(
    @ExistingTenant() tenantId: TenantId,
    @Param('action_name') name: string,
    @Body() body: ExecuteActionRequest,
    @RequestTrace() trace: TraceParent,
    @Headers('prefer') prefer: string | undefined,
    @Headers('idempotency-key') key: string | string[] | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ExecutionResponse> {
    const idempotencyKey = idempotencyKeyOf(key);
    const answer = await this.executions.run(tenantId, name, body.parameters ?? {}, { respondAsync: prefersRespondAsync(prefer), idempotencyKey }, undefined, trace);
    if (answer.accepted) accepted(reply, `/${ADMIN_PREFIX}/tenants/${tenantId}/executions/${answer.execution.id}`);
    markReplayed(reply, answer.replayed);
    return { execution: answer.execution };
  }

  @Get('executions')
  @ApiOperation({ summary: 'The action\'s execution log, newest first, with every attempt; filtered and paged', operationId: 'listTenantActionExecutions' })
  @ApiExecutionListQuery(false)
  @ApiOkResponse({ type: ExecutionDetailListResponse })
  @ApiErrors(invalid('limit: must be a positive integer'))
  async list(
    @ExistingTenant() tenantId: TenantId,
    @Param('action_name') name: string,
    @Query() query: Record<string, QueryValue>,
  ): Promise<ExecutionDetailListResponse> {
    return this.log.listWithAttempts(tenantId, name, parseExecutionListQuery(query, false));
  }

  @Get('executions/:execution_id')
  @ApiOperation({ summary: 'One execution: every attempt, what was sent and what came back', operationId: 'getTenantActionExecution' })
  @ApiParam({ name: 'execution_id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: ExecutionDetailResponse })
  @ApiErrors(notFound('Tenant not found', 'Action not found', 'Execution not found'))
  async get(
    @ExistingTenant() tenantId: TenantId,
    @Param('action_name') name: string,
    @Param('execution_id') id: string,
  ): Promise<ExecutionDetailResponse> {
    return { execution: await this.log.get(tenantId, name, id) };
  }

  @Post('executions/:execution_id/replay')
  @HttpCode(200)
  @ActiveTenantOnly()
  @TenantBudgeted()
  @ApiOperation({
    summary: 'Run the action again with the parameters of one of its executions (a new execution with replay_of); counts against the tenant\'s rate limit',
    operationId: 'replayTenantActionExecution',
  })
  @ApiParam({ name: 'execution_id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: ReplayResponse })
  @ApiErrors(
    notFound('Tenant not found', 'Action not found', 'Execution not found'),
    conflict('execution cannot be replayed: its payload was not logged (payload logging was off for the action)', TENANT_DISABLED),
    gone('execution cannot be replayed: its payload has expired (payloads are kept 7 days)'),
    invalid('body: must be a JSON object'),
    413,
    429,
  )
  async replay(@ExistingTenant() tenantId: TenantId, @Param('action_name') name: string, @Param('execution_id') id: string): Promise<ReplayResponse> {
    return { execution: (await this.executions.replay(tenantId, name, id)) as ReplayResponse['execution'] };
  }

  @Post('executions/replay')
  @HttpCode(202)
  @ActiveTenantOnly()
  @ApiOperation({
    summary:
      'Replay the action\'s failed originals since a time (at most 1,000; not replays, nor those a replay has delivered) in the background; each counts against the tenant\'s rate limit',
    operationId: 'replayFailedTenantActionExecutions',
  })
  @ApiBody({ type: BulkReplayRequest })
  @ApiResponse({ status: 202, type: BulkReplayResponse, description: 'Started' })
  @ApiErrors(invalid('since: must be an RFC 3339 date-time, like 2026-11-27T10:00:00Z'), conflict('a bulk replay is already running for this tenant (…)', TENANT_DISABLED), 413)
  async replayFailed(@ExistingTenant() tenantId: TenantId, @Param('action_name') name: string, @Body() body: BulkReplayRequest): Promise<BulkReplayResponse> {
    return { replay: await this.bulk.start(tenantId, name, body) };
  }

  @Get('replays/:replay_id')
  @ApiOperation({ summary: 'How far a bulk replay got: done, left, succeeded, failed, skipped', operationId: 'getTenantBulkReplay' })
  @ApiParam({ name: 'replay_id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: BulkReplayResponse })
  @ApiErrors(notFound('Tenant not found', 'Action not found', 'Replay not found'))
  async bulkReplay(@ExistingTenant() tenantId: TenantId, @Param('action_name') name: string, @Param('replay_id') id: string): Promise<BulkReplayResponse> {
    return { replay: await this.bulk.get(tenantId, name, id) };
  }

  @Get('circuit')
  @ApiOperation({
    summary: 'The action\'s circuit breaker as the answering replica sees it: closed, open (executions fail at once until retry_at) or half_open',
    operationId: 'getTenantActionCircuit',
  })
  @ApiOkResponse({ type: CircuitResponse })
  async circuit(@ExistingTenant() tenantId: TenantId, @Param('action_name') name: string): Promise<CircuitResponse> {
    return circuitBody(await this.executions.circuit(tenantId, name));
  }

  @Get('log-settings')
  @ApiOperation({ summary: 'The action\'s delivery log settings (payload logging)', operationId: 'getTenantActionLogSettings' })
  @ApiOkResponse({ type: LogSettingsResponse })
  async logSettings(@ExistingTenant() tenantId: TenantId, @Param('action_name') name: string): Promise<LogSettingsResponse> {
    return { log_settings: { payload_logging: (await this.actions.logSettings(tenantId, name)).payloadLogging } };
  }

  @Put('log-settings')
  @ApiOperation({ summary: 'Turn payload logging on or off for the action', operationId: 'updateTenantActionLogSettings' })
  @ApiBody({ type: UpdateLogSettingsRequest })
  @ApiOkResponse({ type: LogSettingsResponse })
  @ApiErrors(invalid('payload_logging: must be a boolean'), 413)
  async updateLogSettings(
    @ExistingTenant() tenantId: TenantId,
    @Param('action_name') name: string,
    @Body() body: UpdateLogSettingsRequest,
  ): Promise<LogSettingsResponse> {
    return { log_settings: { payload_logging: (await this.actions.setPayloadLogging(tenantId, name, body.payload_logging)).payloadLogging } };
  }
}
