import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'pg';
import { BatchQueue, ItemFailed } from '../common/batch-queue';
import { TenantId } from '../common/tenant-id';
import { genericPlanPool } from '../database/async-commit-pool';
import { DatabasePool } from '../database/database-pool';
import { DatabaseSettings } from '../database/database-settings';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { PreparedStatements } from '../database/prepared-statements';
import { globalStatement, prepared } from '../database/statement';
import { tenantStatement, TenantStatement } from '../tenancy/tenant-statement';
import { TenantTransaction } from '../tenancy/tenant-lock';
import { TenantTables } from '../tenancy/tenant-tables';
import { uuidV7Time } from '../common/uuid';
import { AttemptRecord, Execution, ExecutionStatus } from './execution.entity';
import { ExecutionPayload, StoredExecutionPayload, withRequestHeaders } from './execution-payload';
import { ExecutionLogPartitions } from './log-partitions';
import { AsyncCommitWrite, AsyncCommitWrites } from './async-commit-writes';
import { RollupBuffer, RollupCounts, RollupRows, TENANT_TOTAL } from './rollup-buffer';

export { TENANT_TOTAL };

/**
 * A tenant's read of the log that spans every partition kept (a list, the statistics), named so that it can be
 * prepared and run with its generic plan (genericPlanPool): its planning costs more than running it.
 */
type ReadOfEveryPartition<Params extends readonly unknown[], Row> = TenantStatement<Params, Row> & { readonly name: string };
const readOfEveryPartition = <Params extends readonly unknown[], Row>(text: string): ReadOfEveryPartition<Params, Row> => prepared(tenantStatement<Params, Row>(text));

/** Every column of `executions`, in the order the INSERT gives them (test/hand-written-sql.e2e-spec.ts checks the list). */
export const COLUMNS =
  'id, tenant_id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, created_at, replay_of, payload';
const PAYLOAD_COLUMNS = 'execution_id, tenant_id, created_at, request, attempts';
const STATS_COLUMNS = 'tenant_id, action_id, period_start, executions, succeeded, failed, duration_histogram';
const MAX_BATCH = 100;
/** PostgreSQL's "no partition of relation ... found for row" (a check violation on the partition key). */
const NO_PARTITION = /no partition of relation/;

/** An execution to store, with its payload when payload logging is on. */
export interface ExecutionToStore {
  execution: Execution;
  payload?: StoredExecutionPayload;
}

/** What a list of the log selects; every filter is optional but the tenant. */
export interface ExecutionFilter {
  actionId?: string;
  status?: ExecutionStatus;
  /** Inclusive. */
  since?: Date;
  /** Exclusive. */
  until?: Date;
  /** Continue after this position: the (created_at, id) of the last execution of the previous page. */
  after?: { createdAt: string; id: string };
}

/** A listed execution, with its exact position for the next page's cursor. */
interface ListedExecution {
  execution: Execution;
  /** `created_at` as PostgreSQL writes it (microseconds, which a Date does not hold). */
  position: string;
}

/** One rollup row: counts and the duration histogram of one action (or the tenant's total) over one period. */
export interface StatsRow {
  actionId: string;
  periodStart: Date;
  executions: number;
  succeeded: number;
  failed: number;
  histogram: number[];
}

const SELECT_EXECUTION = `SELECT ${COLUMNS}, created_at::text AS position FROM executions`;
const FIND_SQL = tenantStatement<[id: string, keptSince: Date], ExecutionRow>(`${SELECT_EXECUTION} WHERE tenant_id = $1 AND id = $2 AND created_at >= $3`);
const FIND_OF_ACTION_SQL = tenantStatement<[id: string, keptSince: Date, actionId: string], ExecutionRow>(
  `${SELECT_EXECUTION} WHERE tenant_id = $1 AND id = $2 AND created_at >= $3 AND action_id = $4`,
);
/**
 * The same, within a window around the time a UUID v7 id carries (IdGenerator): the execution was stored the moment
 * its id was made, so the partition of that day (two near midnight) is probed instead of every partition's
 * primary key (about 40). The window is wide enough for ids made ahead of the clock within a millisecond's burst.
 */
