import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { eventually } from './support/eventually';
import { Behaviour, executions, Held, ok, ReceivedCall } from './support/receiver';
import { appWithReceiver } from './support/test-app';

const UNFINISHED_LIMIT = 3;

const json =
  (status: number, body: unknown): Behaviour =>
  (_, response) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const signedPart = (body: string) => body.slice(0, body.lastIndexOf(',"signature"')) + '}';

/**
 * `Prefer: respond-async` on execute: 202 at once with the pending execution, checked first as a
 * synchronous execute is, then run in the background from the job queue with the same signing, retries and log.
 */
describe('asynchronous executions (Prefer: respond-async)', () => {
  // Calls held by the receiver must outlast the requests a test makes meanwhile on a busy machine: a call that timed
  // out is not retried, so a short timeout would end a held execution before the test releases it. The time-out
  // itself is tested below, on an app of its own. The lease stays above the timeout, as the configuration requires.
  const suite = appWithReceiver({
    env: { WEBHOOK_TIMEOUT_MS: '20000', ASYNC_EXECUTION_LEASE_MS: '25000', ASYNC_EXECUTIONS_PER_TENANT: String(UNFINISHED_LIMIT) },
  });
  let tenant: TestTenant;

  beforeEach(async () => {
    suite.receiver.behaviour = ok;
    tenant = await createTenant(suite.testApp);
  });

  async function actionAnswering(behaviour: Behaviour, overrides: Record<string, unknown> = {}, owner = tenant): Promise<string> {
    suite.receiver.behaviour = ok;
    const created = await gateway(suite.testApp, 'POST', '/actions', { token: owner.jwt, body: actionBody(suite.receiver.url(), overrides) });
    expect(created.status).toBe(201);
    suite.receiver.behaviour = executions(behaviour);
    return created.body.action.name;
  }

  const executeAsync = (name: string, body: unknown = { parameters: { city: 'Oslo' } }, owner = tenant, prefer = 'respond-async') =>
    gateway(suite.testApp, 'POST', `/actions/${name}/execute`, { token: owner.jwt, body, headers: { prefer } });

  const detail = (location: string, owner = tenant) => gateway(suite.testApp, 'GET', location.replace('/api/v1/gateway', ''), { token: owner.jwt });

  const stored = async (id: string) =>
    (await suite.dataSource.query(`SELECT status, attempts, http_status, result, error, payload FROM executions WHERE id = $1`, [id])) as Array<Record<string, unknown>>;

  const callsFor = (id: string): ReceivedCall[] => suite.receiver.calls.filter((call) => call.headers['webhook-id'] === id);

  it('answers 202 at once with the pending execution, then runs it signed, and its page shows the outcome', async () => {
    const held = new Held();
    const name = await actionAnswering(held.behaviour);

    const response = await executeAsync(name, { parameters: { city: 'Zürich 😀', days: 3 } });

    expect(response.status).toBe(202);
    expect(response.headers.get('preference-applied')).toBe('respond-async');
    const execution = response.body.execution;
    expect(response.headers.get('location')).toBe(`/api/v1/gateway/executions/${execution.id}`);
    expect(response.body).toEqual({
      execution: { id: execution.id, action_name: name, status: 'pending', http_status: null, result: null, error: '', duration_ms: 0, attempts: 0, created_at: execution.created_at },
    });
    expect(response.headers.get('x-ratelimit-remaining')).not.toBeNull();

    // Running: the call is out, the receiver holds it.
    await eventually(() => expect(callsFor(execution.id)).toHaveLength(1));
    const running = await detail(response.headers.get('location')!);
    expect(running.status).toBe(200);
    expect(running.body.execution).toMatchObject({ id: execution.id, status: 'running', attempts: 0, attempt_log: [], payload: { status: 'pending', request: null, attempts: null } });

    held.release(200, { result: 'Sunny, 21 °C', error: '' });
    const finished = await eventually(async () => {
      const read = await detail(response.headers.get('location')!);
      expect(read.body.execution.status).toBe('succeeded');
      return read.body.execution;
    });
    expect(finished).toMatchObject({ id: execution.id, action_name: name, status: 'succeeded', http_status: 200, result: 'Sunny, 21 °C', error: '', attempts: 1, created_at: execution.created_at });
    expect(finished.attempt_log).toEqual([expect.objectContaining({ attempt: 1, http_status: 200, error: '' })]);
    expect(finished.payload.status).toBe('kept');
    expect(await stored(execution.id)).toEqual([{ status: 'succeeded', attempts: 1, http_status: 200, result: 'Sunny, 21 °C', error: '', payload: 'kept' }]);

    // Signed as a synchronous execution is, under the execution's id.
    const [call] = callsFor(execution.id);
    const sent = JSON.parse(call.body);
    expect(sent).toMatchObject({ action_name: name, parameters: { city: 'Zürich 😀', days: 3 } });
    expect(sent.signature).toBe(createHmac('sha256', tenant.hmacKey).update(signedPart(call.body)).digest('hex'));
    expect(new Webhook(tenant.hmacKey).verify(call.body, call.headers as Record<string, string>)).toEqual(sent);
    expect(finished.payload.request.body).toBe(call.body);
  });

  it('checks before answering: bad parameters, an unknown action and a missing HMAC key get the synchronous answers, and nothing is stored or sent', async () => {
    const name = await actionAnswering(ok);
    const before = suite.receiver.calls.length;
    const count = async () => Number((await suite.dataSource.query(`SELECT count(*) AS n FROM executions WHERE tenant_id = $1`, [tenant.tenantId]))[0].n);

    const invalid = await executeAsync(name, { parameters: { city: 7 } });
    expect([invalid.status, invalid.body]).toEqual([400, { error: 'Invalid parameters', details: 'parameters.city: must be string' }]);
    expect(invalid.headers.get('preference-applied')).toBeNull();
    const unknownField = await executeAsync(name, { city: 'Oslo' });
    expect(unknownField.status).toBe(400);
    const missing = await executeAsync('no_such_action');
    expect([missing.status, missing.body]).toEqual([404, { error: 'Action not found' }]);
    const keyless = await createTenant(suite.testApp, { hmacKey: false });
    const keylessAction = await actionAnswering(ok, {}, keyless);
    const noKey = await executeAsync(keylessAction, undefined, keyless);
    expect([noKey.status, noKey.body]).toEqual([409, { error: 'no active HMAC key for this tenant' }]);

    expect(await count()).toBe(0);
    expect(suite.receiver.calls.slice(before).filter((call) => !JSON.parse(call.body).test)).toEqual([]);
  });

  it('reads Prefer as RFC 7240 does: among other preferences, in any case; without it the answer is the synchronous 200', async () => {
    const name = await actionAnswering(json(200, { result: 'ok', error: '' }));
    const mixed = await executeAsync(name, undefined, tenant, 'wait=10, Respond-Async');
    expect(mixed.status).toBe(202);
    const other = await executeAsync(name, undefined, tenant, 'return=minimal');
    expect([other.status, other.body.execution.status]).toEqual([200, 'succeeded']);
    expect(other.headers.get('preference-applied')).toBeNull();
  });

  it('retries as a synchronous execution does, and shows the attempts so far while it runs', async () => {
    const held = new Held();
    let attempts = 0;
    const name = await actionAnswering((call, response) => (++attempts === 1 ? json(503, {})(call, response) : held.behaviour(call, response)));

    const { body } = await executeAsync(name);
    const location = `/api/v1/gateway/executions/${body.execution.id}`;
    const running = await eventually(async () => {
      const read = await detail(location);
      expect(read.body.execution).toMatchObject({ status: 'running', attempts: 1 });
      return read.body.execution;
    });
    expect(running.attempt_log).toEqual([expect.objectContaining({ attempt: 1, http_status: 503, error: 'webhook endpoint returned status 503' })]);

    await eventually(() => expect(held.responses).toHaveLength(1));
    held.release();
    const finished = await eventually(async () => {
      const read = await detail(location);
      expect(read.body.execution.status).toBe('succeeded');
      return read.body.execution;
    });
    expect(finished.attempts).toBe(2);
    expect(finished.attempt_log.map((attempt: { attempt: number; http_status: number }) => [attempt.attempt, attempt.http_status])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    expect(callsFor(body.execution.id).map((call) => call.headers['webhook-id'])).toEqual([body.execution.id, body.execution.id]);
  });

  it('forwards the parameters as written: every digit of a number, keys in their order', async () => {
    const name = await actionAnswering(json(200, { result: 'ok', error: '' }), { json_schema: {} });
    const raw = '{"parameters":{"b":1,"10":2,"big":9007199254740993,"price":1.10}}';
    const response = await gateway(suite.testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, raw, headers: { prefer: 'respond-async' } });
    expect(response.status).toBe(202);
    await eventually(() => expect(callsFor(response.body.execution.id)).toHaveLength(1));
    expect(callsFor(response.body.execution.id)[0].body).toContain('"parameters":{"b":1,"10":2,"big":9007199254740993,"price":1.1}');
  });

  it('bounds what a tenant may have unfinished: past ASYNC_EXECUTIONS_PER_TENANT, 429 and nothing stored; other tenants go on', async () => {
    const held = new Held();
    const name = await actionAnswering(held.behaviour);
    const accepted = await Promise.all(Array.from({ length: UNFINISHED_LIMIT }, () => executeAsync(name)));
    expect(accepted.map((response) => response.status)).toEqual(Array(UNFINISHED_LIMIT).fill(202));

    const refused = await executeAsync(name);
    expect([refused.status, refused.body]).toEqual([
      429,
      { error: `too many unfinished asynchronous executions: a tenant may have at most ${UNFINISHED_LIMIT} pending or running` },
    ]);
    expect(refused.headers.get('retry-after')).toBe('5');
    const unfinished = await suite.dataSource.query(`SELECT count(*)::int AS n FROM executions WHERE tenant_id = $1 AND status IN ('pending', 'running')`, [tenant.tenantId]);
    expect(unfinished).toEqual([{ n: UNFINISHED_LIMIT }]);
    // The synchronous path is not bounded by it.
    const other = await createTenant(suite.testApp);
    const otherAction = await actionAnswering(json(200, { result: 'ok', error: '' }), {}, other);
    expect((await executeAsync(otherAction, undefined, other)).status).toBe(202);

    // The pending ones are listed, and filtered by status.
    const listed = await gateway(suite.testApp, 'GET', `/executions?status=running`, { token: tenant.jwt });
    const pendingOrRunning = (await gateway(suite.testApp, 'GET', `/executions?status=pending`, { token: tenant.jwt })).body.executions.length + listed.body.executions.length;
    expect(pendingOrRunning).toBe(UNFINISHED_LIMIT);

    await eventually(() => expect(held.responses).toHaveLength(UNFINISHED_LIMIT));
    held.release();
    await eventually(async () => expect((await gateway(suite.testApp, 'GET', `/executions?status=succeeded`, { token: tenant.jwt })).body.executions).toHaveLength(UNFINISHED_LIMIT));
    suite.receiver.behaviour = executions(json(200, { result: 'ok', error: '' }));
    expect((await executeAsync(name)).status).toBe(202);
  });

  it('refuses a replay of an execution still running', async () => {
    const held = new Held();
    const name = await actionAnswering(held.behaviour);
    const { body } = await executeAsync(name);
    await eventually(() => expect(held.responses).toHaveLength(1));
    const replay = await gateway(suite.testApp, 'POST', `/actions/${name}/executions/${body.execution.id}/replay`, { token: tenant.jwt });
    expect([replay.status, replay.body]).toEqual([409, { error: 'execution cannot be replayed: it has not finished yet' }]);
    expect((await detail(`/api/v1/gateway/executions/${body.execution.id}`)).body.execution.status).toBe('running');
    held.release();
    await eventually(async () => expect((await detail(`/api/v1/gateway/executions/${body.execution.id}`)).body.execution.status).toBe('succeeded'));
  });

  it('is available on the management API, whose Location is its own detail route', async () => {
    const name = await actionAnswering(json(200, { result: 'from the console', error: '' }));
    const response = await fetch(`${suite.testApp.baseUrl}/api/v1/admin/tenants/${tenant.tenantId}/actions/${name}/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.testApp.config.adminApiKey}`, 'content-type': 'application/json', prefer: 'respond-async' },
      body: JSON.stringify({ parameters: { city: 'Oslo' } }),
    });
    expect(response.status).toBe(202);
    const { execution } = (await response.json()) as { execution: { id: string; status: string } };
    expect(execution.status).toBe('pending');
    expect(response.headers.get('location')).toBe(`/api/v1/admin/tenants/${tenant.tenantId}/executions/${execution.id}`);
    const finished = await eventually(async () => {
      const read = await admin(suite.testApp, 'GET', `/tenants/${tenant.tenantId}/executions/${execution.id}`);
      expect(read.body.execution.status).toBe('succeeded');
      return read.body.execution;
    });
    expect(finished.result).toBe('from the console');
  });
});

