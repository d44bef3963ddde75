import { Injectable } from '@nestjs/common';
import { ApiTokenDto } from '../auth/api-token.dto';
import { ApiTokensService } from '../auth/api-tokens.service';
import { Page, PageQuery } from '../common/paged-list';
import { ConsoleSessionsService } from '../console-auth/console-sessions.service';
import { TenancyService } from '../tenancy/tenancy.service';
import { TenantDto } from '../tenancy/tenant.dto';
import { TenantStatus } from '../tenancy/tenant.entity';
import { HmacKeyDto } from '../webhooks/hmac-key.dto';
import { HmacKeysService } from '../webhooks/hmac-keys.service';

export interface BootstrapResult {
  tenant: TenantDto;
  api_token: ApiTokenDto;
  hmac_key: HmacKeyDto;
}

/**
 * Gateway Management (what the admin panel calls): tenants, their API tokens and HMAC keys. Every tenant-scoped
 * operation first proves the tenant exists, so an unknown tenant is always `Tenant not found`.
 */
@Injectable()
export class AdminService {
  constructor(
    private readonly tenancy: TenancyService,
    private readonly apiTokens: ApiTokensService,
    private readonly hmacKeys: HmacKeysService,
    private readonly consoleSessions: ConsoleSessionsService,
  ) {}

  createTenant(name: string): Promise<TenantDto> {
    return this.tenancy.create(name);
  }

  /** A page of the tenants (`limit`, `cursor`: PagedList). */
  listTenants(query?: PageQuery): Promise<Page<TenantDto>> {
    return this.tenancy.list(query);
  }

  getTenant(id: string): Promise<TenantDto> {
    return this.tenancy.get(id);
  }

  async updateTenant(id: string, changes: { name?: string; status?: TenantStatus }): Promise<TenantDto> {
    const tenant = await this.tenancy.update(id, changes);
    if (tenant.status === 'disabled') await this.consoleSessions.endTenantSessions(await this.tenancy.requireId(tenant.id));
    return tenant;
  }

  async createApiToken(tenantId: string, name: string, expiresAt?: string | null): Promise<ApiTokenDto> {
    return this.apiTokens.create(await this.tenancy.requireId(tenantId), name, expiresAt ?? null);
  }

  async listApiTokens(tenantId: string, query?: PageQuery): Promise<Page<ApiTokenDto>> {
    return this.apiTokens.list(await this.tenancy.requireId(tenantId), query);
  }

  async revokeApiToken(tenantId: string, tokenId: string): Promise<void> {
    await this.apiTokens.revoke(await this.tenancy.requireId(tenantId), tokenId);
  }

  async createHmacKey(tenantId: string): Promise<HmacKeyDto> {
    return this.hmacKeys.create(await this.tenancy.requireId(tenantId));
  }

  async listHmacKeys(tenantId: string, query?: PageQuery): Promise<Page<HmacKeyDto>> {
    return this.hmacKeys.list(await this.tenancy.requireId(tenantId), query);
  }

  async revokeHmacKey(tenantId: string, keyId: string): Promise<void> {
    await this.hmacKeys.revoke(await this.tenancy.requireId(tenantId), keyId);
  }

  /** A tenant ready to use: one API token and one HMAC key (the command line's `bootstrap`). */
  async bootstrap(name: string): Promise<BootstrapResult> {
    const tenant = await this.createTenant(name);
    const apiToken = await this.createApiToken(tenant.id, 'bootstrap');
    const hmacKey = await this.createHmacKey(tenant.id);
    return { tenant, api_token: apiToken, hmac_key: hmacKey };
  }
}