const FIND_NEAR_SQL = tenantStatement<[id: string, keptSince: Date, from: Date, to: Date], ExecutionRow>(
  `${SELECT_EXECUTION} WHERE tenant_id = $1 AND id = $2 AND created_at >= $3 AND created_at >= $4 AND created_at < $5`,
);
const FIND_NEAR_OF_ACTION_SQL = tenantStatement<[id: string, keptSince: Date, from: Date, to: Date, actionId: string], ExecutionRow>(
  `${SELECT_EXECUTION} WHERE tenant_id = $1 AND id = $2 AND created_at >= $3 AND created_at >= $4 AND created_at < $5 AND action_id = $6`,
);
/** An execution by its exact position (one partition): the execution an idempotency key stands for. */
const FIND_AT_SQL = tenantStatement<[id: string, createdAt: Date], ExecutionRow>(`${SELECT_EXECUTION} WHERE tenant_id = $1 AND id = $2 AND created_at = $3`);
/** How far from its id's time an execution's `created_at` is looked for first. */
const ID_TIME_WINDOW_MS = 60_000;
const PAYLOAD_SQL = tenantStatement<[id: string, createdAt: Date], StoredExecutionPayload>(
  `SELECT request, attempts FROM execution_payloads WHERE tenant_id = $1 AND execution_id = $2 AND created_at = $3`,
);
/**
 * The histograms are read as JSON: pg parses an integer[] character by character (postgres-array), short-lived
 * strings that were the largest allocation of a query run (docs/benchmarks.md, "The statistics: histograms as
 * JSON, both series in one statement"); JSON.parse reads the same numbers natively.
 */
const seriesOf = (period: 'hour' | 'day', table: string, since: string) =>
  `SELECT '${period}'::text AS period, action_id, period_start, executions, succeeded, failed, to_json(duration_histogram) AS duration_histogram ` +
  `FROM ${table} WHERE tenant_id = $1 AND action_id = $2 AND period_start >= ${since}`;
/** Both series in one statement: one round trip and one connection of the read pool, where two took both. */
const SERIES_SQL = readOfEveryPartition<[actionId: string, hoursFrom: Date, daysFrom: Date], StatsDbRow & { period: 'hour' | 'day' }>(
  `${seriesOf('hour', 'execution_stats_hourly', '$3')} UNION ALL ${seriesOf('day', 'execution_stats_daily', '$4')} ORDER BY period, period_start`,
);
const STATS_PER_ACTION_SQL = readOfEveryPartition<[tenantTotal: string, since: Date], StatsDbRow>(
  `SELECT action_id, min(period_start) AS period_start, sum(executions)::int AS executions, sum(succeeded)::int AS succeeded, ` +
    `sum(failed)::int AS failed, to_json(execution_histogram_sum(duration_histogram)) AS duration_histogram ` +
    `FROM execution_stats_hourly WHERE tenant_id = $1 AND action_id <> $2 AND period_start >= $3 GROUP BY action_id`,
);
/** What the per-tenant bound of asynchronous executions counts: the partial index executions_unfinished_idx. */
const UNFINISHED_SQL = tenantStatement<[], { count: number }>(
  `SELECT count(*)::int AS count FROM executions WHERE tenant_id = $1 AND status IN ('pending', 'running')`,
);
const INSERT_PENDING_SQL = tenantStatement<[id: string, actionId: string, actionName: string, createdAt: Date, payload: string]>(
  `INSERT INTO executions (tenant_id, id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, created_at, replay_of, payload) ` +
    `VALUES ($1, $2, $3, $4, 'pending', NULL, NULL, '', 0, 0, '[]', $5, NULL, $6)`,
);
/** The one row of an execution (its partition by `created_at`), while it is unfinished. */
const UNFINISHED_ROW = `tenant_id = $1 AND id = $2 AND created_at = $3 AND status IN ('pending', 'running')`;
const MARK_RUNNING_SQL = tenantStatement<[id: string, createdAt: Date], { attempts: number; attempt_log: AttemptRecord[] }>(
  `UPDATE executions SET status = 'running' WHERE ${UNFINISHED_ROW} RETURNING attempts, attempt_log`,
);
const RECORD_ATTEMPTS_SQL = tenantStatement<[id: string, createdAt: Date, attempts: number, attemptLog: string]>(
  `UPDATE executions SET attempts = $4, attempt_log = $5::jsonb WHERE ${UNFINISHED_ROW}`,
);
/**
 * An unfinished execution's outcome, and its payload when kept, in one statement: the payload is written only if
 * the row was still unfinished, so a run that ends twice (its first replica's lease ran out) stores one outcome.
 */
