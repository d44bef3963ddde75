-- The statements each method of ConsoleSessionsRepository (src/console-auth/console-sessions.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- ConsoleSessionsRepository.insert
INSERT INTO
  "console_sessions" (
    "id",
    "secret_hash",
    "kind",
    "tenant_id",
    "admin_key_hash",
    "created_at",
    "expires_at"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7);

-- ConsoleSessionsRepository.findBySecretHash
SELECT
  s.id,
  s.secret_hash,
  s.kind,
  s.tenant_id,
  s.admin_key_hash,
  s.created_at,
  s.expires_at,
  t.status AS tenant_status,
  t.name AS tenant_name
FROM
  console_sessions s
  LEFT JOIN tenants t ON t.id = s.tenant_id
WHERE
  s.secret_hash = $1;

-- ConsoleSessionsRepository.findUsablePortalLink
SELECT
  p.tenant_id,
  t.name AS tenant_name,
  p.expires_at
FROM
  portal_links p
  JOIN tenants t ON t.id = p.tenant_id
WHERE
  p.token_hash = $1
  AND p.redeemed_at IS NULL
  AND p.expires_at > $2
  AND t.status = 'active';

-- ConsoleSessionsRepository.deleteById
DELETE FROM "console_sessions"
WHERE
  "id" = $1;

-- ConsoleSessionsRepository.deleteByTenant
DELETE FROM "console_sessions"
WHERE
  "tenant_id" = $1;

-- ConsoleSessionsRepository.insertPortalLink
INSERT INTO
  "portal_links" (
    "id",
    "token_hash",
    "tenant_id",
    "created_at",
    "expires_at",
    "redeemed_at"
  )
VALUES
  ($1, $2, $3, $4, $5, $6);

-- ConsoleSessionsRepository.redeemPortalLink
START TRANSACTION;
UPDATE portal_links p
SET
  redeemed_at = $2
FROM
  tenants t
WHERE
  t.id = p.tenant_id
  AND p.token_hash = $1
  AND p.redeemed_at IS NULL
  AND p.expires_at > $2
RETURNING
  p.tenant_id,
  t.status AS tenant_status;
COMMIT;

-- ConsoleSessionsRepository.deleteExpired
DELETE FROM "console_sessions"
WHERE
  "expires_at" < $1;
DELETE FROM "portal_links"
WHERE
  "expires_at" < $1;
