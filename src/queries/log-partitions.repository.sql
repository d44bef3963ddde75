-- The statements each method of LogPartitionsRepository (src/executions/log-partitions.repository.ts) sends, in order.
-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich's @GenerateSql): do not edit.

-- LogPartitionsRepository.withConnection
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';

-- LogPartitionsRepository.ensure (days whose partitions stand)
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
BEGIN;
SELECT
  pg_advisory_xact_lock(1634170625);
SELECT
  p.relname AS table,
  c.relname AS name,
  pg_get_expr(c.relpartbound, c.oid) AS bound,
  i.inhdetachpending AS detach_pending
FROM
  pg_inherits i
  JOIN pg_class c ON c.oid = i.inhrelid
  JOIN pg_class p ON p.oid = i.inhparent
WHERE
  p.relname = ANY ($1)
  AND p.relnamespace = c.relnamespace
  AND p.relnamespace = current_schema()::regnamespace;
COMMIT;

-- LogPartitionsRepository.ensureOn (days whose partitions stand)
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
BEGIN;
SELECT
  pg_advisory_xact_lock(1634170625);
SELECT
  p.relname AS table,
  c.relname AS name,
  pg_get_expr(c.relpartbound, c.oid) AS bound,
  i.inhdetachpending AS detach_pending
FROM
  pg_inherits i
  JOIN pg_class c ON c.oid = i.inhrelid
  JOIN pg_class p ON p.oid = i.inhparent
WHERE
  p.relname = ANY ($1)
  AND p.relnamespace = c.relnamespace
  AND p.relnamespace = current_schema()::regnamespace;
COMMIT;

-- LogPartitionsRepository.list
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
SELECT
  p.relname AS table,
  c.relname AS name,
  pg_get_expr(c.relpartbound, c.oid) AS bound,
  i.inhdetachpending AS detach_pending
FROM
  pg_inherits i
  JOIN pg_class c ON c.oid = i.inhrelid
  JOIN pg_class p ON p.oid = i.inhparent
WHERE
  p.relname = ANY ($1)
  AND p.relnamespace = c.relnamespace
  AND p.relnamespace = current_schema()::regnamespace;

-- LogPartitionsRepository.dropBefore (nothing past retention)
SET
  lock_timeout = '1s';
SET
  TimeZone = 'UTC';
SELECT
  p.relname AS table,
  c.relname AS name,
  pg_get_expr(c.relpartbound, c.oid) AS bound,
  i.inhdetachpending AS detach_pending
FROM
  pg_inherits i
  JOIN pg_class c ON c.oid = i.inhrelid
  JOIN pg_class p ON p.oid = i.inhparent
WHERE
  p.relname = ANY ($1)
  AND p.relnamespace = c.relnamespace
  AND p.relnamespace = current_schema()::regnamespace;
SELECT
  c.relname AS name
FROM
  pg_class c
WHERE
  c.relkind = 'r'
  AND c.relname LIKE $1
  AND c.relnamespace = current_schema()::regnamespace
  AND NOT EXISTS (
    SELECT
      1
    FROM
      pg_inherits i
    WHERE
      i.inhrelid = c.oid
  );