const FINISH_SQL = tenantStatement<
  [id: string, createdAt: Date, status: string, httpStatus: number | null, result: string | null, error: string, durationMs: number, attempts: number, attemptLog: string, payload: string, request: string | null, payloadAttempts: string | null],
  { finished: number }
>(
  `WITH e AS (UPDATE executions SET status = $4, http_status = $5, result = $6, error = $7, duration_ms = $8, attempts = $9, attempt_log = $10::jsonb, payload = $11 ` +
    `WHERE ${UNFINISHED_ROW} RETURNING id), ` +
    `p AS (INSERT INTO execution_payloads (${PAYLOAD_COLUMNS}) SELECT id, $1, $3, $12::json, $13::json FROM e WHERE $12::json IS NOT NULL) ` +
    `SELECT count(*)::int AS finished FROM e`,
);
/** Which of a list's optional filters are given: each combination has a statement of its own. */
interface ListFilters {
  actionId: boolean;
  status: boolean;
  until: boolean;
  after: boolean;
}
const listKey = (filters: ListFilters) => `${+filters.actionId}${+filters.status}${+filters.until}${+filters.after}`;

/** The list with `filters`: its parameters are the tenant, then each filter given in this order, then the limit. */
function listText(filters: ListFilters): string {
  let n = 1;
  const where = ['tenant_id = $1'];
  if (filters.actionId) where.push(`action_id = $${++n}`);
  if (filters.status) where.push(`status = $${++n}`);
  where.push(`created_at >= $${++n}`);
  if (filters.until) where.push(`created_at < $${++n}`);
  if (filters.after) where.push(`(created_at, id) < ($${++n}::timestamptz, $${++n}::uuid)`);
  return `${SELECT_EXECUTION} WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${n + 1}`;
}

/** The list's statement for each of the 16 combinations of filters, declared when the module loads. */
const LIST_SQL = new Map(
  Array.from({ length: 16 }, (_, bits): [string, ReadOfEveryPartition<unknown[], ExecutionRow>] => {
    const filters = { actionId: (bits & 1) > 0, status: (bits & 2) > 0, until: (bits & 4) > 0, after: (bits & 8) > 0 };
    return [listKey(filters), readOfEveryPartition<unknown[], ExecutionRow>(listText(filters))];
  }),
);

/**
 * The delivery log (docs/decisions.md, "The delivery log"): executions and their payloads, written in one
 * statement as executions finish (BatchQueue groups those finishing together), and the rollups the statistics
 * read, summed in memory and written once a second (RollupBuffer), on connections with asynchronous commits where
 * the database allows them. Every read is scoped to a tenant and goes through an index of `executions` or the
 * primary key of a rollup.
 */
@Injectable()
export class ExecutionsRepository implements BeforeApplicationShutdown, OnApplicationShutdown {
  /** The log's lists and statistics: prepared, with generic plans, where the database allows a pool of their own. */
  private readonly readPool?: Pool;
  private readonly logger = new Logger('ExecutionLog');
  private readonly readPrepared = new PreparedStatements(true, (code) =>
    this.logger.warn({ code }, 'the database connection lost a prepared statement (a pooler in transaction mode?): the log is read without prepared statements'),
  );
  /** Executions finishing together are stored with one multi-row INSERT (see BatchQueue). */
  private readonly inserts = new BatchQueue<ExecutionToStore, 'stored'>((batch) => this.insertBatch(batch), MAX_BATCH);
  /** The stored executions' counts, written to the rollups once a second and before any statistics are read. */
  private readonly rollups = new RollupBuffer(
    (rows) => this.writeRollups(rows),
    (error) => this.logger.warn({ err: error }, 'writing the delivery log\'s rollups failed: the counts are kept and written with the next'),
  );

  constructor(
    settings: DatabaseSettings,
    private readonly pool: DatabasePool,
    private readonly partitions: ExecutionLogPartitions,
    private readonly tables: TenantTables,
    /** Outcomes are a delivery log: written with asynchronous commits where the database allows a second pool. */
    private readonly writes: AsyncCommitWrites,
  ) {
    this.readPool = genericPlanPool(settings);
  }

