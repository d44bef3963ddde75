-- The statements each method of ActionsRepository (src/actions/actions.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- ActionsRepository.actionsOfTenant
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
                  tenant_id,
                  name,
                  description,
                  json_schema::text AS json_schema,
                  webhook_url,
                  created_at,
                  updated_at,
                  payload_logging
                FROM
                  actions
                WHERE
                  tenant_id = k.key
                ORDER BY
                  name
              ) r
          )
        )
      )
    FROM
      unnest($2::uuid[]) AS k (key)
  ) AS k0;

-- ActionsRepository.findByName
SELECT
  id,
  tenant_id,
  name,
  description,
  json_schema::text AS json_schema,
  webhook_url,
  created_at,
  updated_at,
  payload_logging
FROM
  actions
WHERE
  tenant_id = $1
  AND name = $2;

-- ActionsRepository.countByTenant
SELECT
  COUNT(1) AS "cnt"
FROM
  "actions" "Action"
WHERE
  (("Action"."tenant_id" = $1));

-- ActionsRepository.insertWithinLimit
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
  1 AS "row_exists"
FROM
  (
    SELECT
      1 AS dummy_column
  ) "dummy_table"
WHERE
  EXISTS (
    SELECT
      1
    FROM
      "actions" "Action"
    WHERE
      (
        ("Action"."tenant_id" = $1)
        AND ("Action"."name" = $2)
      )
  )
LIMIT
  1;
SELECT
  COUNT(1) AS "cnt"
FROM
  "actions" "Action"
WHERE
  (("Action"."tenant_id" = $1));
INSERT INTO
  actions (
    tenant_id,
    id,
    name,
    description,
    json_schema,
    webhook_url,
    created_at,
    updated_at,
    payload_logging
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9);
COMMIT;

-- ActionsRepository.setPayloadLogging
UPDATE actions
SET
  payload_logging = $3
WHERE
  tenant_id = $1
  AND name = $2
RETURNING
  id,
  tenant_id,
  name,
  description,
  json_schema::text AS json_schema,
  webhook_url,
  created_at,
  updated_at,
  payload_logging;

-- ActionsRepository.update
UPDATE actions
SET
  description = COALESCE($3, description),
  webhook_url = COALESCE($4, webhook_url),
  json_schema = COALESCE($5::json, json_schema),
  updated_at = $6
WHERE
  tenant_id = $1
  AND name = $2
RETURNING
  id,
  tenant_id,
  name,
  description,
  json_schema::text AS json_schema,
  webhook_url,
  created_at,
  updated_at,
  payload_logging;

-- ActionsRepository.delete
DELETE FROM "actions"
WHERE
  (
    "tenant_id" = $1
    AND "name" = $2
  );
