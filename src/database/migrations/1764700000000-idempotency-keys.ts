import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency keys (docs/decisions.md, "Idempotency keys"): a keyed execute claims its key here, by the primary key
 * `(tenant_id, idempotency_key)` (INSERT ... ON CONFLICT), before anything is sent, so that a retry on any replica,
 * before or after a restart, finds the execution the key stands for. A small table of its own rather than a column
 * of the partitioned log: the log's unique constraints must include `created_at`, and a key must be unique across
 * days. Rows expire after 24 hours (the log's maintenance deletes them, oldest first, by `created_at`); the console
 * finds an execution's key by `(tenant_id, execution_id)`.
 */
export class IdempotencyKeys1764700000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        idempotency_key varchar(255) NOT NULL,
        fingerprint bytea NOT NULL,
        execution_id uuid NOT NULL,
        execution_created_at timestamptz NOT NULL,
        respond_async boolean NOT NULL,
        created_at timestamptz NOT NULL,
        leased_until timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, idempotency_key)
      )`);
    await queryRunner.query(`CREATE INDEX idempotency_keys_execution_idx ON idempotency_keys (tenant_id, execution_id)`);
    await queryRunner.query(`CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_keys`);
  }
}