  /** The counts held in memory go in while every connection is still open. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flushRollups().catch((error: unknown) => this.logger.warn({ err: error }, 'the delivery log\'s rollups could not be written at shutdown'));
  }

  async onApplicationShutdown(): Promise<void> {
    this.rollups.stop();
    // Those of executions stored since (a webhook call that ended during the shutdown), if the database still answers.
    if (this.rollups.size > 0) await this.flushRollups().catch((error: unknown) => this.logger.warn({ err: error }, 'the delivery log\'s last rollups could not be written at shutdown'));
    await Promise.all([this.writes.end(), this.readPool?.end()]);
  }


  @GenerateSql({
    params: [
      {
        execution: {
          id: DummyValue.UUID,
          tenantId: DummyValue.TENANT_ID,
          actionId: DummyValue.UUID,
          actionName: DummyValue.STRING,
          status: 'succeeded',
          httpStatus: 200,
          result: '{}',
          error: '',
          durationMs: 1,
          attempts: 1,
          attemptLog: [],
          // Today: the migration and the upkeep have its partitions ready (an older day's would be created first).
          createdAt: new Date(),
          replayOf: null,
          payload: 'kept',
        },
        payload: { request: { body: '{}', body_encoding: 'utf8', body_bytes: 2, body_truncated: false, headers: {} }, attempts: [] },
      },
    ],
  })
  insert(toStore: ExecutionToStore): Promise<'stored'> {
    return this.inserts.add(toStore);
  }

  /**
   * Stores an asynchronous execution as `pending` and, in the same transaction, `enqueue`s its work (the job
   * queue's entry, through the transaction it is given): both are kept, or neither. Holds the tenant's row lock
   * while it counts the tenant's unfinished executions, so concurrent accepts cannot pass `limit`; at the limit,
   * nothing is stored and it answers false.
   */
  @GenerateSql({
    params: [
      DummyValue.TENANT_ID,
      // Another id than the INSERT's example above, which may have been made in the same millisecond.
      { id: '5a1d0000-0000-4000-8000-0000000a5c01', actionId: DummyValue.UUID, actionName: DummyValue.STRING, createdAt: new Date(), payload: 'kept' },
      100,
      async () => undefined,
    ],
  })
  async accept(
    tenantId: TenantId,
    pending: Pick<Execution, 'id' | 'actionId' | 'actionName' | 'createdAt' | 'payload'>,
    limit: number,
    enqueue: (transaction: TenantTransaction) => Promise<void>,
  ): Promise<boolean> {
    const attempt = () =>
      this.tables.withLock(tenantId, async (transaction) => {
        const [{ count }] = await transaction.rowsOf(UNFINISHED_SQL, [tenantId]);
        if (count >= limit) return false;
        await transaction.execute(INSERT_PENDING_SQL, [tenantId, pending.id, pending.actionId, pending.actionName, pending.createdAt, pending.payload]);
        await enqueue(transaction);
        return true;
      });
    try {
      return await attempt();
    } catch (error) {
      // The day's partition not made yet (the maintenance had not run): made, and the whole tried again.
      if (!NO_PARTITION.test((error as Error).message ?? '')) throw error;
      await this.partitions.ensure(pending.createdAt, pending.createdAt);
      return attempt();
    }
  }

