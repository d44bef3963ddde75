import { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { ExecutionsRepository } from '../src/executions/executions.repository';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { ok, Receiver } from './support/receiver';
import { startTestApp, testConfig, TestApp } from './support/test-app';

const CACHE_TTL_MS = 400;

/**
 * What makes executions fast must not make them wrong: the action and the tenant's keys are reused for
 * EXECUTION_CACHE_TTL_MS (changes through this process at once, through another replica within that time), and
 * executions finishing together are stored with one INSERT.
 */
describe('the execution hot path: reused definitions and grouped inserts', () => {
  let replicaA: TestApp;
  let replicaB: TestApp;
  let first: Receiver;
  let second: Receiver;
  let tenant: TestTenant;

  beforeAll(async () => {
    // Two replicas on one database, with the same secrets, as behind a load balancer.
    const config = await testConfig({ EXECUTION_CACHE_TTL_MS: String(CACHE_TTL_MS) });
    replicaA = await startTestApp({ config });
    replicaB = await startTestApp({ config });
    first = await Receiver.start();
    second = await Receiver.start();
  });
  afterAll(async () => {
    await replicaA?.close();
    await replicaB?.close();
    await first?.stop();
    await second?.stop();
  });
  beforeEach(async () => {
    first.behaviour = ok;
    second.behaviour = ok;
    tenant = await createTenant(replicaA);
  });

  async function register(on: TestApp, receiver: Receiver): Promise<string> {
    const created = await gateway(on, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) });
    expect(created.status).toBe(201);
    return created.body.action.name;
  }
  const execute = (on: TestApp, name: string) => gateway(on, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'Oslo' } } });
  const executionsOf = (name: string) => first.calls.concat(second.calls).filter((call) => JSON.parse(call.body).action_name === name && !JSON.parse(call.body).test);

  it('an action changed or deleted through this replica takes effect at its next execution', async () => {
    const name = await register(replicaA, first);
    expect((await execute(replicaA, name)).status).toBe(200);

    expect((await gateway(replicaA, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { webhook_url: second.url() } })).status).toBe(200);
    const before = second.calls.length;
    expect((await execute(replicaA, name)).body.execution.status).toBe('succeeded');
    expect(second.calls.length).toBe(before + 1);

    expect((await gateway(replicaA, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { json_schema: { type: 'object', required: ['zip'] } } })).status).toBe(200);
    const refused = await execute(replicaA, name);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Invalid parameters');

    expect((await gateway(replicaA, 'DELETE', `/actions/${name}`, { token: tenant.jwt })).status).toBe(204);
    expect(await execute(replicaA, name)).toMatchObject({ status: 404, body: { error: 'Action not found' } });
  });

  it('a key created or revoked through this replica signs, or stops signing, the next execution', async () => {
    const name = await register(replicaA, first);
    expect((await execute(replicaA, name)).status).toBe(200);
    const keys = (await admin(replicaA, 'GET', `/tenants/${tenant.tenantId}/hmac-keys`)).body.hmac_keys;
    const newer = (await admin(replicaA, 'POST', `/tenants/${tenant.tenantId}/hmac-keys`)).body.hmac_key;
    expect((await admin(replicaA, 'DELETE', `/tenants/${tenant.tenantId}/hmac-keys/${keys[0].id}`)).status).toBe(204);

    const mark = first.calls.length;
    expect((await execute(replicaA, name)).status).toBe(200);
    const [call] = first.calls.slice(mark);
    const headers = call.headers as Record<string, string>;
    expect(new Webhook(newer.key).verify(call.body, headers)).toBeTruthy();
    expect(() => new Webhook(tenant.hmacKey).verify(call.body, headers)).toThrow();
    expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
  });

  it('a change made through another replica reaches this one within EXECUTION_CACHE_TTL_MS', async () => {
    const name = await register(replicaA, first);
    expect((await execute(replicaA, name)).status).toBe(200); // replica A now holds the action

    expect((await gateway(replicaB, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { webhook_url: second.url() } })).status).toBe(200);
    await sleep(CACHE_TTL_MS + 100);
    const mark = second.calls.length;
    expect((await execute(replicaA, name)).body.execution.status).toBe('succeeded');
    expect(second.calls.length).toBe(mark + 1);

    expect((await gateway(replicaB, 'DELETE', `/actions/${name}`, { token: tenant.jwt })).status).toBe(204);
    await sleep(CACHE_TTL_MS + 100);
    expect((await execute(replicaA, name)).status).toBe(404);
  });

  it('with EXECUTION_CACHE_TTL_MS=0 a change through another replica is seen at once', async () => {
    const config = await testConfig({ EXECUTION_CACHE_TTL_MS: '0' });
    const uncachedA = await startTestApp({ config });
    const uncachedB = await startTestApp({ config });
    try {
      const own = await createTenant(uncachedA);
      const created = await gateway(uncachedA, 'POST', '/actions', { token: own.jwt, body: actionBody(first.url()) });
      const name = created.body.action.name;
      const run = () => gateway(uncachedA, 'POST', `/actions/${name}/execute`, { token: own.jwt, body: { parameters: { city: 'Oslo' } } });
      expect((await run()).status).toBe(200);
      expect((await gateway(uncachedB, 'PUT', `/actions/${name}`, { token: own.jwt, body: { webhook_url: second.url() } })).status).toBe(200);
      const mark = second.calls.length;
      expect((await run()).status).toBe(200);
      expect(second.calls.length).toBe(mark + 1);
    } finally {
      await uncachedA.close();
      await uncachedB.close();
    }
  });

  it('an action deleted while its webhook runs: the caller gets the outcome, nothing is stored, no 5xx', async () => {
    const name = await register(replicaA, first);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const hasArrived = new Promise<void>((resolve) => (arrived = resolve));
    first.behaviour = (call, response: ServerResponse) => {
      arrived();
      void held.then(() => ok(call, response));
    };

    const running = execute(replicaA, name);
    await hasArrived;
    expect((await gateway(replicaA, 'DELETE', `/actions/${name}`, { token: tenant.jwt })).status).toBe(204);
    release();
    const response = await running;

    expect(response.status).toBe(200);
    expect(response.body.execution).toMatchObject({ action_name: name, status: 'succeeded', http_status: 200 });
    const stored = await replicaA.app.get(DataSource).query('SELECT count(*)::int AS n FROM executions WHERE id = $1', [response.body.execution.id]);
    expect(stored).toEqual([{ n: 0 }]);
  });

  it('50 concurrent executions are each stored once, with their own outcome', async () => {
    const name = await register(replicaA, first);
    const responses = await Promise.all(Array.from({ length: 50 }, () => execute(replicaA, name)));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    expect(executionsOf(name)).toHaveLength(50);

    const rows: Array<{ id: string; status: string; http_status: number; attempts: number; attempt_log: unknown[]; created_at: Date }> =
      await replicaA.app.get(DataSource).query('SELECT id, status, http_status, attempts, attempt_log, created_at FROM executions WHERE tenant_id = $1', [tenant.tenantId]);
    expect(rows).toHaveLength(50);
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const { body } of responses) {
      const row = byId.get(body.execution.id);
      expect(row).toMatchObject({ status: 'succeeded', http_status: 200, attempts: 1 });
      expect(row!.attempt_log).toHaveLength(1);
      expect(row!.created_at.toISOString()).toBe(body.execution.created_at);
    }
  });

  it('writes outcomes with asynchronous commits where the database allows a second pool, nothing else', async () => {
    const logPool = (replicaA.app.get(ExecutionsRepository) as unknown as { logPool?: { query(sql: string): Promise<{ rows: unknown[] }> } }).logPool;
    expect(await replicaA.app.get(DataSource).query('SHOW synchronous_commit')).toEqual([{ synchronous_commit: 'on' }]);
    if (replicaA.config.databasePoolSize < 2) {
      expect(logPool).toBeUndefined(); // the embedded database: one connection, shared
    } else {
      expect((await logPool!.query('SHOW synchronous_commit')).rows).toEqual([{ synchronous_commit: 'off' }]);
    }
  });
});
