-- The statements each method of ExecutionsRepository (src/executions/executions.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- ExecutionsRepository.insert
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
    created_at
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12);

-- ExecutionsRepository.listByAction (every status)
SELECT
  "Execution"."id" AS "Execution_id",
  "Execution"."tenant_id" AS "Execution_tenant_id",
  "Execution"."action_id" AS "Execution_action_id",
  "Execution"."action_name" AS "Execution_action_name",
  "Execution"."status" AS "Execution_status",
  "Execution"."http_status" AS "Execution_http_status",
  "Execution"."result" AS "Execution_result",
  "Execution"."error" AS "Execution_error",
  "Execution"."duration_ms" AS "Execution_duration_ms",
  "Execution"."attempts" AS "Execution_attempts",
  "Execution"."attempt_log" AS "Execution_attempt_log",
  "Execution"."created_at" AS "Execution_created_at"
FROM
  "executions" "Execution"
WHERE
  (
    ("Execution"."tenant_id" = $1)
    AND ("Execution"."action_id" = $2)
  )
ORDER BY
  "Execution"."created_at" DESC,
  "Execution"."id" DESC
LIMIT
  100;

-- ExecutionsRepository.listByAction (one status)
SELECT
  "Execution"."id" AS "Execution_id",
  "Execution"."tenant_id" AS "Execution_tenant_id",
  "Execution"."action_id" AS "Execution_action_id",
  "Execution"."action_name" AS "Execution_action_name",
  "Execution"."status" AS "Execution_status",
  "Execution"."http_status" AS "Execution_http_status",
  "Execution"."result" AS "Execution_result",
  "Execution"."error" AS "Execution_error",
  "Execution"."duration_ms" AS "Execution_duration_ms",
  "Execution"."attempts" AS "Execution_attempts",
  "Execution"."attempt_log" AS "Execution_attempt_log",
  "Execution"."created_at" AS "Execution_created_at"
FROM
  "executions" "Execution"
WHERE
  (
    ("Execution"."tenant_id" = $1)
    AND ("Execution"."action_id" = $2)
    AND ("Execution"."status" = $3)
  )
ORDER BY
  "Execution"."created_at" DESC,
  "Execution"."id" DESC
LIMIT
  100;

-- ExecutionsRepository.findByActionAndId
SELECT
  "Execution"."id" AS "Execution_id",
  "Execution"."tenant_id" AS "Execution_tenant_id",
  "Execution"."action_id" AS "Execution_action_id",
  "Execution"."action_name" AS "Execution_action_name",
  "Execution"."status" AS "Execution_status",
  "Execution"."http_status" AS "Execution_http_status",
  "Execution"."result" AS "Execution_result",
  "Execution"."error" AS "Execution_error",
  "Execution"."duration_ms" AS "Execution_duration_ms",
  "Execution"."attempts" AS "Execution_attempts",
  "Execution"."attempt_log" AS "Execution_attempt_log",
  "Execution"."created_at" AS "Execution_created_at"
FROM
  "executions" "Execution"
WHERE
  (
    ("Execution"."tenant_id" = $1)
    AND ("Execution"."action_id" = $2)
    AND ("Execution"."id" = $3)
  )
LIMIT
  1;

-- ExecutionsRepository.deleteOlderThan
DELETE FROM "executions"
WHERE
  "created_at" < $1;
