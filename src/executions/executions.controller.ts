import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-principal.decorator';
import { ArrivedAt } from '../common/request-arrival';
import { AsOf } from '../database/read-scope';
import { ApiErrors, conflict, invalid } from '../common/api-errors.decorator';
import { ForwardsAsWritten } from '../common/json-body.interceptor';
import { GATEWAY_PREFIX } from '../common/routes';
import { TenantId } from '../common/tenant-id';
import { TenantAuthenticated } from '../auth/tenant-authenticated.decorator';
import { RequestTrace } from '../tracing/request-trace';
import { TraceParent } from '../tracing/trace-context';
import { ActionNameParam } from '../actions/dto/action-fields';
import { ExecuteActionRequest } from './dto/execute-action.request';
import { ExecutionListResponse, ExecutionResponse } from './dto/execution.response';
import { parseExecutionLimit } from './execution-query';
import { ExecutionsService } from './executions.service';

@ApiTags('executions')
@ApiBearerAuth()
@ApiErrors(401, 404, 429)
@ActionNameParam()
@Controller(`${GATEWAY_PREFIX}/actions/:action_name`)
@TenantAuthenticated()
export class ExecutionsController {
  constructor(private readonly executions: ExecutionsService) {}

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
  @ApiOkResponse({ type: ExecutionResponse, description: 'Whatever the receiver did; the execution says how it went' })
  @ApiErrors(invalid('parameters: must be a JSON object', { error: 'Invalid parameters', details: "parameters: must have required property 'city'" }), conflict('no active HMAC key for this tenant'), 413)
  async execute(
    @CurrentTenant() tenantId: TenantId,
    @ArrivedAt() arrivedAt: AsOf,
    @Param('action_name') name: string,
    @Body() body: ExecuteActionRequest,
    @RequestTrace() trace: TraceParent,
  ): Promise<ExecutionResponse> {
    return { execution: await this.executions.execute(tenantId, name, body.parameters ?? {}, arrivedAt, trace) };
  }

  @Get('executions')
  @ApiOperation({ operationId: 'listExecutions', summary: 'The latest executions, newest first' })
  @ApiQuery({ name: 'limit', required: false, description: 'How many, newest first; at most 100 are listed, whatever is asked', schema: { type: 'integer', minimum: 1, default: 20 } })
  @ApiOkResponse({ type: ExecutionListResponse })
  @ApiErrors(invalid('limit: must be a positive integer'))
  async list(
    @CurrentTenant() tenantId: TenantId,
    @ArrivedAt() arrivedAt: AsOf,
    @Param('action_name') name: string,
    @Query('limit') limit?: string,
  ): Promise<ExecutionListResponse> {
    return { executions: await this.executions.list(tenantId, name, parseExecutionLimit(limit), arrivedAt) };
  }
}
