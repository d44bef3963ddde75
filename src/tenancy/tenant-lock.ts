import { DataSource, EntityManager, EntityTarget } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { Statement } from '../database/statement';
import { Tenant } from './tenant.entity';
import { TenantOwned, TenantRows } from './tenant-rows';
import { TenantScopedRepository } from './tenant-scoped-repository';

/** A transaction that holds one tenant's row lock, and reaches that tenant's rows only. */
export class TenantTransaction {
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

  /** The rows a tenant's statement returns for this transaction's tenant, in this transaction. */
  async rowsOf<Params extends readonly [TenantId, ...unknown[]], Row>(statement: Statement<Params, Row>, parameters: NoInfer<Params>): Promise<Row[]> {
    if (parameters[0] !== this.tenantId) throw new Error(`A statement of another tenant cannot run in tenant ${this.tenantId}'s transaction`);
    return this.records<Row>(statement.text, [...parameters]);
  }

  /**
   * The rows of a statement about no one tenant (its `acrossTenants` says why) in this transaction: work that must
   * commit or roll back with the tenant's rows, such as the job queue's entry for an execution stored here.
   */
  async rowsAcrossTenants<Row>(statement: Statement<unknown[], Row>, parameters: readonly unknown[]): Promise<Row[]> {
    if (!statement.acrossTenants) throw new Error('Only a statement that says why it is about no one tenant runs through rowsAcrossTenants');
    return this.records<Row>(statement.text, [...parameters]);
  }

  private records<Row>(text: string, parameters: unknown[]): Promise<Row[]> {
    return recordsOf<Row>(this.manager, text, parameters);
  }
}

/** A transaction about no one tenant (TenantTables.acrossTenants): whole tables, and statements that say why. */
export class CrossTenantTransaction {
  constructor(private readonly manager: EntityManager) {}

  /** The table of `entity`, in this transaction: `acrossTenants(why)` or `for(tenantId)` as outside one. */
  table<T extends TenantOwned>(entity: EntityTarget<T>): TenantScopedRepository<T> {
    return TenantScopedRepository.of(this.manager, entity);
  }

  /** The rows of a statement about no one tenant (its `acrossTenants` says why), in this transaction. */
  async rowsOf<Params extends readonly unknown[], Row>(statement: Statement<Params, Row>, parameters: NoInfer<Params>): Promise<Row[]> {
    if (!statement.acrossTenants) throw new Error('Only a statement that says why it is about no one tenant runs in a transaction across tenants');
    return recordsOf<Row>(this.manager, statement.text, [...parameters]);
  }
}

async function recordsOf<Row>(manager: EntityManager, text: string, parameters: unknown[]): Promise<Row[]> {
  // The structured result: a bare one is [rows, count] for an UPDATE or a DELETE, rows otherwise.
  const result = (await manager.queryRunner!.query(text, parameters, true)) as { records: Row[] };
  return result.records;
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
