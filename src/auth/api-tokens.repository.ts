import { Injectable } from '@nestjs/common';
import { IsNull, LessThan, MoreThan } from 'typeorm';
import { Positioned, TimePosition } from '../common/paged-list';
import { TenantId } from '../common/tenant-id';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { DatabasePool } from '../database/database-pool';
import { ReadModel } from '../database/read-model';
import { ReadModelQuery } from '../database/read-through-cache';
import { TenantStatus } from '../tenancy/tenant.entity';
import { TenantScopedRepository } from '../tenancy/tenant-scoped-repository';
import { TenantTables } from '../tenancy/tenant-tables';
import { ApiToken } from './api-token.entity';
import { StoredApiTokenRow, TOKEN_BY_HASH_SQL, TOKEN_STANDING_SQL, TOKENS_FIRST_PAGE_SQL, TOKENS_PAGE_AFTER_SQL, TRIM_DEAD_TOKENS_SQL } from './api-tokens.sql';

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
    private readonly tables: TenantTables,
    private readonly pool: DatabasePool,
    private readonly readModel: ReadModel,
  ) {
    this.tokens = tables.of(ApiToken);
  }

  /**
   * Inserts unless the tenant already has `limits.usable` usable tokens (neither revoked nor expired at `now`);
   * false when it has. Then keeps only the `limits.dead` most recently made of its revoked or expired ones.
   */
  @GenerateSql({
    params: [
      DummyValue.TENANT_ID,
      { id: DummyValue.UUID, tenantId: DummyValue.TENANT_ID, name: DummyValue.STRING, prefix: DummyValue.STRING, tokenHash: DummyValue.HASH, createdAt: DummyValue.DATE, expiresAt: null, lastUsedAt: null, revokedAt: null },
      { usable: DummyValue.LIMIT, dead: DummyValue.LIMIT },
      DummyValue.DATE,
    ],
  })
  insertWithinLimit(tenantId: TenantId, token: ApiToken, limits: { usable: number; dead: number }, now: Date): Promise<boolean> {
    return this.tables.withLock(tenantId, async (transaction) => {
      const tokens = transaction.rows(ApiToken);
      const usable = await tokens.countBy([
        { revokedAt: IsNull(), expiresAt: IsNull() },
        { revokedAt: IsNull(), expiresAt: MoreThan(now) },
      ]);
      if (usable >= limits.usable) return false;
      await tokens.insert(token);
      await transaction.execute(TRIM_DEAD_TOKENS_SQL, [tenantId, now, limits.dead]);
      return true;
    });
  }

  /** At most `limit` of the tenant's tokens, newest first, strictly after `after` (exact: TimePosition), each with its position. */
  @GenerateSql(
    { name: 'first page', params: [DummyValue.TENANT_ID, DummyValue.LIMIT] },
    { name: 'next page', params: [DummyValue.TENANT_ID, DummyValue.LIMIT, { createdAt: DummyValue.POSITION, id: DummyValue.UUID }] },
  )
  async listPage(tenantId: TenantId, limit: number, after?: TimePosition): Promise<Positioned<ApiToken>[]> {
    const rows = after
      ? await this.pool.query(TOKENS_PAGE_AFTER_SQL, [tenantId, after.createdAt, after.id, limit])
      : await this.pool.query(TOKENS_FIRST_PAGE_SQL, [tenantId, limit]);
    return rows.map((row) => ({ row: toApiToken(row), position: { createdAt: row.position, id: row.id } }));
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
    return { token: toApiToken(rows[0]), tenantStatus: rows[0].tenant_status };
  }

  /** Deletes every tenant's tokens revoked, or expired, before `cutoff`; how many went. */
  @GenerateSql({ params: [DummyValue.DATE] })
  async deleteDeadBefore(cutoff: Date): Promise<number> {
    const deleted = await this.tokens
      .acrossTenants('retention prunes every tenant\'s long revoked or expired tokens')
      .delete([{ revokedAt: LessThan(cutoff) }, { revokedAt: IsNull(), expiresAt: LessThan(cutoff) }]);
    return deleted.affected ?? 0;
  }

  @GenerateSql({ params: [DummyValue.UUID, DummyValue.DATE] })
  async touchLastUsed(id: string, at: Date): Promise<void> {
    await this.tokens.acrossTenants('the bearer check found the token by its id').update({ id }, { lastUsedAt: at });
  }
}

function toApiToken(row: StoredApiTokenRow): ApiToken {
  return Object.assign(new ApiToken(), {
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
}
