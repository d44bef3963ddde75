import type { Pool } from 'pg';
import { ExecutionLogPools } from '../src/executions/execution-log-pools';
import { testDatabase } from './support/database';
import { actionBody, createTenant, gateway, TestTenant } from './support/factories';
import { seedExecutions } from './support/log-seed';
import { Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

const DAY_MS = 86_400_000;
interface PreparedRow {
  name: string;
  statement: string;
  generic_plans: string;
  custom_plans: string;
}

/**
 * The delivery log's lists are prepared statements with generic plans on a PostgreSQL server (docs/decisions.md,
 * "The delivery log"): planning a list over every partition kept cost more than running it, so the lists have
 * connections of their own (genericPlanPool) where each parses and plans a list's text once, the partitions a
 * call excludes pruned as it starts. A plan made before a partition was added is made again, so nothing is missed.
 */
describe('the delivery log\'s lists, prepared', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let tenant: TestTenant;
  let action: { id: string; name: string };

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await Receiver.start();
    tenant = await createTenant(testApp);
    const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) });
    expect(created.status).toBe(201);
    action = { id: created.body.action.id, name: created.body.action.name };
    // 12 executions today and 12 three days back: a walk through the list crosses partitions.
    const now = Date.now();
    await seedExecutions(testApp, tenant.tenantId, action, 12, new Date(now - 60_000));
    await seedExecutions(testApp, tenant.tenantId, action, 12, new Date(now - 3 * DAY_MS));
  });
  afterAll(async () => {
    await testApp?.close();
    await receiver?.stop();
  });

  /** Every execution of the action, 5 a page, in the order listed. */
  async function walk(): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await gateway(testApp, 'GET', `/actions/${action.name}/executions?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: tenant.jwt });
      expect(page.status).toBe(200);
      ids.push(...page.body.executions.map((execution: { id: string }) => execution.id));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    return ids;
  }

  it('lists the same executions however often the list runs, and those of a partition added meanwhile', async () => {
    const first = await walk();
    expect(first).toHaveLength(24);
    // Beyond the five runs after which PostgreSQL may keep a generic plan.
    for (let run = 0; run < 3; run++) expect(await walk()).toEqual(first);
    // A partition added (as the upkeep does every day) invalidates the plans made before it: executions stored in
    // it (ten days back, a day no partition held yet) are listed, which a plan made before it would not read.
    // (seedExecutions makes the partition first; on a database shared with other suites one may have made it.)
    await seedExecutions(testApp, tenant.tenantId, action, 3, new Date(Date.now() - 10 * DAY_MS));
    const after = await walk();
    expect(after).toHaveLength(27);
    expect(after.slice(0, 24)).toEqual(first);
  });

  /** The prepared statements of every connection of the log's reading pool (two, each asked while the other is held). */
  async function preparedForLists(): Promise<PreparedRow[]> {
    const pool = (testApp.app.get(ExecutionLogPools) as unknown as { readPool?: Pool }).readPool;
    if (!pool) return [];
    const [first, second] = await Promise.all([pool.connect(), pool.connect()]);
    try {
      const sql = `SELECT name, statement, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'agw\\_%'`;
      return [...(await first.query<PreparedRow>(sql)).rows, ...(await second.query<PreparedRow>(sql)).rows];
    } finally {
      first.release();
      second.release();
    }
  }

  it('prepares each list on its connections on a PostgreSQL server, and plans it once, generic', async () => {
    const before = await preparedForLists();
    // The 24 seeded first, and the 3 the test above stored in a partition of their own.
    const walked = await walk();
    expect(walked).toHaveLength(27);
    const lists = (await preparedForLists()).filter((row) => row.statement.includes('FROM executions WHERE tenant_id = $1 AND action_id = $2'));
    // The embedded database lists on its one connection, unprepared (genericPlanPool).
    if (testDatabase().embedded) {
      expect(lists).toEqual([]);
      return;
    }
    // The first page's statement and the next pages' (after a cursor), on one connection or both.
    expect(new Set(lists.map((row) => row.statement.includes('(created_at, id) <')))).toEqual(new Set([true, false]));
    // Never a custom plan: every run took the generic one.
    expect(lists.map((row) => row.custom_plans)).toEqual(lists.map(() => '0'));
    const runs = (rows: PreparedRow[]) => rows.reduce((sum, row) => sum + Number(row.generic_plans), 0);
    // Each of this walk's pages (5 executions a page) ran on a statement prepared on the lists' own connections.
    expect(runs(lists) - runs(before.filter((row) => lists.some((list) => list.name === row.name)))).toBe(Math.ceil(walked.length / 5));
  });

  it('keeps the connections of its plans open while idle, so that a lull does not make every plan again', () => {
    const pool = (testApp.app.get(ExecutionLogPools) as unknown as { readPool?: Pool }).readPool;
    // The embedded database has no pool of its own for the log's reads.
    expect(pool?.options.idleTimeoutMillis).toBe(testDatabase().embedded ? undefined : 0);
  });

  it('reads the statistics the same way: prepared, generic, on the log\'s own connections', async () => {
    const stats = await gateway(testApp, 'GET', '/stats', { token: tenant.jwt });
    expect(stats.status).toBe(200);
    const rollups = (await preparedForLists()).filter((row) => /FROM execution_stats_(hourly|daily) WHERE tenant_id = \$1/.test(row.statement));
    if (testDatabase().embedded) {
      expect(rollups).toEqual([]);
      return;
    }
    // The hourly and the daily series (one statement), and the per-action sums of the last 24 hours.
    expect(new Set(rollups.map((row) => row.statement))).toHaveProperty('size', 2);
    expect(rollups.map((row) => row.custom_plans)).toEqual(rollups.map(() => '0'));
  });
});
