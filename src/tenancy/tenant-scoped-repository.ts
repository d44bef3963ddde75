import { DataSource, EntityManager, EntityTarget, Repository } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { Reason, reasonGiven } from '../database/statement';
import { TenantOwned, TenantRows } from './tenant-rows';

/**
 * A whole tenant-owned table, for a query about no one tenant: TypeORM's repository without the members that run
 * SQL of the caller's (`query`) or reach past the table (`manager`, `createQueryBuilder`, `queryRunner`).
 */
export type WholeTable<T extends TenantOwned> = Omit<Repository<T>, 'query' | 'manager' | 'createQueryBuilder' | 'queryRunner' | 'extend'>;

/**
 * The TypeORM repository of a tenant-owned entity, as repository classes hold it: `for(tenantId)` gives that
 * tenant's rows (`TenantRows`), the only way to query them by tenant. A query about no one tenant (retention
 * across tenants, a row found by its own unguessable id or a secret's hash) goes through `acrossTenants(why)`,
 * which says so where it is written and in review. Lint keeps `getRepository` out of feature code
 * (eslint.config.mjs), so these two are the ways to a tenant-owned table.
 */
export class TenantScopedRepository<T extends TenantOwned> {
  private constructor(private readonly repository: Repository<T>) {}

  static of<T extends TenantOwned>(source: DataSource | EntityManager, entity: EntityTarget<T>): TenantScopedRepository<T> {
    return new TenantScopedRepository(source.getRepository(entity));
  }

  for(tenantId: TenantId): TenantRows<T> {
    return new TenantRows(this.repository, tenantId);
  }

  /**
   * The whole table, for a query about no one tenant; `why` says what it is about instead (for the reader), and
   * must say something: `''` does not compile, and an empty or blank reason throws.
   */
  acrossTenants(why: Reason): WholeTable<T> {
    reasonGiven(why);
    return this.repository;
  }
}
