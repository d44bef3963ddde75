import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-principal.decorator';
import { ArrivedAt } from '../common/request-arrival';
import { AsOf } from '../database/read-scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { KeepWrittenText } from '../common/json-body.interceptor';
import { JsonText } from '../common/json-response';
import { actionBody, actionListBody } from './dto/action-json';
import { GATEWAY_PREFIX } from '../common/routes';
import { TenantId } from '../common/tenant-id';
import { TenantAuthenticated } from '../auth/tenant-authenticated.decorator';
import { ActionsService } from './actions.service';
import { ActionListResponse, ActionResponse } from './dto/action.response';
import { ActionNameParam } from './dto/action-fields';
import { CreateActionRequest } from './dto/create-action.request';
import { UpdateActionRequest } from './dto/update-action.request';
import { RequestTrace } from '../tracing/request-trace';
import { TraceParent } from '../tracing/trace-context';

@ApiTags('actions')
@ApiBearerAuth()
@ApiErrors(401, 429)
@Controller(`${GATEWAY_PREFIX}/actions`)
@TenantAuthenticated()
export class ActionsController {
  constructor(private readonly actions: ActionsService) {}

  @Get()
  @ApiOperation({ operationId: 'listActions', summary: 'List the tenant\'s actions, ordered by name' })
  @ApiOkResponse({ type: ActionListResponse })
  async list(@CurrentTenant() tenantId: TenantId, @ArrivedAt() arrivedAt: AsOf): Promise<JsonText> {
    return actionListBody(await this.actions.list(tenantId, arrivedAt));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createAction', summary: 'Register an action; its webhook gets a signed test POST first (any 2xx passes)' })
  @ApiCreatedResponse({ type: ActionResponse })
  @ApiErrors(400, 403, 409, 413)
  @KeepWrittenText('json_schema')
  async create(@CurrentTenant() tenantId: TenantId, @Body() body: CreateActionRequest, @RequestTrace() trace: TraceParent): Promise<JsonText> {
    return actionBody(await this.actions.create(tenantId, body, trace));
  }

  @Get(':action_name')
  @ActionNameParam()
  @ApiOperation({ operationId: 'getAction', summary: 'Read one action' })
  @ApiOkResponse({ type: ActionResponse })
  @ApiErrors(404)
  async get(@CurrentTenant() tenantId: TenantId, @ArrivedAt() arrivedAt: AsOf, @Param('action_name') name: string): Promise<JsonText> {
    return actionBody(await this.actions.get(tenantId, name, arrivedAt));
  }

  @Put(':action_name')
  @ActionNameParam()
  @ApiOperation({ operationId: 'updateAction', summary: 'Change description, webhook_url and/or json_schema (a new webhook_url is tested first)' })
  @ApiOkResponse({ type: ActionResponse })
  @ApiErrors(400, 404, 413)
  @KeepWrittenText('json_schema')
  async update(
    @CurrentTenant() tenantId: TenantId,
    @Param('action_name') name: string,
    @Body() body: UpdateActionRequest,
    @RequestTrace() trace: TraceParent,
  ): Promise<JsonText> {
    return actionBody(await this.actions.update(tenantId, name, body, trace));
  }

  @Delete(':action_name')
  @HttpCode(204)
  @ActionNameParam()
  @ApiOperation({ operationId: 'deleteAction', summary: 'Delete an action (and its execution log)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  async delete(@CurrentTenant() tenantId: TenantId, @Param('action_name') name: string): Promise<void> {
    await this.actions.delete(tenantId, name);
  }
}
