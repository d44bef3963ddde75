import { Injectable } from '@nestjs/common';
import { ApiTokenDto } from '../auth/api-token.dto';
import { ApiTokensService } from '../auth/api-tokens.service';
import { PrincipalCache } from '../auth/principal-cache';
import { InvalidRequestError } from '../common/common.errors';
import { Clock } from '../common/clock';
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
    private readonly principals: PrincipalCache,
    private readonly clock: Clock,
    private readonly consoleSessions: ConsoleSessionsService,
  ) {}

  createTenant(name: string): Promise<TenantDto> {
    return this.tenancy.create(name);
  }

  listTenants(): Promise<TenantDto[]> {
    return this.tenancy.list();
  }

  getTenant(id: string): Promise<TenantDto> {
    return this.tenancy.get(id);
  }

  async updateTenant(id: string, changes: { name?: string; status?: TenantStatus }): Promise<TenantDto> {
    const tenant = await this.tenancy.update(id, changes);
    this.principals.forgetTenant(tenant.id);
    if (tenant.status === 'disabled') await this.consoleSessions.endTenantSessions(await this.tenancy.requireId(tenant.id));
    return tenant;
  }

  async createApiToken(tenantId: string, name: string, expiresAt?: string | null): Promise<ApiTokenDto> {
    const id = await this.tenancy.requireId(tenantId);
    const expiry = expiresAt ? new Date(expiresAt) : null;
    if (expiry && Number.isNaN(expiry.getTime())) throw new InvalidRequestError('expires_at: must be an ISO 8601 date-time');
    if (expiry && expiry.getTime() <= this.clock.now().getTime()) {
      throw new InvalidRequestError('expires_at: must be in the future');
    }
    return this.apiTokens.create(id, name, expiry);
  }

  async listApiTokens(tenantId: string): Promise<ApiTokenDto[]> {
    return this.apiTokens.list(await this.tenancy.requireId(tenantId));
  }

  async revokeApiToken(tenantId: string, tokenId: string): Promise<void> {
    await this.apiTokens.revoke(await this.tenancy.requireId(tenantId), tokenId);
  }

  async createHmacKey(tenantId: string): Promise<HmacKeyDto> {
    return this.hmacKeys.create(await this.tenancy.requireId(tenantId));
  }

  async listHmacKeys(tenantId: string): Promise<HmacKeyDto[]> {
    return this.hmacKeys.list(await this.tenancy.requireId(tenantId));
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
