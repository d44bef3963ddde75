import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { DatabasePool } from '../database/database-pool';
import { ReadModel } from '../database/read-model';
import { ReadModelQuery } from '../database/read-through-cache';
import { withTenantLock } from '../tenancy/tenant-lock';
import { TenantScopedRepository } from '../tenancy/tenant-scoped-repository';
import { HmacKey } from './hmac-key.entity';
import { ACTIVE_KEYS_SQL } from './hmac-keys.sql';

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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly pool: DatabasePool,
    private readonly readModel: ReadModel,
  ) {
    this.keys = TenantScopedRepository.of(dataSource, HmacKey);
  }

  /** The tenant's active keys, newest first, read as the read model reads them (ACTIVE_KEYS), now. */
  @GenerateSql({ params: [DummyValue.TENANT_ID] })
  activeKeys(tenantId: TenantId): Promise<SealedKey[]> {
    return this.readModel.read(ACTIVE_KEYS, tenantId);
  }

  /** Inserts unless the tenant already has `limit` active keys; false when it has. */
  @GenerateSql({ params: [DummyValue.TENANT_ID, { id: DummyValue.UUID, tenantId: DummyValue.TENANT_ID, keyCiphertext: DummyValue.STRING, createdAt: DummyValue.DATE, revokedAt: null }, DummyValue.LIMIT] })
  insertWithinLimit(tenantId: TenantId, key: HmacKey, limit: number): Promise<boolean> {
    return withTenantLock(this.dataSource, tenantId, async (transaction) => {
      const keys = transaction.rows(HmacKey);
      if ((await keys.countBy({ revokedAt: IsNull() })) >= limit) return false;
      await keys.insert(key);
      return true;
    });
  }

  /** Newest first: the first active one is the primary. */
  @GenerateSql({ params: [DummyValue.TENANT_ID] })
  listByTenant(tenantId: TenantId): Promise<HmacKey[]> {
    return this.keys.for(tenantId).find({ order: { createdAt: 'DESC', id: 'DESC' } });
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID] })
  listActive(tenantId: TenantId): Promise<HmacKey[]> {
    return this.keys.for(tenantId).find({ where: { revokedAt: IsNull() }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID] })
  findByTenantAndId(tenantId: TenantId, id: string): Promise<HmacKey | null> {
    return this.keys.for(tenantId).findOneBy({ id });
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.DATE] })
  async revoke(tenantId: TenantId, id: string, at: Date): Promise<void> {
    await this.keys.for(tenantId).update({ id, revokedAt: IsNull() }, { revokedAt: at });
  }
}
