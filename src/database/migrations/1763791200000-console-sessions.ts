import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Gateway Management console's sessions and the portal links that open tenant sessions. Only SHA-256 hashes
 * of their secrets are stored; both go with their tenant.
 */
export class ConsoleSessions1763791200000 implements MigrationInterface {
  name = 'ConsoleSessions1763791200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // An operator session remembers which ADMIN_API_KEY opened it (a hash), so changing the key ends them all.
    await queryRunner.query(`
      CREATE TABLE console_sessions (
        id uuid PRIMARY KEY,
        secret_hash char(64) NOT NULL UNIQUE,
        kind varchar(16) NOT NULL CHECK (kind IN ('operator', 'tenant')),
        tenant_id uuid REFERENCES tenants (id) ON DELETE CASCADE,
        admin_key_hash char(64),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        CHECK ((kind = 'tenant' AND tenant_id IS NOT NULL AND admin_key_hash IS NULL)
            OR (kind = 'operator' AND tenant_id IS NULL AND admin_key_hash IS NOT NULL))
      )`);
    await queryRunner.query(`CREATE INDEX console_sessions_tenant_idx ON console_sessions (tenant_id)`);
    await queryRunner.query(`CREATE INDEX console_sessions_expires_idx ON console_sessions (expires_at)`);
    await queryRunner.query(`
      CREATE TABLE portal_links (
        id uuid PRIMARY KEY,
        token_hash char(64) NOT NULL UNIQUE,
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        redeemed_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX portal_links_tenant_idx ON portal_links (tenant_id)`);
    await queryRunner.query(`CREATE INDEX portal_links_expires_idx ON portal_links (expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE portal_links`);
    await queryRunner.query(`DROP TABLE console_sessions`);
  }
}
