import { Injectable } from '@nestjs/common';
import { IsNull, LessThan } from 'typeorm';
import { Positioned, TimePosition } from '../common/paged-list';
import { TenantId } from '../common/tenant-id';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { DatabasePool } from '../database/database-pool';
import { ReadModel } from '../database/read-model';
import { ReadModelQuery } from '../database/read-through-cache';
import { TenantScopedRepository } from '../tenancy/tenant-scoped-repository';
import { TenantTables } from '../tenancy/tenant-tables';
import { HmacKey } from './hmac-key.entity';
import { ACTIVE_KEYS_SQL, KEYS_FIRST_PAGE_SQL, KEYS_PAGE_AFTER_SQL, ListedHmacKeyRow, TRIM_REVOKED_KEYS_SQL } from './hmac-keys.sql';

/** An active key as stored: the ciphertext is bound to the id (AES-GCM associated data). */
export interface SealedKey {
  id: string;
  keyCiphertext: string;
}

/** A tenant's active keys, newest first: what the read model keeps, decrypted (HmacKeysService). */
export const ACTIVE_KEYS: ReadModelQuery<SealedKey[], TenantId> = {
  statement: ACTIVE_KEYS_SQL,
  decode: (rows) => (rows as { id: string; key_ciphertext: string }[]).map((row) => ({ id: row.id, keyCiphertext: row.key_ciphertext })),
};

@Injectable()
export class HmacKeysRepository {
  private readonly keys: TenantScopedRepository<HmacKey>;

  constructor(
    private readonly tables: TenantTables,
    private readonly pool: DatabasePool,
    private readonly readModel: ReadModel,
  ) {
    this.keys = tables.of(HmacKey);
  }

  /** The tenant's active keys, newest first, read as the read model reads them (ACTIVE_KEYS), now. */
  @GenerateSql({ params: [DummyValue.TENANT_ID] })
  activeKeys(tenantId: TenantId): Promise<SealedKey[]> {
    return this.readModel.read(ACTIVE_KEYS, tenantId);
  }

  /**
   * Inserts unless the tenant already has `limits.active` active keys; false when it has. Then keeps only the
   * `limits.revoked` most recently made of its revoked ones.
   */
  @GenerateSql({
    params: [DummyValue.TENANT_ID, { id: DummyValue.UUID, tenantId: DummyValue.TENANT_ID, keyCiphertext: DummyValue.STRING, createdAt: DummyValue.DATE, revokedAt: null }, { active: 10, revoked: DummyValue.LIMIT }],
  })
  insertWithinLimit(tenantId: TenantId, key: HmacKey, limits: { active: number; revoked: number }): Promise<boolean> {
    return this.tables.withLock(tenantId, async (transaction) => {
      const keys = transaction.rows(HmacKey);
      if ((await keys.countBy({ revokedAt: IsNull() })) >= limits.active) return false;
      await keys.insert(key);
      await transaction.execute(TRIM_REVOKED_KEYS_SQL, [tenantId, limits.revoked]);
      return true;
    });
  }

  /**
   * At most `limit` of the tenant's keys, newest first, strictly after `after` (exact: TimePosition), each with its
   * position (the first active one is the primary).
   */
  @GenerateSql(
    { name: 'first page', params: [DummyValue.TENANT_ID, DummyValue.LIMIT] },
    { name: 'next page', params: [DummyValue.TENANT_ID, DummyValue.LIMIT, { createdAt: DummyValue.POSITION, id: DummyValue.UUID }] },
  )
  async listPage(tenantId: TenantId, limit: number, after?: TimePosition): Promise<Positioned<HmacKey>[]> {
    const rows = after
      ? await this.pool.query(KEYS_PAGE_AFTER_SQL, [tenantId, after.createdAt, after.id, limit])
      : await this.pool.query(KEYS_FIRST_PAGE_SQL, [tenantId, limit]);
    return rows.map((row) => ({ row: toHmacKey(row), position: { createdAt: row.position, id: row.id } }));
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID] })
  listActive(tenantId: TenantId): Promise<HmacKey[]> {
    return this.keys.for(tenantId).find({ where: { revokedAt: IsNull() }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID] })
  findByTenantAndId(tenantId: TenantId, id: string): Promise<HmacKey | null> {
    return this.keys.for(tenantId).findOneBy({ id });
  }

  /** Deletes every tenant's keys revoked before `cutoff`; how many went. */
  @GenerateSql({ params: [DummyValue.DATE] })
  async deleteRevokedBefore(cutoff: Date): Promise<number> {
    const deleted = await this.keys.acrossTenants('retention prunes every tenant\'s long revoked keys').delete({ revokedAt: LessThan(cutoff) });
    return deleted.affected ?? 0;
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.DATE] })
  async revoke(tenantId: TenantId, id: string, at: Date): Promise<void> {
    await this.keys.for(tenantId).update({ id, revokedAt: IsNull() }, { revokedAt: at });
  }
}

function toHmacKey(row: ListedHmacKeyRow): HmacKey {
  return Object.assign(new HmacKey(), { id: row.id, tenantId: row.tenant_id, keyCiphertext: row.key_ciphertext, createdAt: row.created_at, revokedAt: row.revoked_at });
}
