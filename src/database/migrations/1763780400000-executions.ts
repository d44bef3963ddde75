import { MigrationInterface, QueryRunner } from 'typeorm';

export class Executions1763780400000 implements MigrationInterface {
  name = 'Executions1763780400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // An action's executions go with it: a new action of the same name starts a new history.
    await queryRunner.query(`
      CREATE TABLE executions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        action_id uuid NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
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
    await queryRunner.query(`CREATE INDEX executions_action_created_idx ON executions (action_id, created_at DESC)`);
    await queryRunner.query(`CREATE INDEX executions_created_idx ON executions (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE executions`);
  }
}
