import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { Positioned, TimePosition } from '../common/paged-list';
import { DatabasePool } from '../database/database-pool';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { ReadModel } from '../database/read-model';
import { ReadModelQuery } from '../database/read-through-cache';
import { Tenant, TenantStatus } from './tenant.entity';
import { ListedTenantRow, TENANT_STATUS_SQL, TENANTS_FIRST_PAGE_SQL, TENANTS_PAGE_AFTER_SQL } from './tenants.sql';

export type TenantChanges = Partial<Pick<Tenant, 'name' | 'status'>>;

/** A tenant's status, null when there is no such tenant: what the read model keeps (TenancyService). */
export const TENANT_STATUS: ReadModelQuery<TenantStatus | null> = {
  statement: TENANT_STATUS_SQL,
  decode: (rows) => (rows.length > 0 ? (rows[0].status as TenantStatus) : null),
};

@Injectable()
export class TenantsRepository {
  private readonly tenants: Repository<Tenant>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly readModel: ReadModel,
    private readonly pool: DatabasePool,
  ) {
    this.tenants = dataSource.getRepository(Tenant);
  }

  /** The status of tenant `id` (a UUID), null when there is no such tenant, read as the read model reads it, now. */
  @GenerateSql({ params: [DummyValue.TENANT_ID] })
  status(id: string): Promise<TenantStatus | null> {
    return this.readModel.read(TENANT_STATUS, id);
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID] })
  findById(id: string): Promise<Tenant | null> {
    return this.tenants.findOneBy({ id });
  }

  /** At most `limit` tenants, newest first, strictly after `after` (exact: TimePosition), each with its position. */
  @GenerateSql({ name: 'first page', params: [DummyValue.LIMIT] }, { name: 'next page', params: [DummyValue.LIMIT, { createdAt: DummyValue.POSITION, id: DummyValue.UUID }] })
  async listPage(limit: number, after?: TimePosition): Promise<Positioned<Tenant>[]> {
    const rows = after ? await this.pool.query(TENANTS_PAGE_AFTER_SQL, [after.createdAt, after.id, limit]) : await this.pool.query(TENANTS_FIRST_PAGE_SQL, [limit]);
    return rows.map((row) => ({ row: toTenant(row), position: { createdAt: row.position, id: row.id } }));
  }

  @GenerateSql({ params: [{ id: DummyValue.OTHER_TENANT_ID, name: DummyValue.STRING, status: 'active', createdAt: DummyValue.DATE, updatedAt: DummyValue.DATE }] })
  insert(tenant: Tenant): Promise<unknown> {
    return this.tenants.insert(tenant);
  }

  /**
   * Sets the given fields of tenant `id` (a UUID), and `updated_at` to `at`, only if one of them differs; the
   * others are not written, so a concurrent change to them stays. The tenant as it now is, or null if none.
   */
  @GenerateSql({ params: [DummyValue.TENANT_ID, { name: 'renamed', status: 'disabled' }, DummyValue.DATE] })
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

function toTenant(row: ListedTenantRow): Tenant {
  return Object.assign(new Tenant(), { id: row.id, name: row.name, status: row.status, createdAt: row.created_at, updatedAt: row.updated_at });
}
