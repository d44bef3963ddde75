import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Pool, type PoolConfig } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { Metrics } from '../metrics/metrics';
import { EmbeddedDatabaseService } from './embedded-database.service';
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
export class DatabasePool implements OnApplicationShutdown {
  private readonly pool: Pool;
  /** queryBesideReadModel's connection on the embedded database, opened at its first statement. */
  private beside?: Pool;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    metrics: Metrics,
    private readonly embedded?: EmbeddedDatabaseService,
  ) {
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

  /**
   * Runs a statement that writes none of the read model's tables (the job queue's: pg-boss polls it every
   * second). On a PostgreSQL server, as `query`. On the embedded database, on a connection of its own whose jobs
   * the read model does not count (EmbeddedSocketServer.jobsRun), so that a poll does not make the next read send
   * a statement (docs/decisions.md, "Reads from memory"). Only for statements of the job queue's own schema: one
   * that writes a tenant, token, key or action here would be missed by the reads served without a statement.
   */
  async queryBesideReadModel<Params extends readonly unknown[], Row>(statement: Statement<Params, Row>, ...parameters: ParametersOf<Params>): Promise<Row[]> {
    const connect = this.beside ? undefined : this.embedded?.inProcessConnector({ uncounted: true });
    if (connect) {
      // The pool's own settings (timeouts, the query deadline's client), one connection, not counted.
      this.beside = new Pool({ ...(this.pool.options as PoolConfig), max: 1, stream: connect });
      // A connection the embedded database's stop closes while idle: nothing to report.
      this.beside.on('error', () => undefined);
    }
    return (await (this.beside ?? this.pool).query<Row & object>(statement.text, (parameters[0] ?? []) as unknown[])).rows;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.beside?.end().catch(() => undefined);
  }

  stats(): PoolStats {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount, max: this.pool.options.max };
  }
}
