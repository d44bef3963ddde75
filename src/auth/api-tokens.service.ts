import { Injectable } from '@nestjs/common';
import { IdGenerator } from '../common/id-generator';
import { Clock } from '../common/clock';
import { asTenantId, TenantId } from '../common/tenant-id';
import { isUuid } from '../common/uuid';
import { ApiToken } from './api-token.entity';
import { ApiTokenDto } from './api-token.dto';
import { ApiTokenNotFoundError, InvalidApiTokenError } from './auth.errors';
import { ApiTokensRepository, ApiTokenWithTenantStatus } from './api-tokens.repository';
import { Principal } from './principal';
import { PrincipalCache } from './principal-cache';
import { generateApiToken, hashApiToken, sameDigest } from './token-credentials';

/** API tokens: issued and revoked by the admin panel, checked at the token exchange and on every bearer call. */
@Injectable()
export class ApiTokensService {
  constructor(
    private readonly tokens: ApiTokensRepository,
    private readonly cache: PrincipalCache,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** Issues a token; its plaintext is in this response and nowhere else, ever. */
  async create(tenantId: TenantId, name: string, expiresAt: Date | null = null): Promise<ApiTokenDto> {
    const { token, hash, prefix } = generateApiToken();
    const entity = Object.assign(new ApiToken(), {
      id: this.ids.next(),
      tenantId,
      name,
      prefix,
      tokenHash: hash,
      createdAt: this.clock.now(),
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    });
    await this.tokens.insert(entity);
    return { ...this.map(entity), token };
  }

  async list(tenantId: TenantId): Promise<ApiTokenDto[]> {
    return (await this.tokens.listByTenant(tenantId)).map((token) => this.map(token));
  }

  async revoke(tenantId: TenantId, id: string): Promise<void> {
    const existing = isUuid(id) ? await this.tokens.findByTenantAndId(tenantId, id) : null;
    if (!existing) throw new ApiTokenNotFoundError();
    await this.tokens.revoke(tenantId, id, this.clock.now());
    this.cache.forgetToken(id);
  }

  /** Checks a plaintext API token; unknown, revoked, expired and disabled-tenant tokens look the same. */
  async verify(plaintext: string): Promise<Principal> {
    const hash = hashApiToken(plaintext);
    const found = await this.tokens.findByHashWithTenantStatus(hash);
    if (!found || !sameDigest(found.token.tokenHash, hash) || !this.stands(found)) throw new InvalidApiTokenError();
    await this.tokens.touchLastUsed(found.token.id, this.clock.now());
    return { tenantId: asTenantId(found.token.tenantId), apiTokenId: found.token.id };
  }

  /** Whether a bearer token minted from `apiTokenId` for `tenantId` may still be used. */
  async isUsable(apiTokenId: string, tenantId: string): Promise<boolean> {
    const known = this.cache.isValid(apiTokenId, tenantId);
    if (known !== undefined) return known;
    const found = isUuid(apiTokenId) ? await this.tokens.findByIdWithTenantStatus(apiTokenId) : null;
    const valid = found !== null && found.token.tenantId === tenantId && this.stands(found);
    this.cache.remember(apiTokenId, found?.token.tenantId ?? tenantId, valid, found?.token.expiresAt ?? null);
    return valid;
  }

  private stands({ token, tenantStatus }: ApiTokenWithTenantStatus): boolean {
    if (token.revokedAt !== null || tenantStatus !== 'active') return false;
    return token.expiresAt === null || token.expiresAt.getTime() > this.clock.now().getTime();
  }

  private map(token: ApiToken): ApiTokenDto {
    return {
      id: token.id,
      name: token.name,
      prefix: token.prefix,
      created_at: token.createdAt.toISOString(),
      expires_at: token.expiresAt?.toISOString() ?? null,
      last_used_at: token.lastUsedAt?.toISOString() ?? null,
      revoked_at: token.revokedAt?.toISOString() ?? null,
    };
  }
}
