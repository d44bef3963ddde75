import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, MoreThan } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { DatabasePool } from '../database/database-pool';
import { ReadModel } from '../database/read-model';
import { ReadModelQuery } from '../database/read-through-cache';
import { TenantStatus } from '../tenancy/tenant.entity';
import { withTenantLock } from '../tenancy/tenant-lock';
import { TenantScopedRepository } from '../tenancy/tenant-scoped-repository';
import { ApiToken } from './api-token.entity';
import { TOKEN_BY_HASH_SQL, TOKEN_STANDING_SQL } from './api-tokens.sql';

export interface ApiTokenWithTenantStatus {
  token: ApiToken;
  tenantStatus: TenantStatus;
}

/** What a bearer check needs of an API token (its tenant's status is the tenancy module's). */
export interface TokenStanding {
  tenantId: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** A token's standing, null when there is no such token: what the read model keeps (ApiTokensService). */
export const TOKEN_STANDING: ReadModelQuery<TokenStanding | null> = {
  statement: TOKEN_STANDING_SQL,
  decode: (rows) => {
    if (rows.length === 0) return null;
    const [row] = rows as { tenant_id: string; expires_at: string | null; revoked_at: string | null }[];
    return { tenantId: row.tenant_id, expiresAt: dateOrNull(row.expires_at), revokedAt: dateOrNull(row.revoked_at) };
  },
};

/** A timestamp as the read model's JSON rows spell it (ISO 8601), or null. */
function dateOrNull(text: string | null): Date | null {
  return text === null ? null : new Date(text);
}

@Injectable()
export class ApiTokensRepository {
  private readonly tokens: TenantScopedRepository<ApiToken>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly pool: DatabasePool,
    private readonly readModel: ReadModel,
  ) {
    this.tokens = TenantScopedRepository.of(dataSource, ApiToken);
  }

  /** Inserts unless the tenant already has `limit` usable tokens (neither revoked nor expired at `now`); false when it has. */
  @GenerateSql({
    params: [
      DummyValue.TENANT_ID,
      { id: DummyValue.UUID, tenantId: DummyValue.TENANT_ID, name: DummyValue.STRING, prefix: DummyValue.STRING, tokenHash: DummyValue.HASH, createdAt: DummyValue.DATE, expiresAt: null, lastUsedAt: null, revokedAt: null },
      DummyValue.LIMIT,
      DummyValue.DATE,
    ],
  })
  insertWithinLimit(tenantId: TenantId, token: ApiToken, limit: number, now: Date): Promise<boolean> {
    return withTenantLock(this.dataSource, tenantId, async (transaction) => {
      const tokens = transaction.rows(ApiToken);
      const usable = await tokens.countBy([
        { revokedAt: IsNull(), expiresAt: IsNull() },
        { revokedAt: IsNull(), expiresAt: MoreThan(now) },
      ]);
      if (usable >= limit) return false;
      await tokens.insert(token);
      return true;
    });
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID] })
  listByTenant(tenantId: TenantId): Promise<ApiToken[]> {
    return this.tokens.for(tenantId).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID] })
  findByTenantAndId(tenantId: TenantId, id: string): Promise<ApiToken | null> {
    return this.tokens.for(tenantId).findOneBy({ id });
  }

  /** Marks the token revoked; false when it does not exist or was revoked already. */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.DATE] })
  async revoke(tenantId: TenantId, id: string, at: Date): Promise<boolean> {
    return (await this.tokens.for(tenantId).update({ id, revokedAt: IsNull() }, { revokedAt: at })) > 0;
  }

  /** The standing of token `id` (a UUID), null when there is no such token, read as the read model reads it, now. */
  @GenerateSql({ params: [DummyValue.UUID] })
  standing(id: string): Promise<TokenStanding | null> {
    return this.readModel.read(TOKEN_STANDING, id);
  }

  @GenerateSql({ params: [DummyValue.HASH] })
  async findByHashWithTenantStatus(tokenHash: string): Promise<ApiTokenWithTenantStatus | null> {
    const rows = await this.pool.query(TOKEN_BY_HASH_SQL, [tokenHash]);
    if (rows.length === 0) return null;
    const [row] = rows;
    const token = Object.assign(new ApiToken(), {
      id: row.id,
      tenantId: row.tenant_id,
      name: row.name,
      prefix: row.prefix,
      tokenHash: row.token_hash,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
    });
    return { token, tenantStatus: row.tenant_status };
  }

  @GenerateSql({ params: [DummyValue.UUID, DummyValue.DATE] })
  async touchLastUsed(id: string, at: Date): Promise<void> {
    await this.tokens.acrossTenants('the bearer check found the token by its id').update({ id }, { lastUsedAt: at });
  }
}
