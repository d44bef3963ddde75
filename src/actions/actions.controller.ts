import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { CurrentTenant } from '../auth/current-principal.decorator';
import { GATEWAY_PREFIX } from '../common/routes';
import { TenantId } from '../common/tenant-id';
import { TenantAuthenticated } from '../rate-limit/rate-limit.decorators';
import { ActionsService } from './actions.service';
import { ActionListResponse, ActionResponse } from './dto/action.response';
import { CreateActionRequest } from './dto/create-action.request';
import { UpdateActionRequest } from './dto/update-action.request';

@Controller(`${GATEWAY_PREFIX}/actions`)
@TenantAuthenticated()
export class ActionsController {
  constructor(private readonly actions: ActionsService) {}

  @Get()
  async list(@CurrentTenant() tenantId: TenantId): Promise<ActionListResponse> {
    return { actions: await this.actions.list(tenantId) };
  }

  @Post()
  @HttpCode(201)
  async create(@CurrentTenant() tenantId: TenantId, @Body() body: CreateActionRequest): Promise<ActionResponse> {
    return { action: await this.actions.create(tenantId, body) };
  }

  @Get(':action_name')
  async get(@CurrentTenant() tenantId: TenantId, @Param('action_name') name: string): Promise<ActionResponse> {
    return { action: await this.actions.get(tenantId, name) };
  }

  @Put(':action_name')
  async update(
    @CurrentTenant() tenantId: TenantId,
    @Param('action_name') name: string,
    @Body() body: UpdateActionRequest,
  ): Promise<ActionResponse> {
    return { action: await this.actions.update(tenantId, name, body) };
  }

  @Delete(':action_name')
  @HttpCode(204)
  async delete(@CurrentTenant() tenantId: TenantId, @Param('action_name') name: string): Promise<void> {
    await this.actions.delete(tenantId, name);
  }
}
