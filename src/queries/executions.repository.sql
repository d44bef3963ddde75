-- The statements each method of ExecutionsRepository (src/executions/executions.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- ExecutionsRepository.insert
WITH
  e AS (
    INSERT INTO
      executions (
        id,
        tenant_id,
        action_id,
        action_name,
        status,
        http_status,
        result,
        error,
        duration_ms,
        attempts,
        attempt_log,
        created_at,
        replay_of,
        payload
      )
    SELECT
      id,
      tenant_id,
      action_id,
      action_name,
      status,
      http_status,
      result,
      error,
      duration_ms,
      attempts,
      attempt_log,
      created_at,
      replay_of,
      payload
    FROM
      json_populate_recordset(NULL::executions, $1::json)
  )
INSERT INTO
  execution_payloads (
    execution_id,
    tenant_id,
    created_at,
    request,
    attempts
  )
SELECT
  execution_id,
  tenant_id,
  created_at,
  request,
  attempts
FROM
  json_populate_recordset(NULL::execution_payloads, $2::json);

-- ExecutionsRepository.accept
START TRANSACTION;
SELECT
  "tenant"."id" AS "tenant_id",
  "tenant"."name" AS "tenant_name",
  "tenant"."status" AS "tenant_status",
  "tenant"."created_at" AS "tenant_created_at",
  "tenant"."updated_at" AS "tenant_updated_at"
FROM
  "tenants" "tenant"
WHERE
  "tenant"."id" = $1
FOR UPDATE;
SELECT
  count(*)::int AS count
FROM
  executions
WHERE
  tenant_id = $1
  AND status IN ('pending', 'running');
INSERT INTO
  executions (
    tenant_id,
    id,
    action_id,
    action_name,
    status,
    http_status,
    result,
    error,
    duration_ms,
    attempts,
    attempt_log,
    created_at,
    replay_of,
    payload
  )
VALUES
  (
    $1,
    $2,
    $3,
    $4,
    'pending',
    NULL,
    NULL,
    '',
    0,
    0,
    '[]',
    $5,
    NULL,
    $6
  );
COMMIT;

-- ExecutionsRepository.markRunning
UPDATE executions
SET
  status = 'running'
WHERE
  tenant_id = $1
  AND id = $2
  AND created_at = $3
  AND status IN ('pending', 'running')
RETURNING
  attempts,
  attempt_log;

-- ExecutionsRepository.recordAttempts
UPDATE executions
SET
  attempts = $4,
  attempt_log = $5::jsonb
WHERE
  tenant_id = $1
  AND id = $2
  AND created_at = $3
  AND status IN ('pending', 'running');

-- ExecutionsRepository.finish
WITH
  e AS (
    UPDATE executions
    SET
      status = $4,
      http_status = $5,
      result = $6,
      error = $7,
      duration_ms = $8,
      attempts = $9,
      attempt_log = $10::jsonb,
      payload = $11
    WHERE
      tenant_id = $1
      AND id = $2
      AND created_at = $3
      AND status IN ('pending', 'running')
    RETURNING
      id
  ),
  p AS (
    INSERT INTO
      execution_payloads (
        execution_id,
        tenant_id,
        created_at,
        request,
        attempts
      )
    SELECT
      id,
      $1,
      $3,
      $12::json,
      $13::json
    FROM
      e
    WHERE
      $12::json IS NOT NULL
  )
SELECT
  count(*)::int AS finished
FROM
  e;

-- ExecutionsRepository.flushRollups (the counts of the execution inserted above)
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

-- ExecutionsRepository.list (one action)
SELECT
  id,
  tenant_id,
  action_id,
  action_name,
  status,
  http_status,
  result,
  error,
  duration_ms,
  attempts,
  attempt_log,
  created_at,
  replay_of,
  payload,
  created_at::text AS position
FROM
  executions
WHERE
  tenant_id = $1
  AND action_id = $2
  AND created_at >= $3
ORDER BY
  created_at DESC,
  id DESC
LIMIT
  $4;

-- ExecutionsRepository.list (every filter, after a position)
SELECT
  id,
  tenant_id,
  action_id,
  action_name,
  status,
  http_status,
  result,
  error,
  duration_ms,
  attempts,
  attempt_log,
  created_at,
  replay_of,
  payload,
  created_at::text AS position
FROM
  executions
WHERE
  tenant_id = $1
  AND status = $2
  AND created_at >= $3
  AND created_at < $4
  AND (created_at, id) < ($5::timestamptz, $6::uuid)
ORDER BY
  created_at DESC,
  id DESC
LIMIT
  $7;

-- ExecutionsRepository.find (of an action)
SELECT
  id,
  tenant_id,
  action_id,
  action_name,
  status,
  http_status,
  result,
  error,
  duration_ms,
  attempts,
  attempt_log,
  created_at,
  replay_of,
  payload,
  created_at::text AS position
FROM
  executions
WHERE
  tenant_id = $1
  AND id = $2
  AND created_at >= $3
  AND action_id = $4;

-- ExecutionsRepository.find (of the tenant)
SELECT
  id,
  tenant_id,
  action_id,
  action_name,
  status,
  http_status,
  result,
  error,
  duration_ms,
  attempts,
  attempt_log,
  created_at,
  replay_of,
  payload,
  created_at::text AS position
FROM
  executions
WHERE
  tenant_id = $1
  AND id = $2
  AND created_at >= $3;

-- ExecutionsRepository.find (a UUID v7, near its time, then everywhere)
SELECT
  id,
  tenant_id,
  action_id,
  action_name,
  status,
  http_status,
  result,
  error,
  duration_ms,
  attempts,
  attempt_log,
  created_at,
  replay_of,
  payload,
  created_at::text AS position
FROM
  executions
WHERE
  tenant_id = $1
  AND id = $2
  AND created_at >= $3
  AND created_at >= $4
  AND created_at < $5;
SELECT
  id,
  tenant_id,
  action_id,
  action_name,
  status,
  http_status,
  result,
  error,
  duration_ms,
  attempts,
  attempt_log,
  created_at,
  replay_of,
  payload,
  created_at::text AS position
FROM
  executions
WHERE
  tenant_id = $1
  AND id = $2
  AND created_at >= $3;

-- ExecutionsRepository.findAt
SELECT
  id,
  tenant_id,
  action_id,
  action_name,
  status,
  http_status,
  result,
  error,
  duration_ms,
  attempts,
  attempt_log,
  created_at,
  replay_of,
  payload,
  created_at::text AS position
FROM
  executions
WHERE
  tenant_id = $1
  AND id = $2
  AND created_at = $3;

-- ExecutionsRepository.findPayload
SELECT
  request,
  attempts
FROM
  execution_payloads
WHERE
  tenant_id = $1
  AND execution_id = $2
  AND created_at = $3;

-- ExecutionsRepository.stats
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

-- ExecutionsRepository.statsPerAction
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
