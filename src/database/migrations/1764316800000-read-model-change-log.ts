import { MigrationInterface, QueryRunner } from 'typeorm';
import { ReadModelChanges1763870000000 } from './1763870000000-read-model-changes';

/**
 * The read model's change log: what replicas keep in memory (tenants' status, API tokens' standing, HMAC keys,
 * actions) is dropped by reading committed entries of `read_model_changes`, not notifications (docs/decisions.md,
 * "Reads from memory"). It replaces the one-row counter of 1763870000000, which every change rewrote: a bulk
 * import left millions of dead row versions in a one-row table that every read joined.
 *
 * - One entry per statement and table, written by statement-level triggers (transition tables): `keys` are the
 *   keys the memory is kept by (a tenant or token id). More than MAX_KEYS keys in one transaction and table, or a
 *   TRUNCATE, log one entry with no keys (forget that table) and nothing more for that table in that transaction.
 * - `position` comes from a sequence, taken under a transaction-scoped advisory lock held until commit, so
 *   positions follow commit order: an entry visible to a reader proves every smaller position either visible or
 *   never committed. `previous` is the position of the entry committed before it (the largest visible under
 *   the lock), so a reader tells an entry it missed (pruned before it read it: forget everything) from a number
 *   a rolled-back transaction took (nothing to miss).
 * - Entries are inserted, never updated, and pruned by age (ReadModel.prune), the newest always kept.
 *
 * For replicas of the previous release during a rolling deployment: `read_model_version` becomes a view of the
 * newest position, and each entry is also sent as the old `NOTIFY read_model` (one key, or none: forget
 * everything). Both go with the release after this one.
 */
export class ReadModelChangeLog1764316800000 implements MigrationInterface {
  name = 'ReadModelChangeLog1764316800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table] of TABLES) {
      for (const trigger of ['published', 'truncated_published', 'updated_published']) {
        await queryRunner.query(`DROP TRIGGER ${table}_${trigger} ON ${table}`);
      }
    }
    await queryRunner.query(`DROP FUNCTION publish_read_model_change()`);
    await queryRunner.query(`CREATE SEQUENCE read_model_change_positions`);
    await queryRunner.query(`
      CREATE TABLE read_model_changes (
        position bigint PRIMARY KEY,
        previous bigint NOT NULL,
        table_name text NOT NULL,
        keys text[],
        changed_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Continues the old counter's numbers, so a replica of the previous release sees no step backwards.
    await queryRunner.query(`SELECT setval('read_model_change_positions', (SELECT version + 1 FROM read_model_version), false)`);
    await queryRunner.query(
      `INSERT INTO read_model_changes (position, previous, table_name, keys) SELECT version, version - 1, 'tenants', '{}' FROM read_model_version`,
    );
    await queryRunner.query(`DROP TABLE read_model_version`);
    await queryRunner.query(`CREATE VIEW read_model_version AS SELECT coalesce(max(position), 0) AS version FROM read_model_changes`);
    // TG_ARGV[0]: the column the memory is keyed by; TG_ARGV[1] (updates): columns whose change is not logged.
    await queryRunner.query(`
      CREATE FUNCTION log_read_model_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        keys text[];
        logged_setting text := 'read_model.logged_' || TG_TABLE_NAME;
        logged integer := coalesce(nullif(current_setting(logged_setting, true), ''), '0')::integer;
        previous bigint;
        entry bigint;
      BEGIN
        IF logged < 0 THEN
          RETURN NULL; -- this transaction has logged "everything" for this table already
        END IF;
        IF TG_OP = 'INSERT' THEN
          EXECUTE format('SELECT array_agg(DISTINCT %I::text) FROM new_rows', TG_ARGV[0]) INTO keys;
        ELSIF TG_OP = 'DELETE' THEN
          EXECUTE format('SELECT array_agg(DISTINCT %I::text) FROM old_rows', TG_ARGV[0]) INTO keys;
        ELSIF TG_OP = 'UPDATE' THEN
          EXECUTE format(
            'SELECT array_agg(DISTINCT k) FROM new_rows n JOIN old_rows o USING (id) '
            'CROSS JOIN LATERAL unnest(ARRAY[n.%1$I::text, o.%1$I::text]) k '
            'WHERE (to_jsonb(o) - $1) IS DISTINCT FROM (to_jsonb(n) - $1)', TG_ARGV[0])
          USING coalesce(TG_ARGV[1], '{}')::text[] INTO keys;
        END IF;
        IF TG_OP = 'TRUNCATE' OR logged + coalesce(cardinality(keys), 0) > ${MAX_KEYS} THEN
          keys := NULL;
          PERFORM set_config(logged_setting, '-1', true);
        ELSIF keys IS NULL THEN
          RETURN NULL; -- no row, or no change the memory keeps
        ELSE
          PERFORM set_config(logged_setting, (logged + cardinality(keys))::text, true);
        END IF;
        PERFORM pg_advisory_xact_lock(${CHANGE_LOG_LOCK});
        SELECT coalesce(max(position), 0) INTO previous FROM read_model_changes;
        entry := nextval('read_model_change_positions');
        INSERT INTO read_model_changes (position, previous, table_name, keys) VALUES (entry, previous, TG_TABLE_NAME, keys);
        PERFORM pg_notify('read_model', json_build_object('version', entry, 'table', TG_TABLE_NAME,
          'key', CASE WHEN cardinality(keys) = 1 THEN keys[1] END)::text);
        RETURN NULL;
      END $$`);
    for (const [table, key, unlogged] of TABLES) {
      const run = `FOR EACH STATEMENT EXECUTE FUNCTION log_read_model_change('${key}', '${unlogged}')`;
      await queryRunner.query(`CREATE TRIGGER ${table}_inserts_logged AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows ${run}`);
      await queryRunner.query(`CREATE TRIGGER ${table}_updates_logged AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows ${run}`);
      await queryRunner.query(`CREATE TRIGGER ${table}_deletes_logged AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows ${run}`);
      await queryRunner.query(`CREATE TRIGGER ${table}_truncates_logged AFTER TRUNCATE ON ${table} ${run}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table] of TABLES) {
      for (const trigger of ['inserts_logged', 'updates_logged', 'deletes_logged', 'truncates_logged']) {
        await queryRunner.query(`DROP TRIGGER ${table}_${trigger} ON ${table}`);
      }
    }
    await queryRunner.query(`DROP FUNCTION log_read_model_change()`);
    await queryRunner.query(`DROP VIEW read_model_version`);
    // The counter, function and triggers as 1763870000000 made them, the counter where the log ended.
    await new ReadModelChanges1763870000000().up(queryRunner);
    await queryRunner.query(`UPDATE read_model_version SET version = (SELECT coalesce(max(position), 0) FROM read_model_changes)`);
    await queryRunner.query(`DROP TABLE read_model_changes`);
    await queryRunner.query(`DROP SEQUENCE read_model_change_positions`);
  }
}

/** More keys than this in one transaction and table are logged as one "forget the table" entry. */
const MAX_KEYS = 1000;
/** The advisory lock that orders the log's positions by commit (any constant; documented in docs/operations.md). */
const CHANGE_LOG_LOCK = 8_386_301;

/** Each table, the column its entries in memory are keyed by, and the columns whose updates are not logged. */
const TABLES = [
  // A tenant's name is not kept; a token's last use is written at every exchange and not kept either.
  ['tenants', 'id', '{name,updated_at}'],
  ['api_tokens', 'id', '{last_used_at}'],
  ['hmac_keys', 'tenant_id', '{}'],
  ['actions', 'tenant_id', '{}'],
] as const;
