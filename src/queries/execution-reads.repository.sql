-- The statements each method of ExecutionReadsRepository (src/executions/execution-reads.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- ExecutionReadsRepository.list (one action)
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

-- ExecutionReadsRepository.list (every filter, after a position)
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

-- ExecutionReadsRepository.find (of an action)
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

-- ExecutionReadsRepository.find (of the tenant)
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

-- ExecutionReadsRepository.find (a UUID v7, near its time, then everywhere)
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

-- ExecutionReadsRepository.findAt
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

-- ExecutionReadsRepository.findPayload
SELECT
  request,
  attempts
FROM
  execution_payloads
WHERE
  tenant_id = $1
  AND execution_id = $2
  AND created_at = $3;
