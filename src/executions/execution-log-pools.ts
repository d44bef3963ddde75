import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'pg';
import { TenantId } from '../common/tenant-id';
import { asyncCommitPool, embeddedPreparingConnection, genericPlanPool } from '../database/async-commit-pool';
import { DatabasePool } from '../database/database-pool';
import { DatabaseSettings } from '../database/database-settings';
import { PreparedStatements } from '../database/prepared-statements';
import { Statement } from '../database/statement';
import { LogWrite, ReadOfEveryPartition } from './executions.sql';
import { LogPartitionsRepository } from './log-partitions.repository';

/** A statement with its name where it is prepared (`prepared`). */
type NamedStatement<Params extends readonly unknown[], Row> = Statement<Params, Row> & { readonly name: string };

/** PostgreSQL's "no partition of relation ... found for row" (a check violation on the partition key). */
export const NO_PARTITION = /no partition of relation/;

/**
 * The delivery log's own connections, beside the main pool, where the database allows them: the writes with
 * asynchronous commits (asyncCommitPool), the reads that span every partition with their generic plans
 * (genericPlanPool), each statement prepared on them unless a pooler in between loses prepared statements. The
 * repositories of the log (reads, writes, rollups) run their statements of those kinds here, and an idempotency
 * key's claim goes over the writes' connections too (`writeReturning`: it is on a keyed execute's path before the
 * call). On the embedded database the writes are prepared on one connection of their own, kept open
 * (embeddedPreparingConnection), and the reads run on the main pool.
 */
@Injectable()
export class ExecutionLogPools implements OnApplicationShutdown {
  /** Outcomes are a delivery log: written with asynchronous commits where the database allows a second pool (prepared on one connection of their own on the embedded database). */
  private readonly logPool?: Pool;
  /** The log's lists and statistics: prepared, with generic plans, where the database allows a pool of their own. */
  private readonly readPool?: Pool;
  private readonly logger = new Logger('ExecutionLog');
  /** The log's statements are prepared on its connections, unless a pooler in between loses them. */
  private readonly logPrepared = new PreparedStatements(true, (code) =>
    this.logger.warn({ code }, 'the database connection lost a prepared statement (a pooler in transaction mode?): the log and the idempotency keys\' claims are written without prepared statements'),
  );
  private readonly readPrepared = new PreparedStatements(true, (code) =>
    this.logger.warn({ code }, 'the database connection lost a prepared statement (a pooler in transaction mode?): the log is read without prepared statements'),
  );

  constructor(
    settings: DatabaseSettings,
    private readonly pool: DatabasePool,
    private readonly partitions: LogPartitionsRepository,
  ) {
    this.logPool = asyncCommitPool(settings) ?? embeddedPreparingConnection(settings);
    this.readPool = genericPlanPool(settings);
  }

  /** After the repositories that use them (they depend on this, so Nest shuts them down first: the rollups' last counts). */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.logPool?.end(), this.readPool?.end()]);
  }

  /** A list or the statistics: with its generic plan on the pool for them, else on the main pool, unprepared. */
  async read<Params extends readonly unknown[], Row>(statement: ReadOfEveryPartition<Params, Row>, values: readonly [TenantId, ...Params]): Promise<Row[]> {
    // The same statement, its parameters checked already by this method's signature.
    if (!this.readPool) return this.pool.query(statement as ReadOfEveryPartition<unknown[], Row>, values);
    return (await this.readPrepared.query<Row & object>(this.readPool, statement.name, statement.text, [...values])).rows;
  }

  /**
   * A statement of the log, prepared on the log's own connections when there are (and unless a pooler loses
   * prepared statements). A partition missing for a time in `times` (the maintenance had not run yet) is created
   * and the statement tried again.
   */
  async write(statement: LogWrite, values: unknown[], times: number[]): Promise<void> {
    const run = () => this.writeReturning(statement, values);
    try {
      await run();
    } catch (error) {
      if (!NO_PARTITION.test((error as Error).message ?? '')) throw error;
      await this.partitions.ensure(new Date(Math.min(...times)), new Date(Math.max(...times)));
      await run();
    }
  }

  /**
   * A write on the log's connections (asynchronous commits on a PostgreSQL server: the commit is visible to every
   * connection when it returns, and only a crash of the database server within a fraction of a second could lose
   * it), prepared, and its rows.
   */
  async writeReturning<Params extends readonly unknown[], Row>(statement: NamedStatement<Params, Row>, values: NoInfer<Params>): Promise<Row[]> {
    const parameters = values as unknown as unknown[];
    // The same statement, its parameters checked already by this method's signature.
    if (!this.logPool) return this.pool.query(statement as NamedStatement<unknown[], Row>, parameters);
    return (await this.logPrepared.query<Row & object>(this.logPool, statement.name, statement.text, parameters)).rows;
  }
}
