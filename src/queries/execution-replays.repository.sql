-- The statements each method of ExecutionReplaysRepository (src/executions/execution-replays.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- ExecutionReplaysRepository.insert
INSERT INTO
  execution_replays (
    tenant_id,
    id,
    action_id,
    action_name,
    since,
    until,
    status,
    total,
    created_at,
    updated_at
  )
VALUES
  ($1, $2, $3, $4, $5, $6, 'running', $7, $8, $8);

-- ExecutionReplaysRepository.find
SELECT
  id,
  tenant_id,
  action_id,
  action_name,
  since,
  until,
  status,
  stopped_reason,
  total,
  done,
  succeeded,
  failed,
  skipped,
  created_at,
  updated_at,
  finished_at
FROM
  execution_replays
WHERE
  tenant_id = $1
  AND id = $2;

-- ExecutionReplaysRepository.running
SELECT
  id,
  tenant_id,
  action_id,
  action_name,
  since,
  until,
  status,
  stopped_reason,
  total,
  done,
  succeeded,
  failed,
  skipped,
  created_at,
  updated_at,
  finished_at
FROM
  execution_replays
WHERE
  tenant_id = $1
  AND status = 'running'
  AND updated_at >= $2
ORDER BY
  created_at DESC
LIMIT
  1;

-- ExecutionReplaysRepository.saveProgress
UPDATE execution_replays
SET
  status = $3,
  stopped_reason = $4,
  done = $5,
  succeeded = $6,
  failed = $7,
  skipped = $8,
  updated_at = $9,
  finished_at = $10
WHERE
  tenant_id = $1
  AND id = $2;

-- ExecutionReplaysRepository.countFailed
SELECT
  count(*)::int AS count
FROM
  (
    SELECT
      1
    FROM
      executions e
    WHERE
      e.tenant_id = $1
      AND e.action_id = $2
      AND e.status = 'failed'
      AND e.replay_of IS NULL
      AND e.created_at >= $3
      AND e.created_at < $4
      AND NOT EXISTS (
        SELECT
          1
        FROM
          executions r
        WHERE
          r.tenant_id = $1
          AND r.replay_of = e.id
          AND r.status = 'succeeded'
          AND r.created_at >= e.created_at
      )
    LIMIT
      $5
  ) AS failed;

-- ExecutionReplaysRepository.nextFailed
SELECT
  e.id,
  e.created_at::text AS position
FROM
  executions e
WHERE
  e.tenant_id = $1
  AND e.action_id = $2
  AND e.status = 'failed'
  AND e.replay_of IS NULL
  AND e.created_at >= $3
  AND e.created_at < $4
  AND NOT EXISTS (
    SELECT
      1
    FROM
      executions r
    WHERE
      r.tenant_id = $1
      AND r.replay_of = e.id
      AND r.status = 'succeeded'
      AND r.created_at >= e.created_at
  )
  AND (e.created_at, e.id) > ($5::timestamptz, $6::uuid)
ORDER BY
  e.created_at,
  e.id
LIMIT
  $7;
