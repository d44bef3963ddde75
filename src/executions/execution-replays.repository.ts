import { Injectable } from '@nestjs/common';
import { TenantId } from '../common/tenant-id';
import { DatabasePool } from '../database/database-pool';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { tenantStatement } from '../tenancy/tenant-statement';

/** A bulk replay as stored: what it replays and how far it got. */
export interface ReplayJob {
  id: string;
  tenant_id: string;
  action_id: string;
  action_name: string;
  since: Date;
  until: Date;
  status: 'running' | 'done' | 'stopped';
  stopped_reason: string | null;
  total: number;
  done: number;
  succeeded: number;
  failed: number;
  skipped: number;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

export type ReplayProgress = Pick<ReplayJob, 'status' | 'stopped_reason' | 'done' | 'succeeded' | 'failed' | 'skipped' | 'updated_at' | 'finished_at'>;

const JOB_COLUMNS = 'id, tenant_id, action_id, action_name, since, until, status, stopped_reason, total, done, succeeded, failed, skipped, created_at, updated_at, finished_at';
const INSERT_JOB_SQL = tenantStatement<[id: string, actionId: string, actionName: string, since: Date, until: Date, total: number, at: Date]>(
  `INSERT INTO execution_replays (tenant_id, id, action_id, action_name, since, until, status, total, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 'running', $7, $8, $8)`,
);
const JOB_SQL = tenantStatement<[id: string], ReplayJob>(`SELECT ${JOB_COLUMNS} FROM execution_replays WHERE tenant_id = $1 AND id = $2`);
const RUNNING_SQL = tenantStatement<[since: Date], ReplayJob>(
  `SELECT ${JOB_COLUMNS} FROM execution_replays WHERE tenant_id = $1 AND status = 'running' AND updated_at >= $2 ORDER BY created_at DESC LIMIT 1`,
);
const PROGRESS_SQL = tenantStatement<[id: string, status: string, reason: string | null, done: number, succeeded: number, failed: number, skipped: number, at: Date, finished: Date | null]>(
  `UPDATE execution_replays SET status = $3, stopped_reason = $4, done = $5, succeeded = $6, failed = $7, skipped = $8, updated_at = $9, finished_at = $10 WHERE tenant_id = $1 AND id = $2`,
);
/**
 * What a bulk replay sends: the action's failed originals created in [since, until) (never a replay: replaying
 * replays made each run send the earlier runs' failures again, 1, 2, 4, 8 calls for one failure), leaving out an
 * original that a replay has delivered since (any replay of it that succeeded: it is not sent twice). A replay's
 * success is looked for from the original's own time on (the partial index on replay_of, partitions pruned).
 */
const FAILED_ORIGINALS =
  `FROM executions e WHERE e.tenant_id = $1 AND e.action_id = $2 AND e.status = 'failed' AND e.replay_of IS NULL ` +
  `AND e.created_at >= $3 AND e.created_at < $4 AND NOT EXISTS (SELECT 1 FROM executions r WHERE r.tenant_id = $1 AND r.replay_of = e.id ` +
  `AND r.status = 'succeeded' AND r.created_at >= e.created_at)`;
/** How many failed originals of the action lie in [since, until) (FAILED_ORIGINALS), counted up to `$5` (the bound plus one). */
const COUNT_FAILED_SQL = tenantStatement<[actionId: string, since: Date, until: Date, upTo: number], { count: number }>(
  `SELECT count(*)::int AS count FROM (SELECT 1 ${FAILED_ORIGINALS} LIMIT $5) AS failed`,
);
/** The next failed originals after a position, oldest first (the index on action_id, status, created_at, id). */
const NEXT_FAILED_SQL = tenantStatement<[actionId: string, since: Date, until: Date, afterAt: string, afterId: string, limit: number], { id: string; position: string }>(
  `SELECT e.id, e.created_at::text AS position ${FAILED_ORIGINALS} AND (e.created_at, e.id) > ($5::timestamptz, $6::uuid) ORDER BY e.created_at, e.id LIMIT $7`,
);

/** Bulk replays (`execution_replays`), each read and written as its tenant's. */
@Injectable()
export class ExecutionReplaysRepository {
  constructor(private readonly pool: DatabasePool) {}

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.UUID, DummyValue.STRING, DummyValue.DATE, DummyValue.DATE, 1, DummyValue.DATE] })
  async insert(tenantId: TenantId, id: string, actionId: string, actionName: string, since: Date, until: Date, total: number, at: Date): Promise<void> {
    await this.pool.query(INSERT_JOB_SQL, [tenantId, id, actionId, actionName, since, until, total, at]);
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID] })
  async find(tenantId: TenantId, id: string): Promise<ReplayJob | undefined> {
    return (await this.pool.query(JOB_SQL, [tenantId, id]))[0];
  }

  /** The tenant's replay still running (its progress written since `alive`), if any. */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.DATE] })
  async running(tenantId: TenantId, alive: Date): Promise<ReplayJob | undefined> {
    return (await this.pool.query(RUNNING_SQL, [tenantId, alive]))[0];
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, { status: 'done', stopped_reason: null, done: 1, succeeded: 1, failed: 0, skipped: 0, updated_at: DummyValue.DATE, finished_at: DummyValue.DATE }] })
  async saveProgress(tenantId: TenantId, id: string, progress: ReplayProgress): Promise<void> {
    const { status, stopped_reason, done, succeeded, failed, skipped, updated_at, finished_at } = progress;
    await this.pool.query(PROGRESS_SQL, [tenantId, id, status, stopped_reason, done, succeeded, failed, skipped, updated_at, finished_at]);
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.DATE, DummyValue.DATE, 1001] })
  async countFailed(tenantId: TenantId, actionId: string, since: Date, until: Date, upTo: number): Promise<number> {
    return (await this.pool.query(COUNT_FAILED_SQL, [tenantId, actionId, since, until, upTo]))[0].count;
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.DATE, DummyValue.DATE, { position: '2026-01-01 00:00:00+00', id: DummyValue.UUID }, 100] })
  nextFailed(
    tenantId: TenantId,
    actionId: string,
    since: Date,
    until: Date,
    after: { position: string; id: string },
    limit: number,
  ): Promise<Array<{ id: string; position: string }>> {
    return this.pool.query(NEXT_FAILED_SQL, [tenantId, actionId, since, until, after.position, after.id, limit]);
  }
}
