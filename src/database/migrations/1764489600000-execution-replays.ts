import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bulk replays ("replay what failed since 10:00"): one row per request, its progress kept as it runs, so any
 * replica answers how far it got (src/executions/bulk-replays.ts).
 */
export class ExecutionReplays1764489600000 implements MigrationInterface {
  name = 'ExecutionReplays1764489600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE execution_replays (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        action_id uuid NOT NULL,
        action_name varchar(100) NOT NULL,
        since timestamptz NOT NULL,
        until timestamptz NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('running', 'done', 'stopped')),
        stopped_reason text,
        total integer NOT NULL,
        done integer NOT NULL DEFAULT 0,
        succeeded integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        skipped integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        finished_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX execution_replays_tenant_created_idx ON execution_replays (tenant_id, created_at DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE execution_replays`);
  }
}
