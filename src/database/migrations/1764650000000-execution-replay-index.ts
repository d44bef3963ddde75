import { MigrationInterface, QueryRunner } from 'typeorm';

const INDEX = 'executions_replay_of_idx';
const COLUMNS = '(replay_of, status) WHERE replay_of IS NOT NULL';

/**
 * Issue 40: a bulk replay leaves out an original that a replay has delivered, which it finds by `replay_of`. The
 * index holds replays only (partial), so it stays small whatever the log's size.
 *
 * Built without blocking writes to the log: the partitioned index is made on the parent alone (ON ONLY, invalid
 * until every partition has one), each partition's is built CONCURRENTLY and attached, and the parent's becomes
 * valid with the last. Partitions created meanwhile (the log's upkeep) get theirs as they are attached. Hence no
 * transaction around it (`transaction = false`): a run stopped half-way is finished by the next start (an index
 * a stopped CONCURRENTLY left invalid is built again).
 */
export class ExecutionReplayIndex1764650000000 implements MigrationInterface {
  name = 'ExecutionReplayIndex1764650000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    const query = (sql: string, parameters?: unknown[]) => queryRunner.query(sql, parameters);
    await query(`SET statement_timeout = 0`);
    try {
      await query(`CREATE INDEX IF NOT EXISTS ${INDEX} ON ONLY executions ${COLUMNS}`);
      const partitions = (await query(
        `SELECT c.relname AS name,
           (SELECT x.indexrelid::regclass::text FROM pg_index x JOIN pg_inherits ii ON ii.inhrelid = x.indexrelid
            WHERE x.indrelid = c.oid AND ii.inhparent = '${INDEX}'::regclass) AS attached
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'executions'::regclass`,
      )) as Array<{ name: string; attached: string | null }>;
      for (const { name, attached } of partitions) {
        if (attached) continue;
        const index = `${name}_replay_of_idx`;
        const [existing] = (await query(`SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = to_regclass($1)`, [index])) as Array<{ valid: boolean }>;
        if (existing && !existing.valid) await query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
        await query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${index} ON ${name} ${COLUMNS}`);
        await query(`ALTER INDEX ${INDEX} ATTACH PARTITION ${index}`);
      }
    } finally {
      await query(`RESET statement_timeout`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS ${INDEX}`);
  }
}
