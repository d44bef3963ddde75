import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { DatabasePool } from '../database/database-pool';
import { Snapshot } from '../database/read-through-cache';
import { Tenant, TenantStatus } from './tenant.entity';
import { TENANT_STATUS_SNAPSHOT_SQL } from './tenants.sql';

export type TenantChanges = Partial<Pick<Tenant, 'name' | 'status'>>;

@Injectable()
export class TenantsRepository {
  private readonly tenants: Repository<Tenant>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly pool: DatabasePool,
  ) {
    this.tenants = dataSource.getRepository(Tenant);
  }

  /** The status of tenant `id` (a UUID), null when there is no such tenant, for the read model. */
  async statusSnapshot(id: string): Promise<Snapshot<TenantStatus | null>> {
    const [row] = await this.pool.query(TENANT_STATUS_SNAPSHOT_SQL, [id]);
    return { version: Number(row.read_version), value: row.status };
  }

  findById(id: string): Promise<Tenant | null> {
    return this.tenants.findOneBy({ id });
  }

  findAll(): Promise<Tenant[]> {
    return this.tenants.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  insert(tenant: Tenant): Promise<unknown> {
    return this.tenants.insert(tenant);
  }

  /**
   * Sets the given fields of tenant `id` (a UUID), and `updated_at` to `at`, only if one of them differs; the
   * others are not written, so a concurrent change to them stays. The tenant as it now is, or null if none.
   */
  async update(id: string, changes: TenantChanges, at: Date): Promise<Tenant | null> {
    const differs = Object.keys(changes).map((column) => `${column} IS DISTINCT FROM :${column}`);
    if (differs.length > 0) {
      await this.tenants
        .createQueryBuilder()
        .update()
        .set({ ...changes, updatedAt: at })
        .where('id = :id', { id })
        .andWhere(`(${differs.join(' OR ')})`, changes)
        .execute();
    }
    return this.findById(id);
  }
}
