import { DataSource, EntityManager } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { Tenant } from './tenant.entity';

/**
 * Runs `work` in a transaction that holds the tenant's row lock, so what it counts of the tenant's rows is still
 * true when it inserts: concurrent creates cannot overshoot a per-tenant limit.
 */
export function withTenantLock<T>(dataSource: DataSource, tenantId: TenantId, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.transaction(async (manager) => {
    await manager.getRepository(Tenant).createQueryBuilder('tenant').setLock('pessimistic_write').where({ id: tenantId }).getOne();
    return work(manager);
  });
}
