-- The statements each method of ExecutionWritesRepository (src/executions/execution-writes.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- ExecutionWritesRepository.insert
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

-- ExecutionWritesRepository.accept
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

-- ExecutionWritesRepository.markRunning
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

-- ExecutionWritesRepository.recordAttempts
UPDATE executions
SET
  attempts = $4,
  attempt_log = $5::jsonb
WHERE
  tenant_id = $1
  AND id = $2
  AND created_at = $3
  AND status IN ('pending', 'running');

-- ExecutionWritesRepository.finish
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
