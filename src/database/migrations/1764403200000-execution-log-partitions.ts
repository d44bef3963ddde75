import { MigrationInterface, QueryRunner } from 'typeorm';

/** The indexes every partition of `executions` has: each list, filter and lookup of the log reads through one. */
const EXECUTION_INDEXES: ReadonlyArray<readonly [name: string, columns: string]> = [
  ['executions_action_created_id_idx', 'action_id, created_at DESC, id DESC'],
  ['executions_action_status_created_id_idx', 'action_id, status, created_at DESC, id DESC'],
  ['executions_tenant_created_id_idx', 'tenant_id, created_at DESC, id DESC'],
  ['executions_tenant_status_created_id_idx', 'tenant_id, status, created_at DESC, id DESC'],
];

/**
 * The delivery log becomes a table partitioned by day on `created_at` (PostgreSQL's declarative partitioning),
 * so retention drops whole partitions instead of deleting rows; beside it, the payloads (own retention) and the
 * hourly and daily rollups the statistics read. docs/operations.md ("Moving the delivery log to partitions").
 *
 * The existing table becomes the first partition without downtime: it is ATTACHed for the range up to the end of
 * tomorrow (UTC), which a CHECK constraint proves beforehand, so the attach need not scan it. Each step that reads
 * the whole table runs on its own, under a lock that lets reads and writes go on: the CHECK is added NOT VALID
 * (a moment's lock) and VALIDATEd (SHARE UPDATE EXCLUSIVE), the new indexes are built CONCURRENTLY, and only the
 * final swap (rename, new parent, attach) takes an exclusive lock, for as long as catalog changes take. Hence no
 * transaction around the whole migration (`transaction = false`): each statement commits on its own, and every
 * step can run again, so a migration stopped half-way is finished by the next start.
 *
 * Foreign keys go: an action's or a tenant's history is no longer deleted inside the request that deletes it
 * (1.5M rows held such a request 2.2 s), but by the log's maintenance afterwards (ExecutionLogMaintenance).
 */
