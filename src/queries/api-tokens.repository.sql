-- The statements each method of ApiTokensRepository (src/auth/api-tokens.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- ApiTokensRepository.insertWithinLimit
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
  COUNT(1) AS "cnt"
FROM
  "api_tokens" "ApiToken"
WHERE
  (
    (
      (
        ("ApiToken"."tenant_id" = $1)
        AND ("ApiToken"."revoked_at" IS NULL)
        AND ("ApiToken"."expires_at" IS NULL)
      )
    )
    OR (
      (
        ("ApiToken"."tenant_id" = $2)
        AND ("ApiToken"."revoked_at" IS NULL)
        AND ("ApiToken"."expires_at" > $3)
      )
    )
  );
INSERT INTO
  "api_tokens" (
    "id",
    "tenant_id",
    "name",
    "prefix",
    "token_hash",
    "created_at",
    "expires_at",
    "last_used_at",
    "revoked_at"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9);
DELETE FROM api_tokens
WHERE
  tenant_id = $1
  AND id IN (
    SELECT
      id
    FROM
      api_tokens
    WHERE
      tenant_id = $1
      AND (
        revoked_at IS NOT NULL
        OR expires_at <= $2
      )
    ORDER BY
      created_at DESC,
      id DESC
    OFFSET
      $3
  );
COMMIT;

-- ApiTokensRepository.listPage (first page)
SELECT
  id,
  tenant_id,
  name,
  prefix,
  token_hash,
  created_at,
  expires_at,
  last_used_at,
  revoked_at,
  created_at::text AS position
FROM
  api_tokens
WHERE
  tenant_id = $1
ORDER BY
  created_at DESC,
  id DESC
LIMIT
  $2;

-- ApiTokensRepository.listPage (next page)
SELECT
  id,
  tenant_id,
  name,
  prefix,
  token_hash,
  created_at,
  expires_at,
  last_used_at,
  revoked_at,
  created_at::text AS position
FROM
  api_tokens
WHERE
  tenant_id = $1
  AND (created_at, id) < ($2::timestamptz, $3::uuid)
ORDER BY
  created_at DESC,
  id DESC
LIMIT
  $4;

-- ApiTokensRepository.findByTenantAndId
SELECT
  "ApiToken"."id" AS "ApiToken_id",
  "ApiToken"."tenant_id" AS "ApiToken_tenant_id",
  "ApiToken"."name" AS "ApiToken_name",
  "ApiToken"."prefix" AS "ApiToken_prefix",
  "ApiToken"."token_hash" AS "ApiToken_token_hash",
  "ApiToken"."created_at" AS "ApiToken_created_at",
  "ApiToken"."expires_at" AS "ApiToken_expires_at",
  "ApiToken"."last_used_at" AS "ApiToken_last_used_at",
  "ApiToken"."revoked_at" AS "ApiToken_revoked_at"
FROM
  "api_tokens" "ApiToken"
WHERE
  (
    ("ApiToken"."tenant_id" = $1)
    AND ("ApiToken"."id" = $2)
  )
LIMIT
  1;

-- ApiTokensRepository.revoke
UPDATE "api_tokens"
SET
  "revoked_at" = $1
WHERE
  (
    "tenant_id" = $2
    AND "id" = $3
    AND "revoked_at" IS NULL
  );

-- ApiTokensRepository.standing
SELECT
  (
    SELECT
      coalesce(max(position), 0)
    FROM
      read_model_changes
  ) AS latest,
  (
    SELECT
      json_agg(c)
    FROM
      (
        SELECT
          position,
          previous,
          table_name,
          keys
        FROM
          read_model_changes
        WHERE
          position > $1
        ORDER BY
          position
        LIMIT
          100
      ) c
  ) AS changes,
  (
    SELECT
      json_agg(
        json_build_array(
          k.key,
          (
            SELECT
              json_agg(r)
            FROM
              (
                SELECT
                  tenant_id,
                  expires_at,
                  revoked_at
                FROM
                  api_tokens
                WHERE
                  id = k.key
              ) r
          )
        )
      )
    FROM
      unnest($2::uuid[]) AS k (key)
  ) AS k0;

-- ApiTokensRepository.findByHashWithTenantStatus
SELECT
  t.id,
  t.tenant_id,
  t.name,
  t.prefix,
  t.token_hash,
  t.created_at,
  t.expires_at,
  t.last_used_at,
  t.revoked_at,
  tenant.status AS tenant_status
FROM
  api_tokens t
  JOIN tenants tenant ON tenant.id = t.tenant_id
WHERE
  t.token_hash = $1;

-- ApiTokensRepository.deleteDeadBefore
DELETE FROM "api_tokens"
WHERE
  (
    "revoked_at" < $1
    OR (
      "revoked_at" IS NULL
      AND "expires_at" < $2
    )
  );

-- ApiTokensRepository.touchLastUsed
UPDATE "api_tokens"
SET
  "last_used_at" = $1
WHERE
  "id" = $2;
