import { Injectable } from '@nestjs/common';
import { BatchQueue, ItemFailed } from '../common/batch-queue';
import { TenantId } from '../common/tenant-id';
import { DatabasePool } from '../database/database-pool';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { TenantTransaction } from '../tenancy/tenant-lock';
import { TenantTables } from '../tenancy/tenant-tables';
import { AttemptRecord, Execution } from './execution.entity';
import { StoredExecutionPayload } from './execution-payload';
import { ExecutionLogPools, NO_PARTITION } from './execution-log-pools';
import { ExecutionRollupsRepository } from './execution-rollups.repository';
import { FINISH_SQL, INSERT_PENDING_SQL, INSERT_SQL, INSERT_WITH_PAYLOADS_SQL, MARK_RUNNING_SQL, RECORD_ATTEMPTS_SQL, UNFINISHED_SQL } from './execution-writes.sql';
import { LogWrite } from './executions.sql';
import { LogPartitionsRepository } from './log-partitions.repository';

const MAX_BATCH = 100;

/** A succeeded execution with its payload kept, the SQL snapshots' example of an outcome to store. */
const EXAMPLE_OUTCOME = {
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
};

/** An execution to store, with its payload when payload logging is on. */
export interface ExecutionToStore {
  execution: Execution;
  payload?: StoredExecutionPayload;
}

/**
 * The writes of the delivery log (docs/decisions.md, "The delivery log"): executions and their payloads, written
 * in one statement as executions finish (BatchQueue groups those finishing together) on the log's connections
 * with asynchronous commits where the database allows them (ExecutionLogPools), and an asynchronous execution's
 * row from accepted to finished. Each stored execution's counts go to the rollups (ExecutionRollupsRepository).
 */
@Injectable()
export class ExecutionWritesRepository {
  /** Executions finishing together are stored with one multi-row INSERT (see BatchQueue). */
  private readonly inserts = new BatchQueue<ExecutionToStore, 'stored'>((batch) => this.insertBatch(batch), MAX_BATCH);

  constructor(
    private readonly pool: DatabasePool,
    private readonly pools: ExecutionLogPools,
    private readonly partitions: LogPartitionsRepository,
    private readonly tables: TenantTables,
    private readonly rollups: ExecutionRollupsRepository,
  ) {}

  @GenerateSql({
    params: [
      {
        execution: {
          ...EXAMPLE_OUTCOME.execution,
          actionName: DummyValue.STRING,
          // Today: the migration and the upkeep have its partitions ready (an older day's would be created first).
          createdAt: new Date(),
          replayOf: null,
        },
        payload: EXAMPLE_OUTCOME.payload,
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
      EXAMPLE_OUTCOME,
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
    await this.pools.write(statement, values, times);
  }
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
