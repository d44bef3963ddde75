import type { TenantId } from '../common/tenant-id';
import { globalStatement } from '../database/statement';
import { tenantStatement } from '../tenancy/tenant-statement';

/** Executions of a deleted action (or expired idempotency keys) are deleted this many at a time, each batch a short statement of its own. */
export const PURGE_BATCH = 5_000;

/** The deleted actions whose history is to go (queued by a trigger on `actions`), oldest first. */
export const PURGE_QUEUE_SQL = globalStatement<[settleSeconds: number], { action_id: string; tenant_id: TenantId; settled: boolean }>(
  'the queue of deleted actions holds every tenant\'s; each entry names its tenant',
  'SELECT action_id, tenant_id, deleted_at < now() - make_interval(secs => $1) AS settled FROM execution_log_purges ORDER BY deleted_at LIMIT 100',
);

/** A batch of a deleted action's executions, with their payloads; the count of executions gone. */
export const PURGE_EXECUTIONS_SQL = tenantStatement<[actionId: string], { count: number }>(
  `WITH gone AS (
     DELETE FROM executions WHERE tenant_id = $1 AND (id, created_at) IN (
       SELECT id, created_at FROM executions WHERE tenant_id = $1 AND action_id = $2 LIMIT ${PURGE_BATCH})
     RETURNING id, created_at),
   payloads AS (DELETE FROM execution_payloads p USING gone WHERE p.tenant_id = $1 AND p.execution_id = gone.id AND p.created_at = gone.created_at)
   SELECT count(*)::int AS count FROM gone`,
);

/** A deleted action's rollups of `table`, taken off its tenant's totals (the rows of action `$3`). */
const uncount = (table: 'execution_stats_hourly' | 'execution_stats_daily') =>
  tenantStatement<[actionId: string, total: string]>(
    `WITH gone AS (DELETE FROM ${table} WHERE tenant_id = $1 AND action_id = $2 RETURNING *)
     UPDATE ${table} t SET executions = t.executions - gone.executions, succeeded = t.succeeded - gone.succeeded,
       failed = t.failed - gone.failed,
       duration_histogram = execution_histogram_add(t.duration_histogram, ARRAY(SELECT -x FROM unnest(gone.duration_histogram) WITH ORDINALITY AS u(x, n) ORDER BY n))
     FROM gone WHERE t.tenant_id = $1 AND t.action_id = $3 AND t.period_start = gone.period_start`,
  );
export const PURGE_ROLLUPS_SQL = [uncount('execution_stats_hourly'), uncount('execution_stats_daily')];

/** The queue's entry of an action whose history is gone. */
export const PURGE_DONE_SQL = globalStatement<[actionId: string]>(
  'a queue entry is removed by its action\'s id, which names one tenant\'s action',
  'DELETE FROM execution_log_purges WHERE action_id = $1',
);

/** Advisory lock key (a number the service uses for nothing else): one replica at a time runs the upkeep. */
const MAINTENANCE_LOCK = 0x61677702;
const UPKEEP = 'the upkeep of the delivery log is one for every tenant';
/** The lock, taken for the run's session, or not (another replica holds it: this run is skipped)... */
export const TRY_LOCK_SQL = globalStatement<[], { locked: boolean }>(UPKEEP, `SELECT pg_try_advisory_lock(${MAINTENANCE_LOCK}) AS locked`);
/** ...and let go when the run ends. */
export const UNLOCK_SQL = globalStatement(UPKEEP, `SELECT pg_advisory_unlock(${MAINTENANCE_LOCK})`);

/** When the hourly work last ran (one row, or none before the first run). */
export const LAST_RUN_SQL = globalStatement<[], { last_run_at: Date }>(UPKEEP, 'SELECT last_run_at FROM execution_log_maintenance');
export const RECORD_RUN_SQL = globalStatement<[at: Date]>(
  UPKEEP,
  'INSERT INTO execution_log_maintenance (last_run_at) VALUES ($1) ON CONFLICT (singleton) DO UPDATE SET last_run_at = EXCLUDED.last_run_at',
);

/** A batch of the idempotency keys stored before `$1`, oldest first (the index on `created_at`); the count deleted. */
export const EXPIRED_KEYS_SQL = globalStatement<[cutoff: Date], { count: number }>(
  'keys expire by age, whichever tenant\'s they are',
  `WITH gone AS (DELETE FROM idempotency_keys WHERE (tenant_id, idempotency_key) IN (
           SELECT tenant_id, idempotency_key FROM idempotency_keys WHERE created_at < $1 ORDER BY created_at LIMIT ${PURGE_BATCH}) RETURNING 1)
         SELECT count(*)::int AS count FROM gone`,
);
