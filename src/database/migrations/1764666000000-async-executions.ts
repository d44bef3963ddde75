import PgBoss from 'pg-boss';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** pg-boss's schema: its tables, functions and version, and the queues of asynchronous executions. */
export const JOB_SCHEMA = 'pgboss';
/** The queue of accepted executions waiting for a replica to run them. */
export const EXECUTION_QUEUE = 'agw-executions';
/** Where pg-boss moves an execution's job once every run of it was interrupted (see AsyncExecutions). */
export const ABANDONED_EXECUTION_QUEUE = 'agw-executions-abandoned';

const STATUSES = ['succeeded', 'failed', 'pending', 'running'];

/**
 * Issue 40: executions accepted with `Prefer: respond-async` are stored at once as `pending`, become `running`,
 * then `succeeded` or `failed`; the work waits in pg-boss's job queue (docs/decisions.md, "Asynchronous
 * executions").
 *
 * - `executions.status` admits `pending` and `running`. The CHECK is replaced NOT VALID (a catalog change), then
 *   VALIDATEd under a lock that lets reads and writes go on: it only widens, but PostgreSQL proves it by scanning.
 * - An index of the unfinished executions, per tenant, which the per-tenant bound counts: tiny, as executions end
 *   within minutes. Built as on any large log: on the parent alone, then CONCURRENTLY on each partition and
 *   attached, so no write waits for a scan; new partitions get it when they are attached.
 * - pg-boss's schema at the version this service ships, and its two queues. pg-boss migrates its own schema when
 *   a later version of it starts with RUN_MIGRATIONS on (AsyncExecutions); with it off, it checks the version.
 *
 * No transaction around the whole (`transaction = false`): CREATE INDEX CONCURRENTLY cannot run in one, and every
 * step can run again, so a migration stopped half-way is finished by the next start.
 */
export class AsyncExecutions1764666000000 implements MigrationInterface {
  name = 'AsyncExecutions1764666000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    const query = (sql: string, parameters?: unknown[]) => queryRunner.query(sql, parameters);
    await query(`SET statement_timeout = 0`);
    try {
      const allowed = STATUSES.map((status) => `'${status}'`).join(', ');
      await query(
        `ALTER TABLE executions DROP CONSTRAINT IF EXISTS executions_status_check, ` +
          `ADD CONSTRAINT executions_status_check CHECK (status IN (${allowed})) NOT VALID`,
      );
      await query(`ALTER TABLE executions VALIDATE CONSTRAINT executions_status_check`);
      await query(`CREATE INDEX IF NOT EXISTS executions_unfinished_idx ON ONLY executions (tenant_id) WHERE status IN ('pending', 'running')`);
      const partitions = (await query(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'executions'::regclass
           AND NOT EXISTS (SELECT 1 FROM pg_inherits x WHERE x.inhparent = 'executions_unfinished_idx'::regclass
                           AND x.inhrelid IN (SELECT indexrelid FROM pg_index WHERE indrelid = c.oid))`,
      )) as Array<{ name: string }>;
      for (const { name } of partitions) {
        const index = `${name}_unfinished_idx`;
        // One left invalid by an interrupted run is built again.
        await query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
        await query(`CREATE INDEX CONCURRENTLY ${index} ON ${name} (tenant_id) WHERE status IN ('pending', 'running')`);
        await query(`ALTER INDEX executions_unfinished_idx ATTACH PARTITION ${index}`);
      }
      const [{ installed }] = (await query(`SELECT to_regclass('${JOB_SCHEMA}.version') IS NOT NULL AS installed`)) as Array<{ installed: boolean }>;
      // pg-boss's own plan: BEGIN, its advisory lock, the DDL, COMMIT, in one text.
      if (!installed) await query(PgBoss.getConstructionPlans(JOB_SCHEMA));
      for (const queue of [ABANDONED_EXECUTION_QUEUE, EXECUTION_QUEUE]) {
        const options = { policy: 'standard', ...(queue === EXECUTION_QUEUE ? { deadLetter: ABANDONED_EXECUTION_QUEUE } : {}) };
        await query(`SELECT ${JOB_SCHEMA}.create_queue($1, $2)`, [queue, JSON.stringify(options)]);
      }
    } finally {
      await query(`RESET statement_timeout`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA IF EXISTS ${JOB_SCHEMA} CASCADE`);
    await queryRunner.query(`DROP INDEX IF EXISTS executions_unfinished_idx`);
    await queryRunner.query(`DELETE FROM executions WHERE status IN ('pending', 'running')`);
    await queryRunner.query(
      `ALTER TABLE executions DROP CONSTRAINT IF EXISTS executions_status_check, ADD CONSTRAINT executions_status_check CHECK (status IN ('succeeded', 'failed'))`,
    );
  }
}
