import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, MoreThan } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { DatabasePool } from '../database/database-pool';
import { Snapshot } from '../database/read-through-cache';
import { TenantStatus } from '../tenancy/tenant.entity';
import { withTenantLock } from '../tenancy/tenant-lock';
import { TenantScopedRepository } from '../tenancy/tenant-scoped-repository';
import { ApiToken } from './api-token.entity';
import { TOKEN_BY_HASH_SQL, TOKEN_STANDING_SNAPSHOT_SQL } from './api-tokens.sql';

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

@Injectable()
export class ApiTokensRepository {
  private readonly tokens: TenantScopedRepository<ApiToken>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly pool: DatabasePool,
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

  /** The standing of token `id` (a UUID), null when there is no such token, for the read model. */
  @GenerateSql({ params: [DummyValue.UUID] })
  async standingSnapshot(id: string): Promise<Snapshot<TokenStanding | null>> {
    const [row] = await this.pool.query(TOKEN_STANDING_SNAPSHOT_SQL, [id]);
    const value = row.tenant_id === null ? null : { tenantId: row.tenant_id, expiresAt: row.expires_at, revokedAt: row.revoked_at };
    return { version: Number(row.read_version), value };
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
