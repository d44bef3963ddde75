import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { Metrics } from '../metrics/metrics';
import { ParametersOf, Statement } from './statement';

interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  /** The most connections the pool opens. */
  max: number;
}

/**
 * The pg pool under TypeORM, for statements the service writes by hand (the read model's loads, the version
 * checks): `DataSource.query()` creates, connects and releases a query runner per call and wraps the result, a
 * measurable share of what a `GET /actions` request allocated (docs/benchmarks.md, "Hand-written SQL for the hot
 * reads"). Same pool, same
 * connections, same timeouts; errors are pg's own, which `isDatabaseUnavailable` reads the same way. This is
 * the one place that reaches under TypeORM for it.
 */
@Injectable()
export class DatabasePool {
  private readonly pool: Pool;

  constructor(@InjectDataSource() dataSource: DataSource, metrics: Metrics) {
    this.pool = (dataSource.driver as PostgresDriver).master as Pool;
    metrics.observeDatabasePool(() => this.stats());
  }

  /**
   * Runs a declared statement (see statement.ts): a tenant's statement takes the `TenantId` first. No named
   * (prepared) statements: the embedded database is one session for every connection, where a second connection
   * preparing the same name fails.
   */
  async query<Params extends readonly unknown[], Row>(statement: Statement<Params, Row>, ...parameters: ParametersOf<Params>): Promise<Row[]> {
    return (await this.pool.query<Row & object>(statement.text, (parameters[0] ?? []) as unknown[])).rows;
  }

  stats(): PoolStats {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount, max: this.pool.options.max };
  }
}
