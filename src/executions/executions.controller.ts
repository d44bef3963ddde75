import { Body, Controller, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { prefersRespondAsync } from '../common/prefer';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-principal.decorator';
import { ArrivedAt } from '../common/request-arrival';
import { AsOf } from '../database/read-scope';
import { ApiErrors, conflict, gone, invalid, notFound } from '../common/api-errors.decorator';
import { ForwardsAsWritten } from '../common/json-body.interceptor';
import { GATEWAY_PREFIX } from '../common/routes';
import { TenantId } from '../common/tenant-id';
import { TenantAuthenticated } from '../auth/tenant-authenticated.decorator';
import { RequestTrace } from '../tracing/request-trace';
import { TraceParent } from '../tracing/trace-context';
import { ActionNameParam } from '../actions/dto/action-fields';
import { ActionsService } from '../actions/actions.service';
import { ExecuteActionRequest } from './dto/execute-action.request';
import { ExecutionDetailResponse } from './dto/execution-detail.response';
import { ExecutionListResponse, ExecutionResponse, ReplayResponse } from './dto/execution.response';
import { LogSettingsResponse, UpdateLogSettingsRequest } from './dto/log-settings';
import { ExecutionLogService } from './execution-log.service';
import { parseExecutionListQuery, QueryValue } from './execution-query';
import { ApiExecutionListQuery } from './execution-list.openapi';
import { ExecutionsService } from './executions.service';
import { BulkReplays } from './bulk-replays';
import { accepted, ApiRespondAsync } from './respond-async';
import { ApiIdempotencyKey, idempotencyKeyOf, INVALID_KEY_EXAMPLE, KEY_IN_USE_EXAMPLE, markReplayed, REPLAYED_RESPONSE_HEADER } from './idempotency';
import { BulkReplayRequest, BulkReplayResponse } from './dto/bulk-replay';

@ApiTags('executions')
@ApiBearerAuth()
@ApiErrors(401, 404, 429)
@ActionNameParam()
@Controller(`${GATEWAY_PREFIX}/actions/:action_name`)
@TenantAuthenticated()
export class ExecutionsController {
  constructor(
    private readonly executions: ExecutionsService,
    private readonly log: ExecutionLogService,
    private readonly actions: ActionsService,
    private readonly bulk: BulkReplays,
  ) {}

  @Post('execute')
  @HttpCode(200)
  @ForwardsAsWritten()
  @ApiOperation({
    operationId: 'executeAction',
    summary: 'Run the action as the platform does',
    description:
      'The parameters are checked against the action\'s json_schema, the signed POST goes out (retried on connection ' +
      'failures and 429/5xx within the 30-second budget) and the outcome is stored and returned.',
  })
  @ApiBody({ type: ExecuteActionRequest, required: false, description: 'May be left out: no body runs the action with parameters {}' })
  @ApiOkResponse({ type: ExecutionResponse, description: 'Whatever the receiver did; the execution says how it went', headers: REPLAYED_RESPONSE_HEADER })
  @ApiIdempotencyKey()
  @ApiRespondAsync('`Location` is `/api/v1/gateway/executions/{execution_id}`.')
  @ApiErrors(
    invalid('parameters: must be a JSON object', { error: 'Invalid parameters', details: "parameters: must have required property 'city'" }, INVALID_KEY_EXAMPLE),
    conflict('no active HMAC key for this tenant', KEY_IN_USE_EXAMPLE), 413)
  async execute(
    @CurrentTenant() tenantId: TenantId,
    @ArrivedAt() arrivedAt: AsOf,
    @Param('action_name') name: string,
    @Body() body: ExecuteActionRequest,
    @RequestTrace() trace: TraceParent,
    @Headers('prefer') prefer: string | undefined,
    @Headers('idempotency-key') key: string | string[] | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ExecutionResponse> {
    const idempotencyKey = idempotencyKeyOf(key);
    const answer = await this.executions.run(tenantId, name, body.parameters ?? {}, { respondAsync: prefersRespondAsync(prefer), idempotencyKey }, arrivedAt, trace);
    if (answer.accepted) accepted(reply, `/${GATEWAY_PREFIX}/executions/${answer.execution.id}`);
    markReplayed(reply, answer.replayed);
    return { execution: answer.execution };
  }

  @Get('executions')
  @ApiOperation({
    operationId: 'listExecutions',
    summary: 'The action\'s executions, newest first, filtered and paged',
    description: 'Each page continues where the previous one ended (next_cursor), so executions stored meanwhile are neither repeated nor make a page skip any.',
  })
  @ApiExecutionListQuery(false)
  @ApiOkResponse({ type: ExecutionListResponse })
  @ApiErrors(invalid('limit: must be a positive integer'))
  async list(
    @CurrentTenant() tenantId: TenantId,
    @ArrivedAt() arrivedAt: AsOf,
    @Param('action_name') name: string,
    @Query() query: Record<string, QueryValue>,
  ): Promise<ExecutionListResponse> {
    return this.log.list(tenantId, name, parseExecutionListQuery(query, false), arrivedAt);
  }

  @Get('executions/:execution_id')
  @ApiOperation({
    operationId: 'getExecution',
    summary: 'One execution: its attempts, what was sent and what came back',
    description: 'The payload is there while payload logging was on for the action and EXECUTION_PAYLOAD_RETENTION_DAYS have not passed.',
  })
  @ApiParam({ name: 'execution_id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: ExecutionDetailResponse })
  @ApiErrors(notFound('Action not found', 'Execution not found'))
  async get(
    @CurrentTenant() tenantId: TenantId,
    @ArrivedAt() arrivedAt: AsOf,
    @Param('action_name') name: string,
    @Param('execution_id') id: string,
  ): Promise<ExecutionDetailResponse> {
    return { execution: await this.log.get(tenantId, name, id, arrivedAt) };
  }

  @Post('executions/:execution_id/replay')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'replayExecution',
    summary: 'Run the action again with the parameters of one of its executions',
    description:
      'A new execution, against the action\'s current definition: the parameters are checked again and the call signed anew. ' +
      'It carries the original execution\'s id as its webhook-id (Standard Webhooks: the same id when a message is sent again), ' +
      'so a receiver that already handled it can tell. Needs the stored payload: 409 when payload logging was off, 410 once it has expired.',
  })
  @ApiParam({ name: 'execution_id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: ReplayResponse, description: 'The new execution, with replay_of' })
  @ApiErrors(
    notFound('Action not found', 'Execution not found'),
    invalid('body: must be a JSON object', { error: 'Invalid parameters', details: "parameters: must have required property 'city'" }),
    conflict('execution cannot be replayed: its payload was not logged (payload logging was off for the action)'),
    gone('execution cannot be replayed: its payload has expired (payloads are kept 7 days)'),
    413,
  )
  async replay(
    @CurrentTenant() tenantId: TenantId,
    @ArrivedAt() arrivedAt: AsOf,
    @Param('action_name') name: string,
    @Param('execution_id') id: string,
    @RequestTrace() trace: TraceParent,
  ): Promise<ReplayResponse> {
    return { execution: (await this.executions.replay(tenantId, name, id, arrivedAt, trace)) as ReplayResponse['execution'] };
  }

  @Post('executions/replay')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'replayFailedExecutions',
    summary: 'Replay the action\'s failed executions since a time (at most 1,000), each original at most once, in the background',
    description:
      'The failed originals (a replay is never replayed itself), leaving out any that a replay has delivered since, so a run repeated while ' +
      'the receiver fails sends each original once more and, once one succeeded, never again. ' +
      'Each is replayed as POST …/executions/{execution_id}/replay does (under the original\'s webhook-id), oldest first, one at a time, and counts against the tenant\'s ' +
      'hourly budget like a request: the replay stops, saying why, when the budget is spent. One bulk replay per tenant runs at a time. ' +
      'GET …/replays/{replay_id} tells how many are done and how many are left.',
  })
  @ApiBody({ type: BulkReplayRequest })
  @ApiResponse({ status: 202, type: BulkReplayResponse, description: 'Started' })
  @ApiErrors(invalid('since: more than 1000 failed executions from then on; replay a shorter period (until)'), conflict('a bulk replay is already running for this tenant (…)'), 413)
  async replayFailed(
    @CurrentTenant() tenantId: TenantId,
    @ArrivedAt() arrivedAt: AsOf,
    @Param('action_name') name: string,
    @Body() body: BulkReplayRequest,
  ): Promise<BulkReplayResponse> {
    return { replay: await this.bulk.start(tenantId, name, body, arrivedAt) };
  }

  @Get('replays/:replay_id')
  @ApiOperation({ operationId: 'getBulkReplay', summary: 'How far a bulk replay got: done, left, succeeded, failed, skipped' })
  @ApiParam({ name: 'replay_id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: BulkReplayResponse })
  @ApiErrors(notFound('Action not found', 'Replay not found'))
  async bulkReplay(
    @CurrentTenant() tenantId: TenantId,
    @ArrivedAt() arrivedAt: AsOf,
    @Param('action_name') name: string,
    @Param('replay_id') id: string,
  ): Promise<BulkReplayResponse> {
    return { replay: await this.bulk.get(tenantId, name, id, arrivedAt) };
  }

  @Get('log-settings')
  @ApiOperation({
    operationId: 'getLogSettings',
    summary: 'The action\'s delivery log settings',
    description: 'Kept apart from the Action, whose fields the interface fixes.',
  })
  @ApiOkResponse({ type: LogSettingsResponse })
  async logSettings(@CurrentTenant() tenantId: TenantId, @ArrivedAt() arrivedAt: AsOf, @Param('action_name') name: string): Promise<LogSettingsResponse> {
    const settings = await this.actions.logSettings(tenantId, name, arrivedAt);
    return { log_settings: { payload_logging: settings.payloadLogging } };
  }

  @Put('log-settings')
  @ApiOperation({
    operationId: 'updateLogSettings',
    summary: 'Turn payload logging on or off for the action',
    description: 'Off: executions from then on keep their summary and attempts but not what was sent or came back (parameters may carry personal data), and cannot be replayed.',
  })
  @ApiBody({ type: UpdateLogSettingsRequest })
  @ApiOkResponse({ type: LogSettingsResponse })
  @ApiErrors(invalid('payload_logging: must be a boolean'), 413)
  async updateLogSettings(
    @CurrentTenant() tenantId: TenantId,
    @Param('action_name') name: string,
    @Body() body: UpdateLogSettingsRequest,
  ): Promise<LogSettingsResponse> {
    const settings = await this.actions.setPayloadLogging(tenantId, name, body.payload_logging);
    return { log_settings: { payload_logging: settings.payloadLogging } };
  }
}
