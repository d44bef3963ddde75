import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ADMIN_PREFIX } from '../common/routes';
import { TenantDto } from '../tenancy/tenant.dto';
import { AdminKeyGuard } from './admin-key.guard';
import { AdminService } from './admin.service';
import { CreateTenantRequest } from './dto/create-tenant.request';
import { UpdateTenantRequest } from './dto/update-tenant.request';

@Controller(`${ADMIN_PREFIX}/tenants`)
@UseGuards(AdminKeyGuard)
export class TenantsAdminController {
  constructor(private readonly admin: AdminService) {}

  @Post()
  @HttpCode(201)
  async create(@Body() body: CreateTenantRequest): Promise<{ tenant: TenantDto }> {
    return { tenant: await this.admin.createTenant(body.name) };
  }

  @Get()
  async list(): Promise<{ tenants: TenantDto[] }> {
    return { tenants: await this.admin.listTenants() };
  }

  @Get(':tenant_id')
  async get(@Param('tenant_id') id: string): Promise<{ tenant: TenantDto }> {
    return { tenant: await this.admin.getTenant(id) };
  }

  @Patch(':tenant_id')
  async update(@Param('tenant_id') id: string, @Body() body: UpdateTenantRequest): Promise<{ tenant: TenantDto }> {
    return { tenant: await this.admin.updateTenant(id, body) };
  }
}
