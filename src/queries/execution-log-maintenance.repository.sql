-- The statements each method of ExecutionLogMaintenanceRepository (src/executions/execution-log-maintenance.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- ExecutionLogMaintenanceRepository.tryLock
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
SELECT
  pg_try_advisory_lock(1634170626) AS locked;

-- ExecutionLogMaintenanceRepository.unlock
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
SELECT
  pg_advisory_unlock(1634170626);

-- ExecutionLogMaintenanceRepository.lastRunAt
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
SELECT
  last_run_at
FROM
  execution_log_maintenance;

-- ExecutionLogMaintenanceRepository.recordRun
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
INSERT INTO
  execution_log_maintenance (last_run_at)
VALUES
  ($1)
ON CONFLICT (singleton) DO UPDATE
SET
  last_run_at = EXCLUDED.last_run_at;

-- ExecutionLogMaintenanceRepository.deleteExpiredKeys
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
WITH
  gone AS (
    DELETE FROM idempotency_keys
    WHERE
      (tenant_id, idempotency_key) IN (
        SELECT
          tenant_id,
          idempotency_key
        FROM
          idempotency_keys
        WHERE
          created_at < $1
        ORDER BY
          created_at
        LIMIT
          5000
      )
    RETURNING
      1
  )
SELECT
  count(*)::int AS count
FROM
  gone;

-- ExecutionLogMaintenanceRepository.purgeQueue
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
SELECT
  action_id,
  tenant_id,
  deleted_at < now() - make_interval(secs => $1) AS settled
FROM
  execution_log_purges
ORDER BY
  deleted_at
LIMIT
  100;

-- ExecutionLogMaintenanceRepository.purgeExecutions
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
WITH
  gone AS (
    DELETE FROM executions
    WHERE
      tenant_id = $1
      AND (id, created_at) IN (
        SELECT
          id,
          created_at
        FROM
          executions
        WHERE
          tenant_id = $1
          AND action_id = $2
        LIMIT
          5000
      )
    RETURNING
      id,
      created_at
  ),
  payloads AS (
    DELETE FROM execution_payloads p USING gone
    WHERE
      p.tenant_id = $1
      AND p.execution_id = gone.id
      AND p.created_at = gone.created_at
  )
SELECT
  count(*)::int AS count
FROM
  gone;

-- ExecutionLogMaintenanceRepository.purgeRollups
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
WITH
  gone AS (
    DELETE FROM execution_stats_hourly
    WHERE
      tenant_id = $1
      AND action_id = $2
    RETURNING
      *
  )
UPDATE execution_stats_hourly t
SET
  executions = t.executions - gone.executions,
  succeeded = t.succeeded - gone.succeeded,
  failed = t.failed - gone.failed,
  duration_histogram = execution_histogram_add (
    t.duration_histogram,
    ARRAY(
      SELECT
        - x
      FROM
        unnest(gone.duration_histogram) WITH ORDINALITY AS u (x, n)
      ORDER BY
        n
    )
  )
FROM
  gone
WHERE
  t.tenant_id = $1
  AND t.action_id = $3
  AND t.period_start = gone.period_start;
WITH
  gone AS (
    DELETE FROM execution_stats_daily
    WHERE
      tenant_id = $1
      AND action_id = $2
    RETURNING
      *
  )
UPDATE execution_stats_daily t
SET
  executions = t.executions - gone.executions,
  succeeded = t.succeeded - gone.succeeded,
  failed = t.failed - gone.failed,
  duration_histogram = execution_histogram_add (
    t.duration_histogram,
    ARRAY(
      SELECT
        - x
      FROM
        unnest(gone.duration_histogram) WITH ORDINALITY AS u (x, n)
      ORDER BY
        n
    )
  )
FROM
  gone
WHERE
  t.tenant_id = $1
  AND t.action_id = $3
  AND t.period_start = gone.period_start;

-- ExecutionLogMaintenanceRepository.purgeDone
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
DELETE FROM execution_log_purges
WHERE
  action_id = $1;