  /**
   * An unfinished execution taken up by a replica becomes `running`; what it already holds (the attempts of a run
   * interrupted before) comes back. Undefined when it is no longer unfinished (or no longer there: its action's
   * history was purged), so the run is not made.
   */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.DATE] })
  async markRunning(tenantId: TenantId, id: string, createdAt: Date): Promise<Pick<Execution, 'attempts' | 'attemptLog'> | undefined> {
    const [row] = await this.pool.query(MARK_RUNNING_SQL, [tenantId, id, createdAt]);
    return row && { attempts: row.attempts, attemptLog: row.attempt_log };
  }

  /** The attempts a running execution has made so far, as each ends: its page shows its progress. */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.DATE, []] })
  async recordAttempts(tenantId: TenantId, id: string, createdAt: Date, attemptLog: AttemptRecord[]): Promise<void> {
    await this.pool.query(RECORD_ATTEMPTS_SQL, [tenantId, id, createdAt, attemptLog.length, JSON.stringify(attemptLog)]);
  }

  /**
   * An unfinished execution's outcome (and payload, when kept), then its counts into the rollups. False when it
   * had finished already (another run of it stored its outcome first), and nothing is written. With synchronous
   * commits: the job queue's entry is deleted next, and a run is not made again once its outcome is stored.
   */
  @GenerateSql({
    params: [
      DummyValue.TENANT_ID,
      {
        execution: {
          id: DummyValue.UUID,
          tenantId: DummyValue.TENANT_ID,
          actionId: DummyValue.UUID,
          createdAt: DummyValue.DATE,
          status: 'succeeded',
          httpStatus: 200,
          result: '{}',
          error: '',
          durationMs: 1,
          attempts: 1,
          attemptLog: [],
          payload: 'kept',
        },
        payload: { request: { body: '{}', body_encoding: 'utf8', body_bytes: 2, body_truncated: false, headers: {} }, attempts: [] },
      },
    ],
  })
  async finish(tenantId: TenantId, { execution: e, payload }: ExecutionToStore): Promise<boolean> {
    const [{ finished }] = await this.pool.query(FINISH_SQL, [
      tenantId,
      e.id,
      e.createdAt,
      e.status,
      e.httpStatus,
      e.result,
      e.error,
      e.durationMs,
      e.attempts,
      JSON.stringify(e.attemptLog),
      e.payload,
      payload ? JSON.stringify(payload.request) : null,
      payload ? JSON.stringify(payload.attempts) : null,
    ]);
    if (finished === 0) return false;
    this.rollups.add([e]);
    return true;
  }

  /**
   * Writes the counts of every execution stored so far into the rollups; they are otherwise written within a
   * second (RollupBuffer), and before any statistics are read.
   */
  @GenerateSql({ name: 'the counts of the execution inserted above', params: [] })
  flushRollups(): Promise<void> {
    return this.rollups.flush();
  }

  /**
   * Newest first, `limit` of them at most, from the log kept since `keptSince`; a page continues strictly after
   * `filter.after`, so executions stored meanwhile (newer) are neither repeated nor make the page skip any.
   */
  @GenerateSql(
    { name: 'one action', params: [DummyValue.TENANT_ID, { actionId: DummyValue.UUID }, DummyValue.DATE, DummyValue.LIMIT] },
    {
      name: 'every filter, after a position',
      params: [DummyValue.TENANT_ID, { status: 'failed', since: DummyValue.DATE, until: DummyValue.DATE, after: { createdAt: '2026-01-01 00:00:00+00', id: DummyValue.UUID } }, DummyValue.DATE, DummyValue.LIMIT],
    },
  )
  async list(tenantId: TenantId, filter: ExecutionFilter, keptSince: Date, limit: number): Promise<ListedExecution[]> {
    const filters = { actionId: filter.actionId !== undefined, status: filter.status !== undefined, until: filter.until !== undefined, after: filter.after !== undefined };
    const parameters = [
      ...(filters.actionId ? [filter.actionId] : []),
      ...(filters.status ? [filter.status] : []),
      filter.since && filter.since > keptSince ? filter.since : keptSince,
      ...(filters.until ? [filter.until] : []),
      ...(filter.after ? [filter.after.createdAt, filter.after.id] : []),
      limit,
    ];
    const rows = await this.readEveryPartition(LIST_SQL.get(listKey(filters))!, [tenantId, ...parameters]);
    return rows.map((row) => ({ execution: toExecution(row), position: row.position }));
  }

  /**
   * The tenant's execution `id` (of `actionId` when given), if kept since `keptSince`. An id of version 7 is looked
   * for near its own time first (one partition); any other id (the log before UUID v7), or one not found there (a
   * test's pinned clock), in every partition kept.
   */
  @GenerateSql(
    { name: 'of an action', params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.DATE, DummyValue.UUID] },
    { name: 'of the tenant', params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.DATE] },
    { name: 'a UUID v7, near its time, then everywhere', params: [DummyValue.TENANT_ID, '019ac4a0-0000-7000-8000-000000000001', DummyValue.DATE] },
  )
  async find(tenantId: TenantId, id: string, keptSince: Date, actionId?: string): Promise<Execution | undefined> {
    const time = uuidV7Time(id);
    if (time !== undefined) {
      const [from, to] = [new Date(time - ID_TIME_WINDOW_MS), new Date(time + ID_TIME_WINDOW_MS)];
      const near =
        actionId === undefined
          ? await this.pool.query(FIND_NEAR_SQL, [tenantId, id, keptSince, from, to])
          : await this.pool.query(FIND_NEAR_OF_ACTION_SQL, [tenantId, id, keptSince, from, to, actionId]);
      if (near.length > 0) return toExecution(near[0]);
    }
    const rows =
      actionId === undefined ? await this.pool.query(FIND_SQL, [tenantId, id, keptSince]) : await this.pool.query(FIND_OF_ACTION_SQL, [tenantId, id, keptSince, actionId]);
    return rows.length === 0 ? undefined : toExecution(rows[0]);
  }

  /** The tenant's execution `id` stored at `createdAt`, if it is stored (yet, or still). */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.DATE] })
  async findAt(tenantId: TenantId, id: string, createdAt: Date): Promise<Execution | undefined> {
    const [row] = await this.pool.query(FIND_AT_SQL, [tenantId, id, createdAt]);
    return row && toExecution(row);
  }

  /** The payload of the tenant's execution stored at `createdAt` (one partition), if still kept since `keptSince`. */
  @GenerateSql({ params: [DummyValue.TENANT_ID, { id: DummyValue.UUID, createdAt: DummyValue.DATE }, new Date(0)] })
  async findPayload(tenantId: TenantId, execution: Pick<Execution, 'id' | 'createdAt'>, keptSince: Date): Promise<ExecutionPayload | undefined> {
    if (execution.createdAt < keptSince) return undefined;
    const rows = await this.pool.query(PAYLOAD_SQL, [tenantId, execution.id, execution.createdAt]);
    return rows[0] && withRequestHeaders(rows[0]);
  }

  /**
   * Rollup rows of the tenant (of one action, or of the tenant's total): the hourly ones from `hoursFrom` and the
   * daily ones from `daysFrom`, each oldest first.
   */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.DATE, DummyValue.DATE, DummyValue.UUID] })
  async stats(tenantId: TenantId, hoursFrom: Date, daysFrom: Date, actionId: string = TENANT_TOTAL): Promise<{ hourly: StatsRow[]; daily: StatsRow[] }> {
    await this.rollups.flush();
    const rows = await this.readEveryPartition(SERIES_SQL, [tenantId, actionId, hoursFrom, daysFrom]);
    return { hourly: rows.filter((row) => row.period === 'hour').map(toStatsRow), daily: rows.filter((row) => row.period === 'day').map(toStatsRow) };
  }

  /** The tenant's per-action rollups from `since` (hourly), summed per action. */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.DATE] })
  async statsPerAction(tenantId: TenantId, since: Date): Promise<StatsRow[]> {
    await this.rollups.flush();
    return (await this.readEveryPartition(STATS_PER_ACTION_SQL, [tenantId, TENANT_TOTAL, since])).map(toStatsRow);
  }

  /** A list or the statistics: with its generic plan on the pool for them, else on the main pool, unprepared. */
  private async readEveryPartition<Params extends readonly unknown[], Row>(statement: ReadOfEveryPartition<Params, Row>, values: readonly [TenantId, ...Params]): Promise<Row[]> {
    // The same statement, its parameters checked already by this method's signature.
    if (!this.readPool) return this.pool.query(statement as ReadOfEveryPartition<unknown[], Row>, values);
    return (await this.readPrepared.query<Row & object>(this.readPool, statement.name, statement.text, [...values])).rows;
  }

  /**
   * One statement for the whole batch: the executions, the payloads kept, and the rollups (the batch's counts
   * added into each action's and each tenant's hour and day). A partition missing for a row (the maintenance
   * had not run yet) is created and the batch tried again; if it still fails, each row is tried on its own, so
   * one bad row fails no other.
   */
  private async insertBatch(batch: ExecutionToStore[]): Promise<Array<'stored' | ItemFailed>> {
    try {
      await this.insertRows(batch);
      this.rollups.add(batch.map(({ execution }) => execution));
      return batch.map(() => 'stored');
    } catch (error) {
      if (batch.length === 1) return [new ItemFailed(error)];
    }
    const results: Array<'stored' | ItemFailed> = [];
    for (const toStore of batch) {
      try {
        await this.insertRows([toStore]);
        this.rollups.add([toStore.execution]);
        results.push('stored');
      } catch (error) {
        results.push(new ItemFailed(error));
      }
    }
    return results;
  }

  private async insertRows(batch: ExecutionToStore[]): Promise<void> {
    const times = batch.map(({ execution }) => execution.createdAt.getTime());
    const { statement, values } = insertStatement(batch);
    await this.writeLog(statement, values, times);
  }

  /** One statement adding the rollups' counts (RollupBuffer) into the hourly and the daily rows. */
  private async writeRollups(rows: RollupRows): Promise<void> {
    const values = [...columnsOf(rows.hourly.map(statsValues), STATS_TYPES.length), ...columnsOf(rows.daily.map(statsValues), STATS_TYPES.length)];
    const times = rows.daily.map((row) => row.start);
    await this.writeLog(ROLLUPS_SQL, values, times);
  }

  /**
   * A statement of the log, prepared on the log's own connections when there are (and unless a pooler loses
   * prepared statements). A partition missing for a time in `times` (the maintenance had not run yet) is created
   * and the statement tried again.
   */
  private async writeLog(statement: LogWrite, values: unknown[], times: number[]): Promise<void> {
    const run = () => this.writes.query(statement, values);
    try {
      await run();
    } catch (error) {
      if (!NO_PARTITION.test((error as Error).message ?? '')) throw error;
      await this.partitions.ensure(new Date(Math.min(...times)), new Date(Math.max(...times)));
      await run();
    }
  }
}

