import { Client } from 'pg';
import { DatabasePool } from '../src/database/database-pool';
import { Statement } from '../src/database/statement';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { call } from './support/http';
import { Receiver } from './support/receiver';
import { expectSignedOnlyWith } from './support/signatures';
import { TcpProxy } from './support/tcp-proxy';
import { startTestApp, testConfig, TestApp } from './support/test-app';
import { JOB_SCHEMA } from '../src/database/migrations/1764666000000-async-executions';

/** The read model's statement: the change log, and the loads it carries. */
const READ_MODEL_STATEMENT = /^SELECT \(SELECT coalesce\(max\(position\), 0\) FROM read_model_changes\) AS latest/;

/** `read_model_reads_total` of one cache and source, from the replica's /metrics. */
async function reads(replica: TestApp, cache: string, source: 'memory' | 'database'): Promise<number> {
  const text = (await call(replica.baseUrl, 'GET', '/metrics')).text;
  const line = text.split('\n').find((entry) => entry.startsWith(`read_model_reads_total{cache="${cache}",source="${source}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** One statement on the database, from outside the service. */
async function sql(replica: TestApp, text: string, parameters: unknown[]): Promise<unknown[]> {
  const client = new Client(replica.config.databaseUrl);
  await client.connect();
  try {
    return (await client.query(text, parameters)).rows;
  } finally {
    await client.end();
  }
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`not within 5 s: ${what}`);
}

/**
 * Issue 15: actions, a tenant's list, API token standing and HMAC keys are served from memory, and a change
 * acknowledged by one replica is seen by the next request any replica receives after the acknowledgement.
 * Two replicas on one database (the server, or the embedded one the tests serve over TCP); B reaches it through
 * a proxy that can cut it. Issue 28 (one statement per request), 27.6 (notifications change nothing) and 32.2
 * (a cut, and entries B never read) too.
 */
describe('the read model: reads from memory, exact across replicas', () => {
  let replicaA: TestApp;
  let replicaB: TestApp;
  let proxy: TcpProxy;
  let first: Receiver;
  let second: Receiver;
  let tenant: TestTenant;

  beforeAll(async () => {
    const config = await testConfig();
    replicaA = await startTestApp({ config });
    const target = new URL(config.databaseUrl!);
    proxy = new TcpProxy(target.hostname, Number(target.port));
    await proxy.start();
    replicaB = await startTestApp({ config: Object.assign(Object.create(config) as typeof config, { databaseUrl: proxy.urlTo(config.databaseUrl!) }) });
    first = await Receiver.start();
    second = await Receiver.start();
  });
  afterAll(async () => {
    await replicaA?.close();
    await replicaB?.close();
    await proxy?.cut();
    await first?.stop();
    await second?.stop();
  });
  beforeEach(async () => {
    tenant = await createTenant(replicaA);
  });

  async function register(receiver = first): Promise<string> {
    const created = await gateway(replicaA, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) });
    expect(created.status).toBe(201);
    return created.body.action.name;
  }
  const describeOn = (replica: TestApp, name: string) => gateway(replica, 'GET', `/actions/${name}`, { token: tenant.jwt });
  const execute = (replica: TestApp, name: string, parameters: Record<string, unknown> = { city: 'Oslo' }) =>
    gateway(replica, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters } });

  /** Replica B answers GET `name` from memory (it has the action, and is in step with the database). */
  async function servedFromMemoryOnB(name: string): Promise<void> {
    await eventually(async () => {
      const before = await reads(replicaB, 'actions', 'memory');
      expect((await describeOn(replicaB, name)).status).toBe(200);
      return (await reads(replicaB, 'actions', 'memory')) > before;
    }, 'replica B serves the action from memory');
  }

  /** A PUT on A is what B's next GET shows; and B shows it from memory once the announcement is in. */
  async function changeOnASeenOnB(name: string, description: string): Promise<void> {
    const updated = await gateway(replicaA, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { description } });
    expect(updated.status).toBe(200);
    expect((await describeOn(replicaB, name)).body.action).toEqual(updated.body.action);
    await servedFromMemoryOnB(name);
    expect((await describeOn(replicaB, name)).body.action).toEqual(updated.body.action);
  }

  it('serves GET, the list, executions and the bearer check from memory once loaded, without touching the database', async () => {
    const name = await register();
    await servedFromMemoryOnB(name);
    expect((await execute(replicaB, name)).status).toBe(200); // the keys, loaded once
    const database = await Promise.all(['actions', 'api_tokens', 'tenants', 'hmac_keys'].map((cache) => reads(replicaB, cache, 'database')));
    const memory = await reads(replicaB, 'actions', 'memory');

    expect((await describeOn(replicaB, name)).body.action.name).toBe(name);
    expect((await gateway(replicaB, 'GET', '/actions', { token: tenant.jwt })).body.actions.map((action: { name: string }) => action.name)).toEqual([name]);
    expect((await execute(replicaB, name)).body.execution.status).toBe('succeeded');

    expect(await Promise.all(['actions', 'api_tokens', 'tenants', 'hmac_keys'].map((cache) => reads(replicaB, cache, 'database')))).toEqual(database);
    expect(await reads(replicaB, 'actions', 'memory')).toBe(memory + 3);
  });

  /** The statements B runs while `run` runs (execution records aside, and the job queue's polls, made by no request). */
  async function statementsOnB(run: () => Promise<void>): Promise<string[]> {
    const statements: string[] = [];
    const pool = replicaB.app.get(DatabasePool);
    const query = pool.query.bind(pool);
    const spy = jest.spyOn(pool, 'query').mockImplementation((statement: Statement<readonly unknown[]>, ...parameters: [readonly unknown[]]) => {
      statements.push(statement.text);
      return query(statement, ...parameters);
    });
    try {
      await run();
    } finally {
      spy.mockRestore();
    }
    return statements.filter((sql) => !/^(WITH e AS \()?INSERT INTO executions/.test(sql) && !sql.includes(`${JOB_SCHEMA}.`));
  }

  it('costs a request (GET, the list, an execution) one statement, shared by everything it reads from memory', async () => {
    const name = await register();
    expect((await execute(replicaB, name)).status).toBe(200);
    await servedFromMemoryOnB(name);
    for (const request of [
      () => describeOn(replicaB, name), // token, tenant, action
      () => gateway(replicaB, 'GET', '/actions', { token: tenant.jwt }),
      () => execute(replicaB, name), // and the keys
    ]) {
      const statements = await statementsOnB(async () => expect((await request()).status).toBe(200));
      expect(statements).toEqual([expect.stringMatching(READ_MODEL_STATEMENT)]);
      expect(statements[0]).not.toContain('FROM actions');
    }
  });

  it('costs a cold request one statement too: the token, the tenant and its actions are read together', async () => {
    const name = await register(); // through A: B holds nothing of this tenant
    const statements = await statementsOnB(async () => expect((await describeOn(replicaB, name)).body.action.name).toBe(name));
    expect(statements).toEqual([expect.stringMatching(READ_MODEL_STATEMENT)]);
    for (const table of ['FROM api_tokens', 'FROM tenants', 'FROM actions']) expect(statements[0]).toContain(table);
  });

  it('a PUT acknowledged by one replica is seen by the next GET on the other, then from memory again', async () => {
    const name = await register();
    await servedFromMemoryOnB(name);
    await changeOnASeenOnB(name, 'changed on A');
  });

  it('a change made outside the service (SQL on the database) is seen by the next request too', async () => {
    const name = await register();
    await servedFromMemoryOnB(name);
    await sql(replicaA, `UPDATE actions SET description = 'edited by hand' WHERE tenant_id = $1 AND name = $2`, [tenant.tenantId, name]);
    expect((await describeOn(replicaB, name)).body.action.description).toBe('edited by hand');
  });

  it('an API token revoked through one replica is refused at the next request on the other', async () => {
    const name = await register();
    await servedFromMemoryOnB(name);
    expect((await admin(replicaA, 'DELETE', `/tenants/${tenant.tenantId}/api-tokens/${tenant.apiTokenId}`)).status).toBe(204);
    expect(await describeOn(replicaB, name)).toMatchObject({ status: 401, body: { error: 'Invalid token' } });
    expect((await gateway(replicaB, 'GET', '/actions', { token: tenant.jwt })).status).toBe(401);
  });

  it('a tenant disabled through one replica is refused at once on the other, and works at once when enabled again', async () => {
    const name = await register();
    await servedFromMemoryOnB(name);
    expect((await admin(replicaA, 'PATCH', `/tenants/${tenant.tenantId}`, { status: 'disabled' })).status).toBe(200);
    expect(await execute(replicaB, name)).toMatchObject({ status: 401, body: { error: 'Invalid token' } });
    expect((await admin(replicaA, 'PATCH', `/tenants/${tenant.tenantId}`, { status: 'active' })).status).toBe(200);
    expect((await execute(replicaB, name)).status).toBe(200);
  });

  it('an action deleted through one replica: the next execution on the other is 404 and calls nothing', async () => {
    const name = await register();
    expect((await execute(replicaB, name)).status).toBe(200);
    await servedFromMemoryOnB(name);
    expect((await gateway(replicaA, 'DELETE', `/actions/${name}`, { token: tenant.jwt })).status).toBe(204);
    const calls = first.calls.length;
    expect(await execute(replicaB, name)).toMatchObject({ status: 404, body: { error: 'Action not found' } });
    expect(first.calls.length).toBe(calls);
  });

  it('a new webhook URL or schema set through one replica is what the other\'s next execution uses', async () => {
    const name = await register();
    expect((await execute(replicaB, name)).status).toBe(200);
    await servedFromMemoryOnB(name);

    expect((await gateway(replicaA, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { webhook_url: second.url() } })).status).toBe(200);
    const calls = second.calls.length;
    expect((await execute(replicaB, name)).body.execution.status).toBe('succeeded');
    expect(second.calls.length).toBe(calls + 1);

    expect((await gateway(replicaA, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { json_schema: { type: 'object', required: ['zip'] } } })).status).toBe(200);
    expect(await execute(replicaB, name)).toMatchObject({ status: 400, body: { error: 'Invalid parameters' } });
  });

  it('a key revoked and one created through one replica: the other\'s next execution signs with the new key only', async () => {
    const name = await register();
    expect((await execute(replicaB, name)).status).toBe(200); // B holds the tenant's keys
    const [old] = (await admin(replicaA, 'GET', `/tenants/${tenant.tenantId}/hmac-keys`)).body.hmac_keys;
    const newer = (await admin(replicaA, 'POST', `/tenants/${tenant.tenantId}/hmac-keys`)).body.hmac_key;
    expect((await admin(replicaA, 'DELETE', `/tenants/${tenant.tenantId}/hmac-keys/${old.id}`)).status).toBe(204);

    const mark = first.calls.length;
    expect((await execute(replicaB, name)).status).toBe(200);
    expectSignedOnlyWith(first.calls[mark], newer.key, tenant.hmacKey);

    expect((await admin(replicaA, 'DELETE', `/tenants/${tenant.tenantId}/hmac-keys/${newer.id}`)).status).toBe(204);
    expect(await execute(replicaB, name)).toMatchObject({ status: 409, body: { error: 'no active HMAC key for this tenant' } });
  });

  it('a notification on the read model\'s old channel, forged or replayed from any session, changes nothing it serves', async () => {
    const name = await register();
    await servedFromMemoryOnB(name);
    const [{ latest }] = (await sql(replicaA, 'SELECT max(position)::int AS latest FROM read_model_changes', [])) as { latest: number }[];
    // What replicas used to trust as the change log: the next number, naming this tenant's actions, then a replay.
    const forged = JSON.stringify({ version: latest + 1, table: 'actions', key: tenant.tenantId });
    await sql(replicaA, `SELECT pg_notify('read_model', $1)`, [forged]);
    const updated = await gateway(replicaA, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { description: 'after a forged notification' } });
    expect(updated.status).toBe(200);
    await sql(replicaA, `SELECT pg_notify('read_model', $1)`, [forged]);
    for (let attempt = 0; attempt < 20; attempt++) expect((await describeOn(replicaB, name)).body.action).toEqual(updated.body.action);
    await servedFromMemoryOnB(name);
    expect((await describeOn(replicaB, name)).body.action).toEqual(updated.body.action);
  });

  it('while its database is cut off it answers 503; once back, the next request sees what changed meanwhile', async () => {
    const name = await register();
    await servedFromMemoryOnB(name);
    await proxy.cut();
    try {
      expect((await describeOn(replicaB, name)).status).toBe(503);
      const updated = await gateway(replicaA, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { description: 'while B is cut off' } });
      expect(updated.status).toBe(200);
      expect((await admin(replicaA, 'DELETE', `/tenants/${tenant.tenantId}/api-tokens/${tenant.apiTokenId}`)).status).toBe(204);
    } finally {
      await proxy.restore();
    }
    // The pool's connections were cut: the first requests may find one dead (503), never an old answer.
    await eventually(async () => (await describeOn(replicaB, name)).status !== 503, 'replica B reaches its database again');
    expect(await describeOn(replicaB, name)).toMatchObject({ status: 401, body: { error: 'Invalid token' } });
    tenant = await createTenant(replicaA);
    const again = await register();
    await servedFromMemoryOnB(again);
  });

  it('entries of the change log pruned before it read them make it forget everything, not skip them', async () => {
    const name = await register();
    await servedFromMemoryOnB(name);
    const [{ mark }] = (await sql(replicaA, 'SELECT coalesce(max(position), 0)::int AS mark FROM read_model_changes', [])) as { mark: number }[];
    const updated = await gateway(replicaA, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { description: 'pruned before B read it' } });
    expect(updated.status).toBe(200);
    // Another tenant's change, then the update's entry pruned: B finds an entry whose predecessor it never read (a
    // gap), and must not apply what follows as if it had. Only this test's entries go, as a prune would take them:
    // pruning the whole log (ReadModel.prune(0)) took the entries other files on a shared server were reading.
    await createTenant(replicaA);
    const pruned = await sql(replicaA, `DELETE FROM read_model_changes WHERE position > $1 AND table_name = 'actions' AND keys && $2::text[] RETURNING position`, [mark, [tenant.tenantId]]);
    expect(pruned).toHaveLength(1);
    expect((await describeOn(replicaB, name)).body.action).toEqual(updated.body.action);
    await servedFromMemoryOnB(name);
  });
});
