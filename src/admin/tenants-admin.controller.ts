import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiErrors, invalid, notFound } from '../common/api-errors.decorator';
import { ApiPaged, NEXT_CURSOR_PROPERTY, PageParams } from '../common/page-params.decorator';
import { PageQuery } from '../common/paged-list';
import { ADMIN_PREFIX } from '../common/routes';
import { ManagementAuthGuard } from '../console-auth/management-auth.guard';
import { OperatorsOnly } from '../console-auth/operators-only.decorator';
import { TenantDto } from '../tenancy/tenant.dto';
import { AdminService } from './admin.service';
import { CreateTenantRequest } from './dto/create-tenant.request';
import { UpdateTenantRequest } from './dto/update-tenant.request';

class TenantResponse {
  @ApiProperty({ type: TenantDto })
  tenant: TenantDto;
}

class TenantListResponse {
  @ApiProperty({ type: [TenantDto] })
  tenants: TenantDto[];

  @ApiProperty(NEXT_CURSOR_PROPERTY)
  next_cursor: string | null;
}

@ApiTags('admin')
@ApiBearerAuth('admin')
@ApiCookieAuth('console')
@ApiErrors(401, 429)
@Controller(`${ADMIN_PREFIX}/tenants`)
@UseGuards(ManagementAuthGuard)
export class TenantsAdminController {
  constructor(private readonly admin: AdminService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createTenant', summary: 'Create a tenant' })
  @ApiCreatedResponse({ type: TenantResponse })
  @ApiErrors(invalid('name: must be 1 to 200 characters'), 413)
  async create(@Body() body: CreateTenantRequest): Promise<{ tenant: TenantDto }> {
    return { tenant: await this.admin.createTenant(body.name) };
  }

  @Get()
  @ApiOperation({ operationId: 'listTenants', summary: 'List tenants, newest first, a page at a time' })
  @ApiPaged()
  @ApiOkResponse({ type: TenantListResponse })
  async list(@PageParams() page: PageQuery): Promise<TenantListResponse> {
    const { items, nextCursor } = await this.admin.listTenants(page);
    return { tenants: items, next_cursor: nextCursor };
  }

  @Get(':tenant_id')
  @ApiOperation({ operationId: 'getTenant', summary: 'Read a tenant' })
  @ApiOkResponse({ type: TenantResponse })
  @ApiErrors(notFound('Tenant not found'))
  async get(@Param('tenant_id') id: string): Promise<{ tenant: TenantDto }> {
    return { tenant: await this.admin.getTenant(id) };
  }

  @Patch(':tenant_id')
  @OperatorsOnly()
  @ApiOperation({ operationId: 'updateTenant', summary: 'Rename, disable or enable a tenant' })
  @ApiOkResponse({ type: TenantResponse })
  @ApiErrors(invalid('status: must be "active" or "disabled"'), notFound('Tenant not found'), 413)
  async update(@Param('tenant_id') id: string, @Body() body: UpdateTenantRequest): Promise<{ tenant: TenantDto }> {
    return { tenant: await this.admin.updateTenant(id, body) };
  }
}
