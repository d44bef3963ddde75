import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { HmacKey } from './hmac-key.entity';

@Injectable()
export class HmacKeysRepository {
  private readonly keys: Repository<HmacKey>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.keys = dataSource.getRepository(HmacKey);
  }

  insert(key: HmacKey): Promise<unknown> {
    return this.keys.insert(key);
  }

  /** Newest first: the first active one is the primary. */
  listByTenant(tenantId: TenantId): Promise<HmacKey[]> {
    return this.keys.find({ where: { tenantId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  listActive(tenantId: TenantId): Promise<HmacKey[]> {
    return this.keys.find({ where: { tenantId, revokedAt: IsNull() }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  findByTenantAndId(tenantId: TenantId, id: string): Promise<HmacKey | null> {
    return this.keys.findOneBy({ tenantId, id });
  }

  async revoke(tenantId: TenantId, id: string, at: Date): Promise<void> {
    await this.keys.update({ tenantId, id, revokedAt: IsNull() }, { revokedAt: at });
  }
}
