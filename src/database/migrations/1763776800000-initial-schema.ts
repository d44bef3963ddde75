import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763776800000 implements MigrationInterface {
  name = 'InitialSchema1763776800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE tenants (
        id uuid PRIMARY KEY,
        name varchar(200) NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('active', 'disabled')),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        prefix varchar(16) NOT NULL,
        token_hash char(64) NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz,
        last_used_at timestamptz,
        revoked_at timestamptz,
        CONSTRAINT api_tokens_token_hash_key UNIQUE (token_hash)
      )`);
    await queryRunner.query(`CREATE INDEX api_tokens_tenant_idx ON api_tokens (tenant_id, created_at)`);
    await queryRunner.query(`
      CREATE TABLE hmac_keys (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        key_ciphertext text NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX hmac_keys_tenant_idx ON hmac_keys (tenant_id, created_at)`);
    // The unique constraint is what makes concurrent creates of one name safe; the service's own check is
    // only there to answer early. Names compare and sort bytewise (COLLATE "C"), whatever the server's locale.
    await queryRunner.query(`
      CREATE TABLE actions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        name varchar(100) COLLATE "C" NOT NULL CHECK (name ~ '^[a-z0-9_]+$'),
        description varchar(500) NOT NULL,
        json_schema json NOT NULL,
        webhook_url varchar(2048) NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT actions_tenant_id_name_key UNIQUE (tenant_id, name)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE actions`);
    await queryRunner.query(`DROP TABLE hmac_keys`);
    await queryRunner.query(`DROP TABLE api_tokens`);
    await queryRunner.query(`DROP TABLE tenants`);
  }
}
