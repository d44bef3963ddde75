-- The statements each method of ExecutionRollupsRepository (src/executions/execution-rollups.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- ExecutionRollupsRepository.add

-- ExecutionRollupsRepository.flush (the counts added above)
WITH
  h AS (
    INSERT INTO
      execution_stats_hourly (
        tenant_id,
        action_id,
        period_start,
        executions,
        succeeded,
        failed,
        duration_histogram
      )
    SELECT
      tenant_id,
      action_id,
      period_start,
      executions,
      succeeded,
      failed,
      histogram::integer[]
    FROM
      unnest(
        $1::uuid[],
        $2::uuid[],
        $3::timestamptz[],
        $4::integer[],
        $5::integer[],
        $6::integer[],
        $7::text[]
      ) WITH ORDINALITY AS r (
        tenant_id,
        action_id,
        period_start,
        executions,
        succeeded,
        failed,
        histogram,
        n
      )
    ORDER BY
      n
    ON CONFLICT (tenant_id, action_id, period_start) DO UPDATE
    SET
      executions = execution_stats_hourly.executions + EXCLUDED.executions,
      succeeded = execution_stats_hourly.succeeded + EXCLUDED.succeeded,
      failed = execution_stats_hourly.failed + EXCLUDED.failed,
      duration_histogram = execution_histogram_add (
        execution_stats_hourly.duration_histogram,
        EXCLUDED.duration_histogram
      )
  )
INSERT INTO
  execution_stats_daily (
    tenant_id,
    action_id,
    period_start,
    executions,
    succeeded,
    failed,
    duration_histogram
  )
SELECT
  tenant_id,
  action_id,
  period_start,
  executions,
  succeeded,
  failed,
  histogram::integer[]
FROM
  unnest(
    $8::uuid[],
    $9::uuid[],
    $10::timestamptz[],
    $11::integer[],
    $12::integer[],
    $13::integer[],
    $14::text[]
  ) WITH ORDINALITY AS r (
    tenant_id,
    action_id,
    period_start,
    executions,
    succeeded,
    failed,
    histogram,
    n
  )
ORDER BY
  n
ON CONFLICT (tenant_id, action_id, period_start) DO UPDATE
SET
  executions = execution_stats_daily.executions + EXCLUDED.executions,
  succeeded = execution_stats_daily.succeeded + EXCLUDED.succeeded,
  failed = execution_stats_daily.failed + EXCLUDED.failed,
  duration_histogram = execution_histogram_add (
    execution_stats_daily.duration_histogram,
    EXCLUDED.duration_histogram
  );

-- ExecutionRollupsRepository.stats
SELECT
  'hour'::text AS period,
  action_id,
  period_start,
  executions,
  succeeded,
  failed,
  to_json(duration_histogram) AS duration_histogram
FROM
  execution_stats_hourly
WHERE
  tenant_id = $1
  AND action_id = $2
  AND period_start >= $3
UNION ALL
SELECT
  'day'::text AS period,
  action_id,
  period_start,
  executions,
  succeeded,
  failed,
  to_json(duration_histogram) AS duration_histogram
FROM
  execution_stats_daily
WHERE
  tenant_id = $1
  AND action_id = $2
  AND period_start >= $4
ORDER BY
  period,
  period_start;

-- ExecutionRollupsRepository.statsPerAction
SELECT
  action_id,
  min(period_start) AS period_start,
  sum(executions)::int AS executions,
  sum(succeeded)::int AS succeeded,
  sum(failed)::int AS failed,
  to_json(execution_histogram_sum (duration_histogram)) AS duration_histogram
FROM
  execution_stats_hourly
WHERE
  tenant_id = $1
  AND action_id <> $2
  AND period_start >= $3
GROUP BY
  action_id;