/** The time-out of an asynchronous execution, on an app whose WEBHOOK_TIMEOUT_MS is short enough to wait out. */
describe('asynchronous executions under a short WEBHOOK_TIMEOUT_MS', () => {
  // The lease well above the timeout: a loaded machine storing the timed-out outcome late must not lose the run
  // to another (a second call).
  const suite = appWithReceiver({ env: { WEBHOOK_TIMEOUT_MS: '2000', ASYNC_EXECUTION_LEASE_MS: '10000' } });

  it('times out as a synchronous execution does', async () => {
    const tenant = await createTenant(suite.testApp);
    const action = actionBody(suite.receiver.url());
    expect((await gateway(suite.testApp, 'POST', '/actions', { token: tenant.jwt, body: action })).status).toBe(201);
    const held = new Held();
    suite.receiver.behaviour = executions(held.behaviour);

    const { status, body } = await gateway(suite.testApp, 'POST', `/actions/${action.name}/execute`, {
      token: tenant.jwt,
      body: { parameters: { city: 'Oslo' } },
      headers: { prefer: 'respond-async' },
    });
    expect(status).toBe(202);
    const finished = await eventually(async () => {
      const read = await gateway(suite.testApp, 'GET', `/executions/${body.execution.id}`, { token: tenant.jwt });
      expect(read.body.execution.status).toBe('failed');
      return read.body.execution;
    });
    expect(finished).toMatchObject({ status: 'failed', http_status: null, error: 'webhook timed out after 2000 ms', attempts: 1 });
    expect(held.responses).toHaveLength(1);
    held.release();
  });
});