interface ExecutionRow {
  id: string;
  tenant_id: string;
  action_id: string;
  action_name: string;
  status: ExecutionStatus;
  http_status: number | null;
  result: string | null;
  error: string;
  duration_ms: number;
  attempts: number;
  attempt_log: Execution['attemptLog'];
  created_at: Date;
  replay_of: string | null;
  payload: Execution['payload'];
  position: string;
}

function toExecution(row: ExecutionRow): Execution {
  return Object.assign(new Execution(), {
    id: row.id,
    tenantId: row.tenant_id,
    actionId: row.action_id,
    actionName: row.action_name,
    status: row.status,
    httpStatus: row.http_status,
    result: row.result,
    error: row.error,
    durationMs: row.duration_ms,
    attempts: row.attempts,
    attemptLog: row.attempt_log,
    createdAt: row.created_at,
    replayOf: row.replay_of,
    payload: row.payload,
  });
}

interface StatsDbRow {
  action_id: string;
  period_start: Date;
  executions: number;
  succeeded: number;
  failed: number;
  duration_histogram: number[];
}

function toStatsRow(row: StatsDbRow): StatsRow {
  return {
    actionId: row.action_id,
    periodStart: row.period_start,
    executions: row.executions,
    succeeded: row.succeeded,
    failed: row.failed,
    histogram: row.duration_histogram,
  };
}

