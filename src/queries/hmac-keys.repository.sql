-- The statements each method of HmacKeysRepository (src/webhooks/hmac-keys.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- HmacKeysRepository.activeKeys
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
                  id,
                  key_ciphertext
                FROM
                  hmac_keys
                WHERE
                  tenant_id = k.key
                  AND revoked_at IS NULL
                ORDER BY
                  created_at DESC,
                  id DESC
              ) r
          )
        )
      )
    FROM
      unnest($2::uuid[]) AS k (key)
  ) AS k0;

-- HmacKeysRepository.insertWithinLimit
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
  "hmac_keys" "HmacKey"
WHERE
  (
    ("HmacKey"."tenant_id" = $1)
    AND ("HmacKey"."revoked_at" IS NULL)
  );
INSERT INTO
  "hmac_keys" (
    "id",
    "tenant_id",
    "key_ciphertext",
    "created_at",
    "revoked_at"
  )
VALUES
  ($1, $2, $3, $4, $5);
DELETE FROM hmac_keys
WHERE
  tenant_id = $1
  AND id IN (
    SELECT
      id
    FROM
      hmac_keys
    WHERE
      tenant_id = $1
      AND revoked_at IS NOT NULL
    ORDER BY
      created_at DESC,
      id DESC
    OFFSET
      $2
  );
COMMIT;

-- HmacKeysRepository.listPage (first page)
SELECT
  id,
  tenant_id,
  key_ciphertext,
  created_at,
  revoked_at,
  created_at::text AS position
FROM
  hmac_keys
WHERE
  tenant_id = $1
ORDER BY
  created_at DESC,
  id DESC
LIMIT
  $2;

-- HmacKeysRepository.listPage (next page)
SELECT
  id,
  tenant_id,
  key_ciphertext,
  created_at,
  revoked_at,
  created_at::text AS position
FROM
  hmac_keys
WHERE
  tenant_id = $1
  AND (created_at, id) < ($2::timestamptz, $3::uuid)
ORDER BY
  created_at DESC,
  id DESC
LIMIT
  $4;

-- HmacKeysRepository.listActive
SELECT
  "HmacKey"."id" AS "HmacKey_id",
  "HmacKey"."tenant_id" AS "HmacKey_tenant_id",
  "HmacKey"."key_ciphertext" AS "HmacKey_key_ciphertext",
  "HmacKey"."created_at" AS "HmacKey_created_at",
  "HmacKey"."revoked_at" AS "HmacKey_revoked_at"
FROM
  "hmac_keys" "HmacKey"
WHERE
  (
    ("HmacKey"."tenant_id" = $1)
    AND ("HmacKey"."revoked_at" IS NULL)
  )
ORDER BY
  "HmacKey"."created_at" DESC,
  "HmacKey"."id" DESC;

-- HmacKeysRepository.findByTenantAndId
SELECT
  "HmacKey"."id" AS "HmacKey_id",
  "HmacKey"."tenant_id" AS "HmacKey_tenant_id",
  "HmacKey"."key_ciphertext" AS "HmacKey_key_ciphertext",
  "HmacKey"."created_at" AS "HmacKey_created_at",
  "HmacKey"."revoked_at" AS "HmacKey_revoked_at"
FROM
  "hmac_keys" "HmacKey"
WHERE
  (
    ("HmacKey"."tenant_id" = $1)
    AND ("HmacKey"."id" = $2)
  )
LIMIT
  1;

-- HmacKeysRepository.deleteRevokedBefore
DELETE FROM "hmac_keys"
WHERE
  "revoked_at" < $1;

-- HmacKeysRepository.revoke
UPDATE "hmac_keys"
SET
  "revoked_at" = $1
WHERE
  (
    "tenant_id" = $2
    AND "id" = $3
    AND "revoked_at" IS NULL
  );
