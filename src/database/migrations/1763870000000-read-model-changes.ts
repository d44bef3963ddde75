import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every change to what replicas keep in memory (tenants' status, API tokens' standing, HMAC keys, actions)
 * is numbered and announced by the transaction that makes it, whoever makes it (the service, the admin
 * backend, psql):
 * - `read_model_version` holds one counter. A trigger raises it in the writing transaction, which holds the
 *   row's lock until it commits, so numbers follow commit order without gaps; a request compares it with the
 *   number its replica has applied (`ReadModel`, src/database/read-model.ts).
 * - The same trigger sends `NOTIFY read_model` with `{"version", "table", "key"}`; PostgreSQL delivers
 *   notifications at commit, in commit order. `key` is what the memory is keyed by (a tenant id, or a token
 *   id); a TRUNCATE sends no key: forget everything.
 * A transaction takes the counter's lock at its first such change and keeps it until it ends: take other
 * locks (a tenant row) before writing these tables, not after, so two transactions never wait for each other.
 */
export class ReadModelChanges1763870000000 implements MigrationInterface {
  name = 'ReadModelChanges1763870000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE read_model_version (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        version bigint NOT NULL
      )`);
    await queryRunner.query(`INSERT INTO read_model_version (version) VALUES (0)`);
    // TG_ARGV[0]: the column that keys the memory. An UPDATE that moves a row to another key announces both.
    await queryRunner.query(`
      CREATE FUNCTION publish_read_model_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        keys text[];
        changed text;
        published bigint;
      BEGIN
        IF TG_LEVEL = 'STATEMENT' THEN
          keys := ARRAY[NULL::text];
        ELSIF TG_OP = 'INSERT' THEN
          keys := ARRAY[to_jsonb(NEW) ->> TG_ARGV[0]];
        ELSIF TG_OP = 'DELETE' THEN
          keys := ARRAY[to_jsonb(OLD) ->> TG_ARGV[0]];
        ELSE
          keys := ARRAY[to_jsonb(NEW) ->> TG_ARGV[0]];
          IF (to_jsonb(OLD) ->> TG_ARGV[0]) IS DISTINCT FROM keys[1] THEN
            keys := keys || (to_jsonb(OLD) ->> TG_ARGV[0]);
          END IF;
        END IF;
        FOREACH changed IN ARRAY keys LOOP
          UPDATE read_model_version SET version = version + 1 RETURNING version INTO published;
          PERFORM pg_notify('read_model', json_build_object('version', published, 'table', TG_TABLE_NAME, 'key', changed)::text);
        END LOOP;
        RETURN NULL;
      END $$`);
    for (const [table, key] of TABLES) {
      await queryRunner.query(
        `CREATE TRIGGER ${table}_published AFTER INSERT OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION publish_read_model_change('${key}')`,
      );
      await queryRunner.query(
        `CREATE TRIGGER ${table}_truncated_published AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION publish_read_model_change('${key}')`,
      );
    }
    // Updates that change nothing kept in memory are not announced: a tenant's name, a token's last use (written
    // at every exchange). Tokens compare whole rows, so a column added later is announced unless excluded here.
    await queryRunner.query(`
      CREATE TRIGGER tenants_updated_published AFTER UPDATE ON tenants FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION publish_read_model_change('id')`);
    await queryRunner.query(`
      CREATE TRIGGER api_tokens_updated_published AFTER UPDATE ON api_tokens FOR EACH ROW
      WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
      EXECUTE FUNCTION publish_read_model_change('id')`);
    for (const table of ['hmac_keys', 'actions']) {
      await queryRunner.query(
        `CREATE TRIGGER ${table}_updated_published AFTER UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION publish_read_model_change('tenant_id')`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table] of TABLES) {
      for (const trigger of ['published', 'truncated_published', 'updated_published']) {
        await queryRunner.query(`DROP TRIGGER ${table}_${trigger} ON ${table}`);
      }
    }
    await queryRunner.query(`DROP FUNCTION publish_read_model_change()`);
    await queryRunner.query(`DROP TABLE read_model_version`);
  }
}

/** Each table, and the column its entries in memory are keyed by. */
const TABLES = [
  ['tenants', 'id'],
  ['api_tokens', 'id'],
  ['hmac_keys', 'tenant_id'],
  ['actions', 'tenant_id'],
] as const;
