-- The statements each method of TenantsRepository (src/tenancy/tenants.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- TenantsRepository.status
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
                  status
                FROM
                  tenants
                WHERE
                  id = k.key
              ) r
          )
        )
      )
    FROM
      unnest($2::uuid[]) AS k (key)
  ) AS k0;

-- TenantsRepository.findById
SELECT
  "Tenant"."id" AS "Tenant_id",
  "Tenant"."name" AS "Tenant_name",
  "Tenant"."status" AS "Tenant_status",
  "Tenant"."created_at" AS "Tenant_created_at",
  "Tenant"."updated_at" AS "Tenant_updated_at"
FROM
  "tenants" "Tenant"
WHERE
  (("Tenant"."id" = $1))
LIMIT
  1;

-- TenantsRepository.listPage (first page)
SELECT
  id,
  name,
  status,
  created_at,
  updated_at,
  created_at::text AS position
FROM
  tenants
ORDER BY
  created_at DESC,
  id DESC
LIMIT
  $1;

-- TenantsRepository.listPage (next page)
SELECT
  id,
  name,
  status,
  created_at,
  updated_at,
  created_at::text AS position
FROM
  tenants
WHERE
  (created_at, id) < ($1::timestamptz, $2::uuid)
ORDER BY
  created_at DESC,
  id DESC
LIMIT
  $3;

-- TenantsRepository.insert
INSERT INTO
  "tenants" (
    "id",
    "name",
    "status",
    "created_at",
    "updated_at"
  )
VALUES
  ($1, $2, $3, $4, $5);

-- TenantsRepository.update
UPDATE "tenants"
SET
  "name" = $1,
  "status" = $2,
  "updated_at" = $3
WHERE
  "id" = $4
  AND (
    "name" IS DISTINCT FROM $5
    OR "status" IS DISTINCT FROM $6
  );
SELECT
  "Tenant"."id" AS "Tenant_id",
  "Tenant"."name" AS "Tenant_name",
  "Tenant"."status" AS "Tenant_status",
  "Tenant"."created_at" AS "Tenant_created_at",
  "Tenant"."updated_at" AS "Tenant_updated_at"
FROM
  "tenants" "Tenant"
WHERE
  (("Tenant"."id" = $1))
LIMIT
  1;
