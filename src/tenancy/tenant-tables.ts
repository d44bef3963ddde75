import { Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityTarget } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { Reason, reasonGiven } from '../database/statement';
import { CrossTenantTransaction, TenantTransaction, withTenantLock } from './tenant-lock';
import { TenantOwned } from './tenant-rows';
import { TenantScopedRepository } from './tenant-scoped-repository';

/**
 * The tenant-owned tables, as feature code reaches them through TypeORM: a table (`of`, then `for(tenantId)` or
 * `acrossTenants(why)`), a transaction that holds a tenant's lock (`withLock`), a transaction about no one tenant
 * (`acrossTenants(why, work)`). Feature code gets no DataSource, EntityManager, QueryRunner or bare Repository
 * (lint: eslint.config.mjs), so `dataSource.query`, `manager.findOneBy` and `createQueryBuilder` are not within
 * its reach; hand-written statements go through DatabasePool, which runs declared ones only.
 */
@Injectable()
export class TenantTables {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  of<T extends TenantOwned>(entity: EntityTarget<T>): TenantScopedRepository<T> {
    return TenantScopedRepository.of(this.dataSource, entity);
  }

  /** `work` in a transaction that holds the tenant's row lock (see `withTenantLock`). */
  withLock<T>(tenantId: TenantId, work: (transaction: TenantTransaction) => Promise<T>): Promise<T> {
    return withTenantLock(this.dataSource, tenantId, work);
  }

  /** `work` in a transaction about no one tenant (a redeemed link names its tenant); `why` says so. */
  acrossTenants<T>(why: Reason, work: (transaction: CrossTenantTransaction) => Promise<T>): Promise<T> {
    reasonGiven(why);
    return this.dataSource.transaction((manager) => work(new CrossTenantTransaction(manager)));
  }
}

/** TenantTables, for the modules whose repositories reach tenant-owned tables through TypeORM. */
@Module({ providers: [TenantTables], exports: [TenantTables] })
export class TenantTablesModule {}
