import { Injectable } from '@nestjs/common';
import { TenantId } from '../common/tenant-id';
import { uuidV7Time } from '../common/uuid';
import { DatabasePool } from '../database/database-pool';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { Execution, ExecutionStatus } from './execution.entity';
import { ExecutionPayload, withRequestHeaders } from './execution-payload';
import { ExecutionLogPools } from './execution-log-pools';
import { FIND_AT_SQL, FIND_NEAR_OF_ACTION_SQL, FIND_NEAR_SQL, FIND_OF_ACTION_SQL, FIND_SQL, LIST_SQL, listKey, PAYLOAD_SQL } from './execution-reads.sql';
import { ExecutionRow } from './executions.sql';

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

/** How far from its id's time an execution's `created_at` is looked for first. */
const ID_TIME_WINDOW_MS = 60_000;

/**
 * The reads of the delivery log (docs/decisions.md, "The delivery log"): an execution, its payload, a tenant's
 * lists. Every read is scoped to a tenant and goes through an index of `executions`; the lists, which span every
 * partition kept, run with their generic plans on the log's read pool (ExecutionLogPools).
 */
@Injectable()
export class ExecutionReadsRepository {
  constructor(
    private readonly pool: DatabasePool,
    private readonly pools: ExecutionLogPools,
  ) {}

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
    const rows = await this.pools.read(LIST_SQL.get(listKey(filters))!, [tenantId, ...parameters]);
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