/**
 * The batch's statement: executions and payloads in one round trip. Each table's rows go as one JSON array
 * (json_populate_recordset, by column name), so the text depends only on whether the batch keeps payloads: two
 * statements in all, each parsed and planned once per connection (a prepared statement, `name`), where a text per
 * batch size had the database parse and plan each batch's anew, which cost more than the rows. One JSON.stringify
 * a table: an array a column made pg write each value into an array literal, escaping the payloads' JSON a second
 * time (docs/benchmarks.md, "The log's insert: one statement text, rollups in memory, rows as JSON").
 */
function insertStatement(batch: ExecutionToStore[]): { statement: LogWrite; values: unknown[] } {
  const executions: Record<string, unknown>[] = [];
  const payloads: Record<string, unknown>[] = [];
  for (const { execution, payload } of batch) {
    // As text, once for both rows (JSON.stringify would call the Date's toJSON for each).
    const createdAt = execution.createdAt.toISOString();
    executions.push(executionRow(execution, createdAt));
    if (payload) payloads.push({ execution_id: execution.id, tenant_id: execution.tenantId, created_at: createdAt, request: payload.request, attempts: payload.attempts });
  }
  return payloads.length > 0
    ? { statement: INSERT_WITH_PAYLOADS_SQL, values: [JSON.stringify(executions), JSON.stringify(payloads)] }
    : { statement: INSERT_SQL, values: [JSON.stringify(executions)] };
}