export class ExecutionLogPartitions1764403200000 implements MigrationInterface {
  name = 'ExecutionLogPartitions1764403200000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    const query = (sql: string, parameters?: unknown[]) => queryRunner.query(sql, parameters);
    // Building indexes and validating over a large table may take minutes; nothing waits on them.
    await query(`SET statement_timeout = 0`);
    try {
      await query(`ALTER TABLE actions ADD COLUMN IF NOT EXISTS payload_logging boolean NOT NULL DEFAULT true`);
      const [{ kind }] = (await query(`SELECT relkind AS kind FROM pg_class WHERE oid = 'executions'::regclass`)) as Array<{ kind: string }>;
      if (kind !== 'p') await this.partitionExistingTable(query);
      await this.createSideTables(query);
      await this.createFirstPartitions(query);
    } finally {
      await query(`RESET statement_timeout`);
    }
  }

  private async partitionExistingTable(query: (sql: string, parameters?: unknown[]) => Promise<unknown>): Promise<void> {
    await query(`
      ALTER TABLE executions
        ADD COLUMN IF NOT EXISTS replay_of uuid,
        ADD COLUMN IF NOT EXISTS payload varchar(8) NOT NULL DEFAULT 'none',
        DROP CONSTRAINT IF EXISTS executions_tenant_id_fkey,
        DROP CONSTRAINT IF EXISTS executions_action_id_fkey`);
    // Every CHECK of the parent must be on the partition, by name and validated: added NOT VALID here, proved below.
    await query(`
      DO $$ BEGIN
        ALTER TABLE executions ADD CONSTRAINT executions_payload_check CHECK (payload IN ('none', 'kept', 'off')) NOT VALID;
      EXCEPTION WHEN duplicate_object THEN NULL;
      END $$`);
    // The first partition's upper bound: the end of tomorrow (UTC), fixed once (a re-run reads it back), leaving
    // at least a day for the steps below while rows keep arriving under the CHECK.
    const existing = (await query(
      `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = 'executions'::regclass AND conname = 'executions_legacy_range'`,
    )) as Array<{ definition: string }>;
    if (existing.length === 0) {
      await query(`
        DO $$ BEGIN
          EXECUTE format('ALTER TABLE executions ADD CONSTRAINT executions_legacy_range CHECK (created_at < %L) NOT VALID',
            date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '2 days');
        END $$`);
    }
    await query(`ALTER TABLE executions VALIDATE CONSTRAINT executions_legacy_range`);
    await query(`ALTER TABLE executions VALIDATE CONSTRAINT executions_payload_check`);
    const [{ bound }] = (await query(
      `SELECT (regexp_match(pg_get_constraintdef(oid), '''([^'']+)'''))[1]::timestamptz AS bound
       FROM pg_constraint WHERE conrelid = 'executions'::regclass AND conname = 'executions_legacy_range'`,
    )) as Array<{ bound: Date }>;

    // Indexes a stopped CREATE INDEX CONCURRENTLY left invalid are built again.
    const invalid = (await query(
      `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'executions'::regclass AND NOT i.indisvalid`,
    )) as Array<{ name: string }>;
    for (const { name } of invalid) await query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
    await query(`CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS executions_legacy_id_created_key ON executions (id, created_at)`);
    for (const [name, columns] of EXECUTION_INDEXES) {
      await query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name.replace('executions_', 'executions_legacy_')} ON executions (${columns})`);
    }

    // The swap: catalog changes only, under one short exclusive lock. The parent lists the columns in the order
    // the old table has them (added columns last), so rows need no conversion on their way in.
    await query(`BEGIN`);
    try {
      await query(`SET LOCAL lock_timeout = '10s'`);
      await query(`ALTER TABLE executions DROP CONSTRAINT executions_pkey`);
      await query(`ALTER TABLE executions ADD CONSTRAINT executions_legacy_pkey PRIMARY KEY USING INDEX executions_legacy_id_created_key`);
      await query(`DROP INDEX IF EXISTS executions_action_created_idx`);
      await query(`DROP INDEX IF EXISTS executions_created_idx`);
      await query(`ALTER TABLE executions RENAME TO executions_legacy`);
      await query(`
        CREATE TABLE executions (
          id uuid NOT NULL,
          tenant_id uuid NOT NULL,
          action_id uuid NOT NULL,
          action_name varchar(100) NOT NULL,
          status varchar(16) NOT NULL CONSTRAINT executions_status_check CHECK (status IN ('succeeded', 'failed')),
          http_status integer,
          result text,
          error text NOT NULL,
          duration_ms integer NOT NULL,
          attempts integer NOT NULL,
          attempt_log jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          replay_of uuid,
          payload varchar(8) NOT NULL DEFAULT 'none' CONSTRAINT executions_payload_check CHECK (payload IN ('none', 'kept', 'off')),
          CONSTRAINT executions_pkey PRIMARY KEY (id, created_at)
        ) PARTITION BY RANGE (created_at)`);
      for (const [name, columns] of EXECUTION_INDEXES) await query(`CREATE INDEX ${name} ON executions (${columns})`);
      await query(`ALTER TABLE executions ATTACH PARTITION executions_legacy FOR VALUES FROM (MINVALUE) TO ('${bound.toISOString()}')`);
      await query(`COMMIT`);
    } catch (error) {
      await query(`ROLLBACK`);
      throw error;
    }
  }

  /**
   * The payloads (what was sent, what came back), in a table of their own with their own retention, and the
   * rollups the statistics read: per action and per hour, and per day. Each is partitioned by day like the log;
   * the maintenance creates partitions ahead and drops old ones (the first ones it creates at start).
   */
  private async createSideTables(query: (sql: string) => Promise<unknown>): Promise<void> {
    await query(`
      CREATE TABLE IF NOT EXISTS execution_payloads (
        execution_id uuid NOT NULL,
        tenant_id uuid NOT NULL,
        created_at timestamptz NOT NULL,
        request json NOT NULL,
        attempts json NOT NULL,
        CONSTRAINT execution_payloads_pkey PRIMARY KEY (execution_id, created_at)
      ) PARTITION BY RANGE (created_at)`);
    // One row per action and period; `action_id` all zeros holds the tenant's total. The histogram counts
    // durations per bucket (src/executions/duration-histogram.ts), from which p50 and p95 are read.
    for (const table of ['execution_stats_hourly', 'execution_stats_daily']) {
      await query(`
        CREATE TABLE IF NOT EXISTS ${table} (
          tenant_id uuid NOT NULL,
          action_id uuid NOT NULL,
          period_start timestamptz NOT NULL,
          executions integer NOT NULL,
          succeeded integer NOT NULL,
          failed integer NOT NULL,
          duration_histogram integer[] NOT NULL,
          CONSTRAINT ${table}_pkey PRIMARY KEY (tenant_id, action_id, period_start)
        ) PARTITION BY RANGE (period_start)`);
    }
    // An action deleted (by the API, the admin backend, a tenant's deletion or SQL) leaves its history to be
    // purged by the maintenance, in batches, instead of inside the statement that deleted it.
    await query(`
      CREATE TABLE IF NOT EXISTS execution_log_purges (
        action_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        deleted_at timestamptz NOT NULL
      )`);
    await query(`
      CREATE OR REPLACE FUNCTION queue_execution_log_purge() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO execution_log_purges (action_id, tenant_id, deleted_at) VALUES (OLD.id, OLD.tenant_id, now())
        ON CONFLICT (action_id) DO UPDATE SET deleted_at = EXCLUDED.deleted_at;
        RETURN NULL;
      END $$`);
    await query(`DROP TRIGGER IF EXISTS actions_deleted_purge_log ON actions`);
    await query(`CREATE TRIGGER actions_deleted_purge_log AFTER DELETE ON actions FOR EACH ROW EXECUTE FUNCTION queue_execution_log_purge()`);
    // When the maintenance last ran its hourly work, whichever replica ran it.
    await query(`
      CREATE TABLE IF NOT EXISTS execution_log_maintenance (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        last_run_at timestamptz NOT NULL
      )`);
    // Adds two histograms bucket by bucket (a rollup row and a batch's counts).
    await query(`
      CREATE OR REPLACE FUNCTION execution_histogram_add(a integer[], b integer[]) RETURNS integer[]
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT array_agg(COALESCE(x, 0) + COALESCE(y, 0) ORDER BY n) FROM unnest(a, b) WITH ORDINALITY AS t(x, y, n)
      $$`);
    await query(`DROP AGGREGATE IF EXISTS execution_histogram_sum(integer[])`);
    await query(`CREATE AGGREGATE execution_histogram_sum(integer[]) (SFUNC = execution_histogram_add, STYPE = integer[])`);
  }

  /**
   * Each table's partitions for yesterday to a week ahead (UTC), as the upkeep names them
   * (src/executions/log-partitions.ts), where no partition covers the day yet: the service writes before its
   * upkeep first runs.
   */
  private async createFirstPartitions(query: (sql: string) => Promise<unknown>): Promise<void> {
    for (const table of ['executions', 'execution_payloads', 'execution_stats_hourly', 'execution_stats_daily']) {
      await query(`
        DO $$
        DECLARE
          day timestamptz;
          name text;
        BEGIN
          FOR offset_days IN -1..7 LOOP
            day := date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + offset_days * interval '1 day';
            name := '${table}_p' || to_char(day AT TIME ZONE 'UTC', 'YYYYMMDD');
            CONTINUE WHEN EXISTS (
              SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              WHERE i.inhparent = '${table}'::regclass AND (
                c.relname = name OR pg_get_expr(c.relpartbound, c.oid) LIKE 'FOR VALUES FROM (MINVALUE)%'
                  AND day < (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz));
            EXECUTE format('CREATE TABLE %I (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name);
            EXECUTE format('ALTER TABLE ${table} ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, day, day + interval '1 day');
          END LOOP;
        END $$`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Back to one plain table holding every row still kept.
    await queryRunner.query(`DROP TRIGGER IF EXISTS actions_deleted_purge_log ON actions`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS queue_execution_log_purge()`);
    await queryRunner.query(`DROP TABLE IF EXISTS execution_stats_daily, execution_stats_hourly, execution_payloads, execution_log_purges, execution_log_maintenance`);
    await queryRunner.query(`DROP AGGREGATE IF EXISTS execution_histogram_sum(integer[])`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS execution_histogram_add(integer[], integer[])`);
    await queryRunner.query(`ALTER TABLE executions RENAME TO executions_partitioned`);
    await queryRunner.query(`
      CREATE TABLE executions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        action_id uuid NOT NULL,
        action_name varchar(100) NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('succeeded', 'failed')),
        http_status integer,
        result text,
        error text NOT NULL,
        duration_ms integer NOT NULL,
        attempts integer NOT NULL,
        attempt_log jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      INSERT INTO executions SELECT id, tenant_id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, created_at
      FROM executions_partitioned e WHERE EXISTS (SELECT 1 FROM actions a WHERE a.id = e.action_id)`);
    await queryRunner.query(`DROP TABLE executions_partitioned`);
    await queryRunner.query(`ALTER TABLE executions ADD FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE`);
    await queryRunner.query(`ALTER TABLE executions ADD FOREIGN KEY (action_id) REFERENCES actions (id) ON DELETE CASCADE`);
    await queryRunner.query(`CREATE INDEX executions_action_created_idx ON executions (action_id, created_at DESC)`);
    await queryRunner.query(`CREATE INDEX executions_created_idx ON executions (created_at)`);
    await queryRunner.query(`ALTER TABLE actions DROP COLUMN payload_logging`);
  }
}
