import { randomUUID } from 'node:crypto';
import { DataSource, QueryRunner } from 'typeorm';
import { MIGRATIONS } from '../src/database/schema';
import { ExecutionLogPartitions1764403200000 } from '../src/database/migrations/1764403200000-execution-log-partitions';
import { testDatabase } from './support/database';

/**
 * The delivery log's move to partitions on a database that already has a log (docs/operations.md, "Moving the
 * delivery log to partitions"): the schema as the migrations before it left it, in a schema of its own on the
 * worker's database (embedded or server), with executions in it; then the migration.
 */
describe('migration 1764403200000: the existing log becomes the first partition', () => {
  const schema = `migration_${randomUUID().replaceAll('-', '')}`;
  let dataSource: DataSource;
  let runner: QueryRunner;
  const before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(ExecutionLogPartitions1764403200000));

  beforeAll(async () => {
    dataSource = new DataSource({ type: 'postgres', url: testDatabase().url });
    await dataSource.initialize();
    runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.query(`CREATE SCHEMA ${schema}`);
    // The embedded database is one session: the search path is put back below, before any other file runs.
    await runner.query(`SET search_path TO ${schema}`);
    for (const Migration of before) await new Migration().up(runner);
  });
  afterAll(async () => {
    await runner.query(`SET search_path TO public`);
    await runner.query(`DROP SCHEMA ${schema} CASCADE`);
    await runner.release();
    await dataSource.destroy();
  });

  it('attaches the old table whole, keeps every row readable, and the log works on after it', async () => {
    const tenant = randomUUID();
    const action = randomUUID();
    await runner.query(`INSERT INTO tenants VALUES ($1, 't', 'active', now(), now())`, [tenant]);
    await runner.query(`INSERT INTO actions VALUES ($1, $2, 'a', 'd', '{}', 'https://example.com/', now(), now())`, [action, tenant]);
    await runner.query(
      `INSERT INTO executions SELECT gen_random_uuid(), $1, $2, 'a', CASE WHEN n % 3 = 0 THEN 'failed' ELSE 'succeeded' END, 200, 'r', '', n, 1, '[]',
         now() - n * interval '1 hour' FROM generate_series(1, 500) AS n`,
      [tenant, action],
    );

    await new ExecutionLogPartitions1764403200000().up(runner);

    const [{ kind }] = await runner.query(`SELECT relkind AS kind FROM pg_class WHERE oid = 'executions'::regclass`);
    expect(kind).toBe('p');
    const partitions: Array<{ name: string; bound: string }> = await runner.query(
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'executions'::regclass ORDER BY 1`,
    );
    expect(partitions[0].name).toBe('executions_legacy');
    expect(partitions[0].bound).toMatch(/^FOR VALUES FROM \(MINVALUE\) TO \('.+'\)$/);
    expect(partitions.length).toBeGreaterThan(1);
    expect(await runner.query(`SELECT count(*)::int AS n, count(*) FILTER (WHERE payload = 'none')::int AS none FROM executions`)).toEqual([{ n: 500, none: 500 }]);
    // Every index is valid, on the parent and on the old table.
    expect(await runner.query(`SELECT count(*)::int AS n FROM pg_index WHERE indrelid = 'executions_legacy'::regclass AND NOT indisvalid`)).toEqual([{ n: 0 }]);
    const plan = (await runner.query(`EXPLAIN SELECT id FROM executions WHERE action_id = $1 AND status = 'failed' ORDER BY created_at DESC, id DESC LIMIT 20`, [action]))
      .map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN'])
      .join('\n');
    expect(plan).toMatch(/Index (Only )?Scan using executions_legacy_action_status_created_id_idx/);
    expect(plan).not.toMatch(/Seq Scan|Sort/);
    expect(await runner.query(`SELECT payload_logging FROM actions WHERE id = $1`, [action])).toEqual([{ payload_logging: true }]);

    // The old version's insert (no new columns) still works, and so does the new one's; deleting the action
    // deletes nothing of its log (the upkeep purges what the trigger queued).
    await runner.query(
      `INSERT INTO executions (id, tenant_id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, created_at)
       VALUES (gen_random_uuid(), $1, $2, 'a', 'succeeded', 200, 'r', '', 1, 1, '[]', now())`,
      [tenant, action],
    );
    await runner.query(`DELETE FROM actions WHERE id = $1`, [action]);
    expect(await runner.query(`SELECT count(*)::int AS n FROM executions WHERE action_id = $1`, [action])).toEqual([{ n: 501 }]);
    expect(await runner.query(`SELECT action_id FROM execution_log_purges`)).toEqual([{ action_id: action }]);

    // Run again (a Job retried after it finished): nothing changes, nothing fails.
    await new ExecutionLogPartitions1764403200000().up(runner);
    expect(await runner.query(`SELECT count(*)::int AS n FROM executions`)).toEqual([{ n: 501 }]);
  });
});
