import { ServerResponse } from 'node:http';
import { DataSource } from 'typeorm';
import { ExecutionLogPools } from '../src/executions/execution-log-pools';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { ok, Receiver } from './support/receiver';
import { expectSignedOnlyWith } from './support/signatures';
import { runMaintenance } from './support/maintenance';
import { startTestApp, TestApp } from './support/test-app';

/**
 * What makes executions fast must not make them wrong: the action and the tenant's keys come from the read
 * model's memory (changes through this replica or another take effect at the next execution: see
 * read-model.e2e-spec.ts), and executions finishing together are stored with one INSERT.
 */
describe('the execution hot path: reused definitions and grouped inserts', () => {
  let service: TestApp;
  let first: Receiver;
  let second: Receiver;
  let tenant: TestTenant;

  beforeAll(async () => {
    service = await startTestApp();
    first = await Receiver.start();
    second = await Receiver.start();
  });
  afterAll(async () => {
    await service?.close();
    await first?.stop();
    await second?.stop();
  });
  beforeEach(async () => {
    first.behaviour = ok;
    second.behaviour = ok;
    tenant = await createTenant(service);
  });

  async function register(on: TestApp, receiver: Receiver): Promise<string> {
    const created = await gateway(on, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) });
    expect(created.status).toBe(201);
    return created.body.action.name;
  }
  const execute = (on: TestApp, name: string) => gateway(on, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'Oslo' } } });
  const executionsOf = (name: string) => first.calls.concat(second.calls).filter((call) => JSON.parse(call.body).action_name === name && !JSON.parse(call.body).test);

  it('an action changed or deleted through this replica takes effect at its next execution', async () => {
    const name = await register(service, first);
    expect((await execute(service, name)).status).toBe(200);

    expect((await gateway(service, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { webhook_url: second.url() } })).status).toBe(200);
    const before = second.calls.length;
    expect((await execute(service, name)).body.execution.status).toBe('succeeded');
    expect(second.calls.length).toBe(before + 1);

    expect((await gateway(service, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { json_schema: { type: 'object', required: ['zip'] } } })).status).toBe(200);
    const refused = await execute(service, name);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Invalid parameters');

    expect((await gateway(service, 'DELETE', `/actions/${name}`, { token: tenant.jwt })).status).toBe(204);
    expect(await execute(service, name)).toMatchObject({ status: 404, body: { error: 'Action not found' } });
  });

  it('a key created or revoked through this replica signs, or stops signing, the next execution', async () => {
    const name = await register(service, first);
    expect((await execute(service, name)).status).toBe(200);
    const keys = (await admin(service, 'GET', `/tenants/${tenant.tenantId}/hmac-keys`)).body.hmac_keys;
    const newer = (await admin(service, 'POST', `/tenants/${tenant.tenantId}/hmac-keys`)).body.hmac_key;
    expect((await admin(service, 'DELETE', `/tenants/${tenant.tenantId}/hmac-keys/${keys[0].id}`)).status).toBe(204);

    const mark = first.calls.length;
    expect((await execute(service, name)).status).toBe(200);
    const [call] = first.calls.slice(mark);
    expectSignedOnlyWith(call, newer.key, tenant.hmacKey);
  });

  it('an action deleted while its webhook runs: the caller gets the outcome, no 5xx, and the log maintenance purges the late row', async () => {
    const name = await register(service, first);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const hasArrived = new Promise<void>((resolve) => (arrived = resolve));
    first.behaviour = (call, response: ServerResponse) => {
      arrived();
      void held.then(() => ok(call, response));
    };

    const running = execute(service, name);
    await hasArrived;
    expect((await gateway(service, 'DELETE', `/actions/${name}`, { token: tenant.jwt })).status).toBe(204);
    release();
    const response = await running;

    expect(response.status).toBe(200);
    expect(response.body.execution).toMatchObject({ action_name: name, status: 'succeeded', http_status: 200 });
    // Stored after the action's history was queued for purging: the next maintenance run takes it too.
    expect((await runMaintenance(service.app)).ran).toBe(true);
    const stored = await service.app.get(DataSource).query('SELECT count(*)::int AS n FROM executions WHERE id = $1', [response.body.execution.id]);
    expect(stored).toEqual([{ n: 0 }]);
  });

  it('50 concurrent executions are each stored once, with their own outcome', async () => {
    const name = await register(service, first);
    const responses = await Promise.all(Array.from({ length: 50 }, () => execute(service, name)));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    expect(executionsOf(name)).toHaveLength(50);

    const rows: Array<{ id: string; status: string; http_status: number; attempts: number; attempt_log: unknown[]; created_at: Date }> =
      await service.app.get(DataSource).query('SELECT id, status, http_status, attempts, attempt_log, created_at FROM executions WHERE tenant_id = $1', [tenant.tenantId]);
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
    const logPool = (service.app.get(ExecutionLogPools) as unknown as { logPool?: { query(sql: string): Promise<{ rows: unknown[] }> } }).logPool;
    expect(await service.app.get(DataSource).query('SHOW synchronous_commit')).toEqual([{ synchronous_commit: 'on' }]);
    if (service.config.databasePoolSize < 2) {
      expect(logPool).toBeUndefined(); // the embedded database: one connection, shared
    } else {
      expect((await logPool!.query('SHOW synchronous_commit')).rows).toEqual([{ synchronous_commit: 'off' }]);
    }
  });
});
