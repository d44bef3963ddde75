import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 27: the indexes behind paging the tenant list by (created_at, id), and behind the hourly pruning of
 * credentials revoked (or expired) more than 30 days ago, which would otherwise read whole tables.
 */
export class CredentialsRetention1764576000000 implements MigrationInterface {
  name = 'CredentialsRetention1764576000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX tenants_created_idx ON tenants (created_at, id)`);
    await queryRunner.query(`CREATE INDEX api_tokens_revoked_idx ON api_tokens (revoked_at) WHERE revoked_at IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX api_tokens_expires_idx ON api_tokens (expires_at) WHERE expires_at IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX hmac_keys_revoked_idx ON hmac_keys (revoked_at) WHERE revoked_at IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX hmac_keys_revoked_idx`);
    await queryRunner.query(`DROP INDEX api_tokens_expires_idx`);
    await queryRunner.query(`DROP INDEX api_tokens_revoked_idx`);
    await queryRunner.query(`DROP INDEX tenants_created_idx`);
  }
}
