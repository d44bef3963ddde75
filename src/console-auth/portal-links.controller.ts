import { Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiParam, ApiCreatedResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiErrors, invalid, notFound } from '../common/api-errors.decorator';
import { ErrorBody } from '../common/error-body';
import { ADMIN_PREFIX } from '../common/routes';
import { connectionOrigin } from '../common/request-origin';
import { TenantId } from '../common/tenant-id';
import { ExistingTenant, ExistingTenantGuard } from '../tenancy/existing-tenant.guard';
import { ConsoleSessionsService } from './console-sessions.service';
import { PortalLinkResponse } from './dto/portal-link.response';
import { ManagementAuthGuard } from './management-auth.guard';
import { OperatorsOnly } from './operators-only.decorator';

/** What the platform's admin backend calls to send one of a tenant's developers into the console. */
@ApiTags('console')
@ApiBearerAuth('admin')
@ApiCookieAuth('console')
@Controller(`${ADMIN_PREFIX}/tenants/:tenant_id/portal-links`)
@ApiParam({ name: 'tenant_id', schema: { type: 'string', format: 'uuid' } })
@UseGuards(ManagementAuthGuard, ExistingTenantGuard)
export class PortalLinksController {
  constructor(private readonly sessions: ConsoleSessionsService) {}

  @Post()
  @HttpCode(201)
  @OperatorsOnly()
  @ApiOperation({
    summary: 'A single-use link (valid PORTAL_LINK_TTL_SECONDS) that opens a console session scoped to this tenant',
    operationId: 'createPortalLink',
  })
  @ApiCreatedResponse({ type: PortalLinkResponse })
  // A body is read (and may be malformed or too large) though the operation takes none.
  @ApiErrors(invalid('body: must be a JSON object'), 401, notFound('Tenant not found'), 413, 429)
  @ApiResponse({ status: 403, type: ErrorBody, description: 'A tenant session cannot mint links', example: { error: 'Operators only' } })
  async create(@ExistingTenant() tenantId: TenantId, @Req() request: FastifyRequest): Promise<PortalLinkResponse> {
    // Without PUBLIC_URL (never in production), the address the developer reached: the connection's, not a header's.
    return { portal_link: await this.sessions.createPortalLink(tenantId, connectionOrigin(request)) };
  }
}
