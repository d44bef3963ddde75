import { Injectable, Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { asyncCommitPool, embeddedPreparingConnection } from '../database/async-commit-pool';
import { DatabasePool } from '../database/database-pool';
import { DatabaseSettings } from '../database/database-settings';
import { PreparedStatements } from '../database/prepared-statements';
import { Statement } from '../database/statement';

/** A statement written on the asynchronous-commit connections: named, so that they prepare it once. */
export type AsyncCommitWrite<Params extends readonly unknown[], Row = unknown> = Statement<Params, Row> & { readonly name: string };

/**
 * The writes of an execute's hot path that are committed asynchronously (asyncCommitPool: the commit returns
 * before its WAL record reaches the disk; other connections see it at once): the delivery log's rows and rollups,
 * and an idempotency key's claim (docs/decisions.md, "Idempotency keys"). Prepared on those connections, unless a
 * pooler in between loses them; on the embedded database (no second pool) they run on the main pool, unprepared,
 * as every other statement. One pool of asyncCommitPool's size for both, ended by ExecutionsRepository once its
 * last rollups are written (`end`).
 */
@Injectable()
export class AsyncCommitWrites {
  private readonly pool?: Pool;
  private readonly logger = new Logger('AsyncCommitWrites');
  private readonly prepared = new PreparedStatements(true, (code) =>
    this.logger.warn({ code }, 'the database connection lost a prepared statement (a pooler in transaction mode?): the log and the idempotency keys are written without prepared statements'),
  );

  constructor(
    settings: DatabaseSettings,
    private readonly main: DatabasePool,
  ) {
    this.pool = asyncCommitPool(settings) ?? embeddedPreparingConnection(settings);
  }

  async query<Params extends readonly unknown[], Row>(statement: AsyncCommitWrite<Params, Row>, values: NoInfer<Params>): Promise<Row[]> {
    if (!this.pool) return this.main.query(statement as AsyncCommitWrite<unknown[], Row>, values as unknown as unknown[]);
    return (await this.prepared.query<Row & object>(this.pool, statement.name, statement.text, values as unknown as unknown[])).rows;
  }

  async end(): Promise<void> {
    await this.pool?.end();
  }
}
