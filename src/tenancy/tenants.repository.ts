import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { DatabasePool } from '../database/database-pool';
import { Snapshot } from '../database/read-through-cache';
import { Tenant, TenantStatus } from './tenant.entity';
import { TENANT_STATUS_SNAPSHOT_SQL } from './tenants.sql';

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
    const [row] = await this.pool.query<{ read_version: string; status: TenantStatus | null }>(TENANT_STATUS_SNAPSHOT_SQL, [id]);
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

  save(tenant: Tenant): Promise<Tenant> {
    return this.tenants.save(tenant);
  }
}
