import { randomUUID } from 'node:crypto';
import { actionBody, admin, createTenant, gateway } from './support/factories';
import { redeemPortalLink, withSession } from './support/console-session';
import { Receiver, status } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A tenant's actions and executions through the management API (what the console calls): the gateway's own rules,
 * the execution log with every attempt, and the tenant's rate limit on executions.
 */
describe('management API: a tenant\'s actions and executions (issue 13)', () => {
  let testApp: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    // A small hourly budget, to show executions from the console share it with the tenant's bearer requests.
    testApp = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '6', WEBHOOK_MAX_RETRIES: '2' } });
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver?.stop();
    await testApp?.close();
  });

  it('registers, reads, changes and deletes an action with the gateway\'s rules', async () => {
    const { tenantId, jwt } = await createTenant(testApp);
    const body = actionBody(receiver.url('/a'));
    const created = await admin(testApp, 'POST', `/tenants/${tenantId}/actions`, body);
    expect(created.status).toBe(201);
    expect(created.body.action).toMatchObject({ tenant_id: tenantId, name: body.name, json_schema: body.json_schema });
    expect(JSON.parse(receiver.calls[receiver.calls.length - 1].body)).toMatchObject({ action_name: body.name, test: true });

    // The same action through the gateway, with the tenant's bearer token.
    expect((await gateway(testApp, 'GET', `/actions/${body.name}`, { token: jwt })).body).toEqual(created.body);
    expect((await admin(testApp, 'GET', `/tenants/${tenantId}/actions`)).body).toEqual({ actions: [created.body.action], next_cursor: null });
    expect((await admin(testApp, 'GET', `/tenants/${tenantId}/actions/${body.name}`)).body).toEqual(created.body);

    const taken = await admin(testApp, 'POST', `/tenants/${tenantId}/actions`, body);
    expect([taken.status, taken.body]).toEqual([409, { error: `action with name '${body.name}' already exists` }]);

    const changed = await admin(testApp, 'PUT', `/tenants/${tenantId}/actions/${body.name}`, { description: 'Changed' });
    expect(changed.body.action.description).toBe('Changed');
    expect((await admin(testApp, 'DELETE', `/tenants/${tenantId}/actions/${body.name}`)).status).toBe(204);
    const gone = await admin(testApp, 'GET', `/tenants/${tenantId}/actions/${body.name}`);
    expect([gone.status, gone.body]).toEqual([404, { error: 'Action not found' }]);
  });

  it('gives the spec\'s text when the webhook refuses the registration test, and stores nothing', async () => {
    const failing = await Receiver.start(status(500));
    try {
      const { tenantId } = await createTenant(testApp);
      const refused = await admin(testApp, 'POST', `/tenants/${tenantId}/actions`, actionBody(failing.url()));
      expect([refused.status, refused.body]).toEqual([400, { error: 'action validation failed: webhook endpoint returned status 500' }]);
      expect((await admin(testApp, 'GET', `/tenants/${tenantId}/actions`)).body).toEqual({ actions: [], next_cursor: null });
    } finally {
      await failing.stop();
    }
  });

  it('answers Tenant not found for an unknown tenant, and needs the admin key or a session', async () => {
    const unknown = await admin(testApp, 'GET', `/tenants/${randomUUID()}/actions`);
    expect([unknown.status, unknown.body]).toEqual([404, { error: 'Tenant not found' }]);
    expect((await admin(testApp, 'GET', '/tenants/not-a-uuid/actions/x/executions')).status).toBe(404);
    const { tenantId } = await createTenant(testApp);
    const noKey = await fetch(`${testApp.baseUrl}/api/v1/admin/tenants/${tenantId}/actions`);
    expect([noKey.status, await noKey.json()]).toEqual([401, { error: 'Invalid token' }]);
  });

  it('runs an action and shows its log with every attempt, filtered by status, newest first', async () => {
    const { tenantId } = await createTenant(testApp);
    const body = actionBody(receiver.url('/log'));
    await admin(testApp, 'POST', `/tenants/${tenantId}/actions`, body);
    const path = `/tenants/${tenantId}/actions/${body.name}`;

    receiver.behaviour = (_, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"fine","error":""}');
    const first = await admin(testApp, 'POST', `${path}/execute`, { parameters: { city: 'Oslo' } });
    expect(first.status).toBe(200);
    expect(first.body.execution).toMatchObject({ action_name: body.name, status: 'succeeded', http_status: 200, result: 'fine', error: '', attempts: 1 });
    expect(JSON.parse(receiver.calls[receiver.calls.length - 1].body).parameters).toEqual({ city: 'Oslo' });

    receiver.behaviour = status(503);
    const second = await admin(testApp, 'POST', `${path}/execute`, { parameters: { city: 'Bergen' } });
    expect(second.body.execution).toMatchObject({ status: 'failed', attempts: 3, error: 'webhook endpoint returned status 503' });
    receiver.behaviour = status(200);

    const log = await admin(testApp, 'GET', `${path}/executions`);
    expect(log.status).toBe(200);
    expect(log.body.executions.map((execution: any) => execution.id)).toEqual([second.body.execution.id, first.body.execution.id]);
    const [failed, succeeded] = log.body.executions;
    expect(Object.keys(failed).sort()).toEqual(['action_name', 'attempt_log', 'attempts', 'created_at', 'duration_ms', 'error', 'http_status', 'id', 'replay_of', 'result', 'status']);
    expect(failed.attempt_log).toHaveLength(3);
    failed.attempt_log.forEach((attempt: any, index: number) => {
      expect(Object.keys(attempt).sort()).toEqual(['attempt', 'duration_ms', 'error', 'http_status', 'started_at']);
      expect(attempt).toMatchObject({ attempt: index + 1, http_status: 503, error: 'webhook endpoint returned status 503' });
      expect(attempt.started_at).toMatch(ISO_MS);
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
    });
    expect(succeeded.attempt_log).toEqual([expect.objectContaining({ attempt: 1, http_status: 200, error: '' })]);

    expect((await admin(testApp, 'GET', `${path}/executions?status=failed`)).body.executions.map((execution: any) => execution.id)).toEqual([failed.id]);
    expect((await admin(testApp, 'GET', `${path}/executions?status=succeeded`)).body.executions.map((execution: any) => execution.id)).toEqual([succeeded.id]);
    expect((await admin(testApp, 'GET', `${path}/executions?limit=1`)).body.executions.map((execution: any) => execution.id)).toEqual([failed.id]);
    const badStatus = await admin(testApp, 'GET', `${path}/executions?status=done`);
    expect([badStatus.status, badStatus.body]).toEqual([400, { error: 'Invalid request', details: 'status: must be "succeeded", "failed", "pending" or "running"' }]);
    const badLimit = await admin(testApp, 'GET', `${path}/executions?limit=0`);
    expect([badLimit.status, badLimit.body]).toEqual([400, { error: 'Invalid request', details: 'limit: must be a positive integer' }]);

    // The lookup adds what was sent and what came back (test/execution-log.e2e-spec.ts).
    expect((await admin(testApp, 'GET', `${path}/executions/${failed.id}`)).body).toEqual({ execution: { ...failed, idempotency_key: null, payload: expect.objectContaining({ status: 'kept' }) } });
    for (const id of [randomUUID(), 'nope']) {
      const missing = await admin(testApp, 'GET', `${path}/executions/${id}`);
      expect([missing.status, missing.body]).toEqual([404, { error: 'Execution not found' }]);
    }
    // An execution of another action is not found under this one.
    const other = actionBody(receiver.url('/other'));
    await admin(testApp, 'POST', `/tenants/${tenantId}/actions`, other);
    const elsewhere = await admin(testApp, 'GET', `/tenants/${tenantId}/actions/${other.name}/executions/${failed.id}`);
    expect(elsewhere.status).toBe(404);
  });

  it('checks parameters and the HMAC key as the gateway does', async () => {
    const { tenantId } = await createTenant(testApp, { hmacKey: false });
    const body = actionBody(receiver.url('/checks'));
    await admin(testApp, 'POST', `/tenants/${tenantId}/actions`, body);
    const path = `/tenants/${tenantId}/actions/${body.name}/execute`;
    const invalid = await admin(testApp, 'POST', path, { parameters: { city: 7 } });
    expect([invalid.status, invalid.body]).toEqual([400, { error: 'Invalid parameters', details: 'parameters.city: must be string' }]);
    const noKey = await admin(testApp, 'POST', path, { parameters: { city: 'Oslo' } });
    expect([noKey.status, noKey.body]).toEqual([409, { error: 'no active HMAC key for this tenant' }]);
  });

  it('counts executions from the console against the tenant\'s hourly budget, shared with its bearer requests', async () => {
    const { tenantId, jwt } = await createTenant(testApp);
    const body = actionBody(receiver.url('/budget'));
    await admin(testApp, 'POST', `/tenants/${tenantId}/actions`, body); // not a bearer request: not counted
    const execute = `/tenants/${tenantId}/actions/${body.name}/execute`;

    for (let i = 0; i < 3; i += 1) expect((await gateway(testApp, 'GET', '/actions', { token: jwt })).status).toBe(200);
    for (let i = 0; i < 3; i += 1) {
      // The tenant id in any case is the same tenant, and the same budget.
      const run = await admin(testApp, 'POST', i === 1 ? execute.replace(tenantId, tenantId.toUpperCase()) : execute, { parameters: { city: 'Oslo' } });
      expect(run.status).toBe(200);
      expect(run.headers.get('x-ratelimit-limit')).toBe('6');
      expect(run.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
    }
    const refused = await admin(testApp, 'POST', execute, { parameters: { city: 'Oslo' } });
    expect([refused.status, refused.body]).toEqual([429, { error: 'Rate limit exceeded' }]);
    expect((await admin(testApp, 'POST', execute.replace(tenantId, tenantId.toUpperCase()), { parameters: { city: 'Oslo' } })).status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await gateway(testApp, 'GET', '/actions', { token: jwt })).status).toBe(429);
    // An operator's reading of the log counts against the operators' budget, not the tenant's.
    expect((await admin(testApp, 'GET', `/tenants/${tenantId}/actions/${body.name}/executions`)).body.executions).toHaveLength(3);
  });

  it('lets a tenant session run its own actions (with the CSRF token) and no other tenant\'s', async () => {
    const own = await createTenant(testApp);
    const other = await createTenant(testApp);
    const mine = actionBody(receiver.url('/mine'));
    const theirs = actionBody(receiver.url('/theirs'));
    await admin(testApp, 'POST', `/tenants/${own.tenantId}/actions`, mine);
    await admin(testApp, 'POST', `/tenants/${other.tenantId}/actions`, theirs);
    const link = (await admin(testApp, 'POST', `/tenants/${own.tenantId}/portal-links`)).body.portal_link;
    const session = await redeemPortalLink(testApp.baseUrl, link.token);

    const withoutCsrf = await withSession(testApp.baseUrl, session, 'POST', `/tenants/${own.tenantId}/actions/${mine.name}/execute`, { parameters: { city: 'Oslo' } }, null);
    expect([withoutCsrf.status, withoutCsrf.body]).toEqual([403, { error: 'Missing or invalid CSRF token' }]);
    const run = await withSession(testApp.baseUrl, session, 'POST', `/tenants/${own.tenantId}/actions/${mine.name}/execute`, { parameters: { city: 'Oslo' } });
    expect(run.body.execution.status).toBe('succeeded');

    for (const [method, path] of [
      ['POST', `/tenants/${other.tenantId}/actions/${theirs.name}/execute`],
      ['GET', `/tenants/${other.tenantId}/actions/${theirs.name}/executions`],
      ['DELETE', `/tenants/${other.tenantId}/actions/${theirs.name}`],
      ['PUT', `/tenants/${other.tenantId}/actions/${theirs.name}`],
    ]) {
      const body = { GET: undefined, DELETE: undefined, PUT: { description: 'mine now' }, POST: { parameters: { city: 'x' } } }[method];
      const response = await withSession(testApp.baseUrl, session, method, path, body);
      expect([path, response.status, response.body]).toEqual([path, 404, { error: 'Tenant not found' }]);
    }
    expect((await admin(testApp, 'GET', `/tenants/${other.tenantId}/actions/${theirs.name}`)).body.action.description).toBe(theirs.description);
    expect((await admin(testApp, 'GET', `/tenants/${other.tenantId}/actions/${theirs.name}/executions`)).body.executions).toEqual([]);
  });
});
