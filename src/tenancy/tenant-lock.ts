import { DataSource, EntityManager, EntityTarget } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { Statement } from '../database/statement';
import { Tenant } from './tenant.entity';
import { TenantOwned, TenantRows } from './tenant-rows';
import { TenantScopedRepository } from './tenant-scoped-repository';

/** A transaction that holds one tenant's row lock, and reaches that tenant's rows only. */
class TenantTransaction {
  constructor(
    private readonly manager: EntityManager,
    readonly tenantId: TenantId,
  ) {}

  /** The tenant's rows of `entity`, in this transaction. */
  rows<T extends TenantOwned>(entity: EntityTarget<T>): TenantRows<T> {
    return TenantScopedRepository.of(this.manager, entity).for(this.tenantId);
  }

  /** Runs a tenant's statement (tenant-statement.ts) for this transaction's tenant, in this transaction. */
  async execute<Params extends readonly [TenantId, ...unknown[]]>(statement: Statement<Params, unknown>, parameters: NoInfer<Params>): Promise<void> {
    if (parameters[0] !== this.tenantId) throw new Error(`A statement of another tenant cannot run in tenant ${this.tenantId}'s transaction`);
    await this.manager.query(statement.text, [...parameters]);
  }
}

/**
 * Runs `work` in a transaction that holds the tenant's row lock, so what it counts of the tenant's rows is still
 * true when it inserts: concurrent creates cannot overshoot a per-tenant limit.
 */
export function withTenantLock<T>(dataSource: DataSource, tenantId: TenantId, work: (transaction: TenantTransaction) => Promise<T>): Promise<T> {
  return dataSource.transaction(async (manager) => {
    await manager.getRepository(Tenant).createQueryBuilder('tenant').setLock('pessimistic_write').where({ id: tenantId }).getOne();
    return work(new TenantTransaction(manager, tenantId));
  });
}
