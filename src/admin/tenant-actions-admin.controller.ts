import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiCookieAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ActionsService } from '../actions/actions.service';
import { ActionNameParam } from '../actions/dto/action-fields';
import { ActionPageResponse, ActionResponse } from '../actions/dto/action.response';
import { CreateActionRequest } from '../actions/dto/create-action.request';
import { UpdateActionRequest } from '../actions/dto/update-action.request';
import { ApiErrors, notFound } from '../common/api-errors.decorator';
import { KeepWrittenText } from '../common/json-body.interceptor';
import { JsonText } from '../common/json-response';
import { actionBody, actionPageBody } from '../actions/dto/action-json';
import { ApiPaged, PageParams } from '../common/page-params.decorator';
import { PageQuery } from '../common/paged-list';
import { ADMIN_PREFIX } from '../common/routes';
import { TenantId } from '../common/tenant-id';
import { ManagementAuthGuard } from '../console-auth/management-auth.guard';
import { ExistingTenant, ExistingTenantGuard } from '../tenancy/existing-tenant.guard';
import { RequestTrace } from '../tracing/request-trace';
import { TraceParent } from '../tracing/trace-context';

/**
 * A tenant's actions through the management API (what the console calls): the gateway's own ActionsService, so
 * every rule of `/api/v1/gateway/actions` holds here too, registration test included.
 */
@ApiTags('admin')
@ApiBearerAuth('admin')
@ApiCookieAuth('console')
@ApiErrors(401, 429, notFound('Tenant not found', 'Action not found'))
@Controller(`${ADMIN_PREFIX}/tenants/:tenant_id/actions`)
@ApiParam({ name: 'tenant_id', schema: { type: 'string', format: 'uuid' } })
@UseGuards(ManagementAuthGuard, ExistingTenantGuard)
export class TenantActionsAdminController {
  constructor(private readonly actions: ActionsService) {}

  @Get()
  @ApiOperation({ summary: 'List a tenant\'s actions, ordered by name, a page at a time', operationId: 'listTenantActions' })
  @ApiPaged()
  @ApiOkResponse({ type: ActionPageResponse })
  async list(@ExistingTenant() tenantId: TenantId, @PageParams() page: PageQuery): Promise<JsonText> {
    const { items, nextCursor } = await this.actions.listPage(tenantId, page);
    return actionPageBody(items, nextCursor);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Register an action for a tenant (its webhook gets the signed test POST first)', operationId: 'createTenantAction' })
  @ApiCreatedResponse({ type: ActionResponse })
  @ApiErrors(400, 403, 409, 413)
  @KeepWrittenText('json_schema')
  async create(@ExistingTenant() tenantId: TenantId, @Body() body: CreateActionRequest, @RequestTrace() trace: TraceParent): Promise<JsonText> {
    return actionBody(await this.actions.create(tenantId, body, trace));
  }

  @Get(':action_name')
  @ActionNameParam()
  @ApiOperation({ summary: 'Read one of a tenant\'s actions', operationId: 'getTenantAction' })
  @ApiOkResponse({ type: ActionResponse })
  async get(@ExistingTenant() tenantId: TenantId, @Param('action_name') name: string): Promise<JsonText> {
    return actionBody(await this.actions.get(tenantId, name));
  }

  @Put(':action_name')
  @ActionNameParam()
  @ApiOperation({ summary: 'Change an action\'s description, webhook_url and/or json_schema', operationId: 'updateTenantAction' })
  @ApiOkResponse({ type: ActionResponse })
  @ApiErrors(400, 413)
  @KeepWrittenText('json_schema')
  async update(
    @ExistingTenant() tenantId: TenantId,
    @Param('action_name') name: string,
    @Body() body: UpdateActionRequest,
    @RequestTrace() trace: TraceParent,
  ): Promise<JsonText> {
    return actionBody(await this.actions.update(tenantId, name, body, trace));
  }

  @Delete(':action_name')
  @ActionNameParam()
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an action and its execution log', operationId: 'deleteTenantAction' })
  @ApiNoContentResponse({ description: 'Deleted' })
  async delete(@ExistingTenant() tenantId: TenantId, @Param('action_name') name: string): Promise<void> {
    await this.actions.delete(tenantId, name);
  }
}