/** A row of `executions`, keyed by its columns (COLUMNS); a row of `execution_payloads` is keyed by PAYLOAD_COLUMNS. */
function executionRow(e: Execution, createdAt: string): Record<string, unknown> {
  return {
    id: e.id,
    tenant_id: e.tenantId,
    action_id: e.actionId,
    action_name: e.actionName,
    status: e.status,
    http_status: e.httpStatus,
    result: e.result,
    error: e.error,
    duration_ms: e.durationMs,
    attempts: e.attempts,
    attempt_log: e.attemptLog,
    created_at: createdAt,
    replay_of: e.replayOf,
    payload: e.payload,
  };
}

/** Rows as one array a column. */
function columnsOf(rows: unknown[][], width: number): unknown[][] {
  return Array.from({ length: width }, (_, column) => rows.map((row) => row[column]));
}

/** The histogram goes as its array literal: unnest would flatten an array of arrays. */
const STATS_TYPES = ['uuid', 'uuid', 'timestamptz', 'integer', 'integer', 'integer', 'text'];
const unnest = (types: string[], from: number) => `unnest(${types.map((type, index) => `$${from + index}::${type}[]`).join(', ')})`;

/** The rows of `table` in the JSON array `$n`, each column by its name and of its own type. */
const rowsOf = (table: string, columns: string, n: number) => `SELECT ${columns} FROM json_populate_recordset(NULL::${table}, $${n}::json)`;

function insertSql(withPayloads: boolean): string {
  const executions = `INSERT INTO executions (${COLUMNS}) ${rowsOf('executions', COLUMNS, 1)}`;
  if (!withPayloads) return executions;
  return `WITH e AS (${executions}) INSERT INTO execution_payloads (${PAYLOAD_COLUMNS}) ${rowsOf('execution_payloads', PAYLOAD_COLUMNS, 2)}`;
}
/** A write of the log, about every tenant whose rows it carries, prepared under its own name on the log's connections. */
type LogWrite = AsyncCommitWrite<unknown[]>;
const logWrite = (name: string, why: string, text: string): LogWrite => ({ ...globalStatement<unknown[]>(why, text), name });
const BATCH_WHY = 'executions finishing together are stored in one statement, whatever their tenants; each row carries its own';
const INSERT_SQL = logWrite('agw_log_insert', BATCH_WHY, insertSql(false));
const INSERT_WITH_PAYLOADS_SQL = logWrite('agw_log_insert_payloads', BATCH_WHY, insertSql(true));
const ROLLUPS_SQL = logWrite(
  'agw_log_rollups',
  'the counts of executions of any tenants are written together; each row carries its own',
  `WITH h AS (${upsertStats('execution_stats_hourly', 1)}) ${upsertStats('execution_stats_daily', STATS_TYPES.length + 1)}`,
);

/** The rollup rows from `$from` on, in the order given (WITH ORDINALITY), so that every write locks rows in one order. */
function upsertStats(table: string, from: number): string {
  return (
    `INSERT INTO ${table} (${STATS_COLUMNS}) SELECT tenant_id, action_id, period_start, executions, succeeded, failed, histogram::integer[] ` +
    `FROM ${unnest(STATS_TYPES, from)} WITH ORDINALITY AS r(tenant_id, action_id, period_start, executions, succeeded, failed, histogram, n) ORDER BY n ` +
    `ON CONFLICT (tenant_id, action_id, period_start) DO UPDATE SET ` +
    `executions = ${table}.executions + EXCLUDED.executions, succeeded = ${table}.succeeded + EXCLUDED.succeeded, ` +
    `failed = ${table}.failed + EXCLUDED.failed, ` +
    `duration_histogram = execution_histogram_add(${table}.duration_histogram, EXCLUDED.duration_histogram)`
  );
}

/** A rollup row as the upsert's columns take it. */
function statsValues(row: RollupCounts): unknown[] {
  return [row.tenantId, row.actionId, new Date(row.start).toISOString(), row.executions, row.succeeded, row.executions - row.succeeded, `{${row.histogram.join(',')}}`];
}
