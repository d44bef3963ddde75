import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { ok, Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Concurrency: the contract's "concurrent creates never produce two actions with one name and never take a
 * tenant past its quota", PUT racing DELETE, and HMAC keys rotated while executions go out.
 */
describe('races', () => {
  let testApp: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '1000000000' } });
    receiver = await Receiver.start(ok);
  });
  afterAll(async () => {
    await testApp?.close();
    await receiver?.stop();
  });

  const storedCount = async (tenantId: string, name?: string) =>
    Number(
      (
        await testApp.app
          .get(DataSource)
          .query(`SELECT count(*) FROM actions WHERE tenant_id = $1${name ? ' AND name = $2' : ''}`, name ? [tenantId, name] : [tenantId])
      )[0].count,
    );
  const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((all, s) => ({ ...all, [s]: (all[s] ?? 0) + 1 }), {});

  it('50 concurrent creates of one name: exactly one 201, 49 × 409, one row', async () => {
    const tenant = await createTenant(testApp);
    const body = actionBody(receiver.url());
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: { ...body, description: `attempt ${i}` } })),
    );
    const statuses = responses.map((r) => r.status);
    expect(tally(statuses)).toEqual({ 201: 1, 409: 49 });
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(response.body).toEqual({ error: `action with name '${body.name}' already exists` });
    }
    expect(await storedCount(tenant.tenantId, body.name)).toBe(1);
    const listed = await gateway(testApp, 'GET', '/actions', { token: tenant.jwt });
    expect(listed.body.actions.map((a: { name: string }) => a.name)).toEqual([body.name]);
  });

  it('a tenant at 90 actions, 150 concurrent creates of distinct names: exactly 10 × 201, 140 × 403, 100 stored', async () => {
    const tenant = await createTenant(testApp);
    await testApp.app.get(DataSource).query(
      `INSERT INTO actions (id, tenant_id, name, description, json_schema, webhook_url, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'bulk_' || n, 'd', '{}', 'http://127.0.0.1/', now(), now() FROM generate_series(1, 90) AS n`,
      [tenant.tenantId],
    );
    const responses = await Promise.all(
      Array.from({ length: 150 }, (_, i) => gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url(), { name: `quota_race_${i}` }) })),
    );
    expect(tally(responses.map((r) => r.status))).toEqual({ 201: 10, 403: 140 });
    for (const response of responses.filter((r) => r.status === 403)) {
      expect(response.body).toEqual({ error: 'action limit reached: a tenant may have at most 100 actions' });
    }
    expect(await storedCount(tenant.tenantId)).toBe(100);
    expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt })).body.actions).toHaveLength(100);
  });

  it('PUT racing DELETE on one action, 20 rounds: no 5xx, and a DELETE that answered 204 is not undone', async () => {
    const tenant: TestTenant = await createTenant(testApp);
    const other = await Receiver.start(ok);
    try {
      for (let round = 0; round < 20; round++) {
        const body = actionBody(receiver.url(), { name: `put_delete_${round}` });
        expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body })).status).toBe(201);
        const puts = [
          { description: `put a ${round}` },
          { description: `put b ${round}`, webhook_url: other.url(`/r${round}`) }, // a registration test widens the window
          { json_schema: { type: 'object', properties: { n: { type: 'integer' } } }, description: `put c ${round}` },
        ];
        const deleteFirst = round % 2 === 0;
        const requests = puts.map((put) => () => gateway(testApp, 'PUT', `/actions/${body.name}`, { token: tenant.jwt, body: put }));
        // The DELETE goes out 0 to 36 ms after the PUTs, so some rounds have it land before, during and after them.
        const remove = () => new Promise((r) => setTimeout(r, (round % 10) * 4)).then(() => gateway(testApp, 'DELETE', `/actions/${body.name}`, { token: tenant.jwt }));
        const all = deleteFirst ? [remove, ...requests] : [...requests, remove];
        const responses = await Promise.all(all.map((send) => send()));
        const deleted = responses[deleteFirst ? 0 : responses.length - 1];
        const putResponses = deleteFirst ? responses.slice(1) : responses.slice(0, -1);

        for (const response of responses) expect(response.status).toBeLessThan(500);
        expect(deleted.status).toBe(204);
        for (const response of putResponses) {
          expect([200, 404]).toContain(response.status);
          if (response.status === 404) expect(response.body).toEqual({ error: 'Action not found' });
        }
        // The contract's DELETE is final: a 204 means the action is gone, whatever PUTs raced it.
        const after = await gateway(testApp, 'GET', `/actions/${body.name}`, { token: tenant.jwt });
        const stored = await storedCount(tenant.tenantId, body.name);
        expect({ round, get: after.status, body: after.body, rows: stored }).toEqual({ round, get: 404, body: { error: 'Action not found' }, rows: 0 });
      }
    } finally {
      await other.stop();
    }
  });

  it('HMAC keys rotated while 30 executions run: every delivery verifies with a key that existed, no 5xx', async () => {
    const tenant = await createTenant(testApp);
    const keys: Array<{ id: string; key: string }> = [];
    const listed = await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/hmac-keys`);
    keys.push({ id: listed.body.hmac_keys[0].id, key: tenant.hmacKey });
    const hookPath = `/rotation-${tenant.tenantId}`;
    const body = actionBody(receiver.url(hookPath), { json_schema: { type: 'object' } });
    expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body })).status).toBe(201);

    let rotating = true;
    const rotations: number[] = [];
    const rotate = (async () => {
      while (rotating) {
        const created = await admin(testApp, 'POST', `/tenants/${tenant.tenantId}/hmac-keys`);
        rotations.push(created.status);
        expect(created.status).toBe(201);
        const previous = keys.slice();
        keys.push({ id: created.body.hmac_key.id, key: created.body.hmac_key.key });
        // Revoke every older key (some already revoked: 204 again or 404 are both acceptable, a 5xx is not).
        const revoked = await Promise.all(previous.map((old) => admin(testApp, 'DELETE', `/tenants/${tenant.tenantId}/hmac-keys/${old.id}`)));
        for (const response of revoked) {
          rotations.push(response.status);
          expect(response.status).toBeLessThan(500);
        }
      }
    })();

    const executions = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        new Promise((resolve) => setTimeout(resolve, i * 20)).then(() =>
          gateway(testApp, 'POST', `/actions/${body.name}/execute`, { token: tenant.jwt, body: { parameters: { i, text: `héllo ${i} 😀` } } }),
        ),
      ),
    );
    rotating = false;
    await rotate;

    const statuses = executions.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // A new key is always created before the old ones go, so a key is active throughout: every execution runs.
    expect(tally(statuses)).toEqual({ 200: 30 });
    for (const response of executions) expect(response.body.execution.status).toBe('succeeded');

    const deliveries = receiver.calls.filter((c) => c.path === hookPath);
    expect(deliveries.length).toBe(31); // the registration test and 30 executions
    const failures: string[] = [];
    for (const delivery of deliveries) {
      const headers = {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      };
      const headerOk = keys.some(({ key }) => {
        try {
          new Webhook(key).verify(delivery.body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const sent = JSON.parse(delivery.body);
      const signed = delivery.body.slice(0, delivery.body.lastIndexOf(',"signature"')) + '}';
      const bodyOk = keys.some(({ key }) => createHmac('sha256', key).update(signed).digest('hex') === sent.signature);
      if (!headerOk || !bodyOk) failures.push(`${headers['webhook-id']}: header ${headerOk} body ${bodyOk}`);
    }
    expect(failures).toEqual([]);
    console.log(`HMAC rotation: ${keys.length} keys created during 30 executions; admin statuses ${JSON.stringify(tally(rotations))}`);
    expect(keys.length).toBeGreaterThan(2);
  });
});
