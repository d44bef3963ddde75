import { setTimeout as sleep } from 'node:timers/promises';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { eventually } from './support/eventually';
import { call } from './support/http';
import { Behaviour, executions, Held, ok, ReceivedCall, status } from './support/receiver';
import { appWithReceiver } from './support/test-app';

/** The cooldown of the app whose tests wait it out; the other's is long enough that no test outlasts it. */
const SHORT_COOLDOWN_MS = 4_000;
const LONG_COOLDOWN_MS = 600_000;

/**
 * The circuit breaker per action's receiver: WEBHOOK_BREAKER_FAILURES (5 by default) consecutive failed executions
 * open it, executions then fail at once with nothing sent for WEBHOOK_BREAKER_COOLDOWN_MS, then one probe closes
 * or reopens it. Retries are off here so that one failed execution is one call. Two apps: tests of an open circuit
 * run with a cooldown no busy machine outlasts (else an execution meant to be refused would be the probe), tests
 * of what follows the cooldown with a short one they wait out. A held call (the probe) must outlast the requests
 * made meanwhile, so the webhook timeout is long in both; no test here waits for it.
 */
describe('circuit breaker per action', () => {
  let tenant: TestTenant;

  /** The app and receiver of a describe block, with a new tenant for each test, and the helpers acting on them. */
  function breakerSuite(cooldownMs: number) {
    const suite = appWithReceiver({
      env: { WEBHOOK_BREAKER_FAILURES: '5', WEBHOOK_MAX_RETRIES: '0', WEBHOOK_TIMEOUT_MS: '20000', WEBHOOK_BREAKER_COOLDOWN_MS: String(cooldownMs) },
    });

    beforeEach(async () => {
      tenant = await createTenant(suite.testApp);
    });

    /** An action whose receiver (at its own path) answers executions with `behaviour`, which can be changed. */
    async function actionAt(path: string, owner = tenant): Promise<{ name: string; answer: (behaviour: Behaviour) => void; calls: () => ReceivedCall[] }> {
      let behaviour: Behaviour = ok;
      const previous = suite.receiver.behaviour;
      suite.receiver.behaviour = (received, response) => (received.path === path ? executions(behaviour)(received, response) : previous(received, response));
      const created = await gateway(suite.testApp, 'POST', '/actions', { token: owner.jwt, body: actionBody(suite.receiver.url(path)) });
      expect(created.status).toBe(201);
      return { name: created.body.action.name, answer: (next) => (behaviour = next), calls: () => suite.receiver.calls.filter((received) => received.path === path && !JSON.parse(received.body).test) };
    }

    const execute = (name: string, owner = tenant, headers: Record<string, string> = {}) =>
      gateway(suite.testApp, 'POST', `/actions/${name}/execute`, { token: owner.jwt, body: { parameters: { city: 'Oslo' } }, headers });

    const circuit = async (name: string, owner = tenant) => {
      const response = await admin(suite.testApp, 'GET', `/tenants/${owner.tenantId}/actions/${name}/circuit`);
      expect(response.status).toBe(200);
      return response.body.circuit;
    };

    async function failFiveTimes(name: string): Promise<void> {
      for (let i = 0; i < 5; i++) {
        const response = await execute(name);
        expect(response.status).toBe(200);
        expect(response.body.execution).toMatchObject({ status: 'failed', http_status: 503, error: 'webhook endpoint returned status 503', attempts: 1 });
      }
    }

    /** Waits until the open circuit of `name` lets its probe through. */
    async function cooledDown(name: string): Promise<void> {
      const { retry_at } = await circuit(name);
      await sleep(Math.max(0, Date.parse(retry_at) - Date.now()) + 20);
    }

    return { suite, actionAt, execute, circuit, failFiveTimes, cooledDown };
  }

  describe('with a cooldown no test outlasts', () => {
    const { suite, actionAt, execute, circuit, failFiveTimes } = breakerSuite(LONG_COOLDOWN_MS);

    it('opens after 5 consecutive failed executions: the next fails at once, stored, nothing sent, saying until when; other actions and tenants go on', async () => {
      const action = await actionAt('/down');
      action.answer(status(503));
      const sibling = await actionAt('/sibling');
      const other = await createTenant(suite.testApp);
      const foreign = await actionAt('/foreign', other);
      expect(await circuit(action.name)).toEqual({ state: 'closed', since: null, retry_at: null, consecutive_failures: 0 });

      await failFiveTimes(action.name);
      expect(action.calls()).toHaveLength(5);
      const open = await circuit(action.name);
      expect(open).toEqual({ state: 'open', since: expect.any(String), retry_at: expect.any(String), consecutive_failures: 5 });
      expect(Date.parse(open.retry_at) - Date.parse(open.since)).toBe(LONG_COOLDOWN_MS);

      const refused = await execute(action.name);
      expect(refused.status).toBe(200);
      expect(refused.body.execution).toEqual({
        id: expect.any(String),
        action_name: action.name,
        status: 'failed',
        http_status: null,
        result: null,
        error: `webhook circuit open after 5 consecutive failed executions: no call is sent before ${open.retry_at}`,
        duration_ms: 0,
        attempts: 0,
        created_at: expect.any(String),
      });
      expect(action.calls()).toHaveLength(5);

      // An asynchronous execution goes through the same circuit: it fails without a call.
      const accepted = await execute(action.name, tenant, { prefer: 'respond-async' });
      expect(accepted.status).toBe(202);
      const finished = await eventually(async () => {
        const [stored] = await suite.dataSource.query(`SELECT status, error, attempts FROM executions WHERE id = $1`, [accepted.body.execution.id]);
        expect(stored.status).toBe('failed');
        return stored;
      });
      expect(finished).toEqual({ status: 'failed', attempts: 0, error: `webhook circuit open after 5 consecutive failed executions: no call is sent before ${open.retry_at}` });
      expect(action.calls()).toHaveLength(5);

      // The metrics: this replica's open circuits and the executions failed at once.
      const metrics = (await call(suite.testApp.baseUrl, 'GET', '/metrics')).text;
      expect(metrics).toMatch(/^webhook_circuits\{state="open"\} 1$/m);
      expect(metrics).toMatch(/^executions_short_circuited_total 2$/m);
      expect(metrics).toMatch(/^webhook_circuit_openings_total 1$/m);

      // Stored as failed in the log, with the body that would have been sent (so it can be replayed later).
      const [row] = await suite.dataSource.query(`SELECT status, error, attempts, http_status FROM executions WHERE id = $1`, [refused.body.execution.id]);
      expect(row).toEqual({ status: 'failed', error: refused.body.execution.error, attempts: 0, http_status: null });
      const listed = await gateway(suite.testApp, 'GET', `/actions/${action.name}/executions`, { token: tenant.jwt });
      expect(listed.body.executions.find(({ id }: { id: string }) => id === refused.body.execution.id)).toEqual({ ...refused.body.execution, replay_of: null });
      const detail = await admin(suite.testApp, 'GET', `/tenants/${tenant.tenantId}/actions/${action.name}/executions/${refused.body.execution.id}`);
      expect(detail.body.execution.attempt_log).toEqual([]);
      expect(JSON.parse(detail.body.execution.payload.request.body)).toMatchObject({ action_name: action.name, parameters: { city: 'Oslo' } });

      // The tenant's other action and another tenant's action are not affected.
      expect((await execute(sibling.name)).body.execution).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect((await execute(foreign.name, other)).body.execution).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(sibling.calls()).toHaveLength(1);
      expect(foreign.calls()).toHaveLength(1);
      expect(await circuit(sibling.name)).toMatchObject({ state: 'closed', consecutive_failures: 0 });
    });

    it('counts only failures that mean the receiver is down: a 4xx answer or an error in a 2xx body shows it is up', async () => {
      const action = await actionAt('/picky');
      const fail = async (times: number) => {
        action.answer(status(503));
        for (let i = 0; i < times; i++) await execute(action.name);
      };
      await fail(4);
      action.answer(status(400));
      expect((await execute(action.name)).body.execution).toMatchObject({ status: 'failed', http_status: 400 });
      expect(await circuit(action.name)).toMatchObject({ state: 'closed', consecutive_failures: 0 });
      await fail(4);
      action.answer((_, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: null, error: 'no such city' })));
      expect((await execute(action.name)).body.execution).toMatchObject({ status: 'failed', http_status: 200, error: 'no such city' });
      await fail(4);
      expect(await circuit(action.name)).toMatchObject({ state: 'closed', consecutive_failures: 4 });
      expect(action.calls()).toHaveLength(14);
    });

    it('a new webhook_url starts with a closed circuit', async () => {
      const action = await actionAt('/moved-from');
      action.answer(status(503));
      await failFiveTimes(action.name);
      expect(await circuit(action.name)).toMatchObject({ state: 'open' });
      const updated = await gateway(suite.testApp, 'PUT', `/actions/${action.name}`, { token: tenant.jwt, body: { webhook_url: suite.receiver.url('/moved-to') } });
      expect(updated.status).toBe(200);
      expect(await circuit(action.name)).toEqual({ state: 'closed', since: null, retry_at: null, consecutive_failures: 0 });
      expect((await execute(action.name)).body.execution).toMatchObject({ status: 'succeeded' });
    });

    it('the management API answers 404 for an unknown action or tenant', async () => {
      expect((await admin(suite.testApp, 'GET', `/tenants/${tenant.tenantId}/actions/nope/circuit`)).body).toEqual({ error: 'Action not found' });
      expect((await admin(suite.testApp, 'GET', `/tenants/00000000-0000-4000-8000-000000000000/actions/nope/circuit`)).body).toEqual({ error: 'Tenant not found' });
    });
  });

  describe('with a short cooldown, waited out', () => {
    const { actionAt, execute, circuit, failFiveTimes, cooledDown } = breakerSuite(SHORT_COOLDOWN_MS);

    it('after the cooldown lets one probe through: a success closes the circuit', async () => {
      const action = await actionAt('/recovers');
      action.answer(status(503));
      await failFiveTimes(action.name);
      await cooledDown(action.name);
      action.answer(ok);

      const probe = await execute(action.name);
      expect(probe.body.execution).toMatchObject({ status: 'succeeded', http_status: 200, attempts: 1 });
      expect(action.calls()).toHaveLength(6);
      const closed = await circuit(action.name);
      expect(closed).toEqual({ state: 'closed', since: expect.any(String), retry_at: null, consecutive_failures: 0 });
      expect((await execute(action.name)).body.execution).toMatchObject({ status: 'succeeded' });
      expect(action.calls()).toHaveLength(7);
    });

    it('after the cooldown a failed probe reopens the circuit for another cooldown', async () => {
      const action = await actionAt('/still-down');
      action.answer(status(503));
      await failFiveTimes(action.name);
      const first = await circuit(action.name);
      await cooledDown(action.name);

      const probe = await execute(action.name);
      expect(probe.body.execution).toMatchObject({ status: 'failed', http_status: 503, attempts: 1 });
      expect(action.calls()).toHaveLength(6);
      const reopened = await circuit(action.name);
      expect(reopened).toEqual({ state: 'open', since: expect.any(String), retry_at: expect.any(String), consecutive_failures: 6 });
      expect(Date.parse(reopened.since)).toBeGreaterThanOrEqual(Date.parse(first.retry_at));
      const refused = await execute(action.name);
      expect(refused.body.execution.error).toBe(`webhook circuit open after 6 consecutive failed executions: no call is sent before ${reopened.retry_at}`);
      expect(action.calls()).toHaveLength(6);
    });

    it('sends one probe while half-open: executions arriving meanwhile fail at once without waiting for it', async () => {
      const action = await actionAt('/probe');
      action.answer(status(503));
      await failFiveTimes(action.name);
      await cooledDown(action.name);
      const held = new Held();
      action.answer(held.behaviour);

      const probe = execute(action.name);
      await eventually(() => expect(held.responses).toHaveLength(1));
      expect(await circuit(action.name)).toMatchObject({ state: 'half_open', retry_at: null });
      const during = await Promise.all([1, 2, 3, 4].map(() => execute(action.name)));
      for (const response of during) {
        expect(response.body.execution).toMatchObject({ status: 'failed', attempts: 0, http_status: null });
        expect(response.body.execution.error).toMatch(/^webhook circuit half-open: a probe call is under way, no other call is sent until it ends \(by \d{4}-\d\d-\d\dT[\d:.]+Z\)$/);
      }
      expect(action.calls()).toHaveLength(6);

      held.release(200, { result: 'back', error: '' });
      expect((await probe).body.execution).toMatchObject({ status: 'succeeded', result: 'back' });
      expect(await circuit(action.name)).toMatchObject({ state: 'closed' });
    });
  });
});
