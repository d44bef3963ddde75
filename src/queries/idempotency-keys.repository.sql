-- The statements each method of IdempotencyKeysRepository (src/executions/idempotency-keys.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- IdempotencyKeysRepository.claim
INSERT INTO
  idempotency_keys (
    tenant_id,
    idempotency_key,
    fingerprint,
    execution_id,
    execution_created_at,
    respond_async,
    created_at,
    leased_until
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT (tenant_id, idempotency_key) DO UPDATE
SET
  fingerprint = EXCLUDED.fingerprint,
  execution_id = EXCLUDED.execution_id,
  execution_created_at = EXCLUDED.execution_created_at,
  respond_async = EXCLUDED.respond_async,
  created_at = EXCLUDED.created_at,
  leased_until = EXCLUDED.leased_until
WHERE
  idempotency_keys.created_at < $9
RETURNING
  execution_id;

-- IdempotencyKeysRepository.find
SELECT
  fingerprint,
  execution_id,
  execution_created_at,
  respond_async,
  leased_until
FROM
  idempotency_keys
WHERE
  tenant_id = $1
  AND idempotency_key = $2;

-- IdempotencyKeysRepository.takeOver
UPDATE idempotency_keys
SET
  leased_until = $4,
  respond_async = $5
WHERE
  tenant_id = $1
  AND idempotency_key = $2
  AND leased_until <= $3
RETURNING
  execution_id;

-- IdempotencyKeysRepository.release
DELETE FROM idempotency_keys
WHERE
  tenant_id = $1
  AND idempotency_key = $2
  AND execution_id = $3;

-- IdempotencyKeysRepository.keyOf
SELECT
  idempotency_key
FROM
  idempotency_keys
WHERE
  tenant_id = $1
  AND execution_id = $2;
