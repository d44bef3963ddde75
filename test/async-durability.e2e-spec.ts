import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { testDatabase } from './support/database';
import { eventually } from './support/eventually';
import { call } from './support/http';
import { runCliAsync, ServiceProcess } from './support/process';
import { Receiver, ReceivedCall } from './support/receiver';
import { describeIf, postgresServer } from './support/requirements';

/** A service's start on a fresh DATA_DIR (the embedded database's first migrations) on a loaded 2-core machine. */
const STARTUP_MS = 90_000;
/**
 * The first call must still be out when its replica is killed, so the webhook budget must outlast seeing the call
 * arrive, finding the replica that runs it and killing it, on a loaded machine. With 3 s, once, with the suite
 * running beside it, the execution ended failed instead of being finished by the other replica: most likely its
 * one attempt timed out before the kill, and the failure was stored. The lease
 * is the shortest the configuration allows with it (WEBHOOK_TIMEOUT_MS + 1 s).
 */
const ASYNC_ENV = { WEBHOOK_TIMEOUT_MS: '8000', ASYNC_EXECUTION_LEASE_MS: '9000', RATE_LIMIT_PER_HOUR: '1000000', LOG_LEVEL: 'error' };

/**
 * A receiver that holds the first execution call it gets (as one would that is slow), and answers later ones:
 * the service is killed while that first call is out.
 */
function holdingReceiver(): Promise<Receiver & { held: ServerResponse[] }> {
  const held: ServerResponse[] = [];
  return Receiver.start((received, response) => {
    const body = JSON.parse(received.body) as { test?: boolean };
    if (body.test || held.length > 0) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'done after the crash', error: '' }));
    } else {
      held.push(response);
    }
  }).then((receiver) => Object.assign(receiver, { held }));
}

const executionCalls = (receiver: Receiver, id: string): ReceivedCall[] => receiver.calls.filter((received) => received.headers['webhook-id'] === id);

/**
 * The async execution killed mid-call and finished by the next replica: the pending row and its job were committed
 * before the 202, the killed replica's lease expires, and another run sends the same call again under the same
 * webhook-id (at least once), then stores the outcome.
 */
async function killMidCallAndFinish(options: {
  receiver: Receiver & { held: ServerResponse[] };
  /** The replicas running (one, or two side by side); the first is asked to execute, and the one that runs the call is killed. */
  replicas: Array<{ service: ServiceProcess; url: string }>;
  jwt: string;
  actionName: string;
  hmacKey: string;
  /** The replica that finishes it, given the one killed: the same one restarted, or the other one. */
  next: (killed: { service: ServiceProcess; url: string }) => Promise<string>;
}): Promise<void> {
  const { receiver, jwt, actionName, hmacKey } = options;
  const firstUrl = options.replicas[0].url;
  const accepted = await call(firstUrl, 'POST', `/api/v1/gateway/actions/${actionName}/execute`, {
    token: jwt,
    body: { parameters: { city: 'Oslo' } },
    headers: { prefer: 'respond-async' },
  });
  expect(accepted.status).toBe(202);
  const id = accepted.body.execution.id as string;
  await eventually(() => expect(executionCalls(receiver, id)).toHaveLength(1), 20_000);
  // Whichever replica took the job (the one asked, woken at once, or the other, polling) is the one killed.
  const running = await Promise.all(options.replicas.map(async (replica) => /^async_executions_running 1$/m.test((await call(replica.url, 'GET', '/metrics')).text)));
  expect(running.filter(Boolean)).toHaveLength(1);
  const killed = options.replicas[running.indexOf(true)];

  killed.service.child.kill('SIGKILL');
  expect((await killed.service.exit()).signal).toBe('SIGKILL');
  // The killed replica's connection to the receiver is gone; nothing answers that first call.
  for (const response of receiver.held) response.destroy();

  const url = await options.next(killed);
  const finished = await eventually(
    async () => {
      const read = await call(url, 'GET', `/api/v1/gateway/executions/${id}`, { token: jwt });
      expect(read.body.execution?.status).toBe('succeeded');
      return read.body.execution;
    },
    STARTUP_MS,
    200,
  );
  expect(finished).toMatchObject({ id, status: 'succeeded', http_status: 200, result: 'done after the crash', error: '' });
  const calls = executionCalls(receiver, id);
  expect(calls).toHaveLength(2);
  // The same webhook-id both times, each call signed afresh and verifiable.
  expect(calls.map((received) => received.headers['webhook-id'])).toEqual([id, id]);
  for (const received of calls) {
    expect(new Webhook(hmacKey).verify(received.body, received.headers as Record<string, string>)).toMatchObject({ action_name: actionName, parameters: { city: 'Oslo' } });
  }
  expect(finished.attempt_log.at(-1)).toMatchObject({ http_status: 200, error: '' });
}

describe('asynchronous executions across SIGKILL on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'agw-async-durability-'));
  const env = { ...ASYNC_ENV, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' };
  const services: ServiceProcess[] = [];
  let receiver: Receiver & { held: ServerResponse[] };

  beforeAll(async () => {
    receiver = await holdingReceiver();
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = () => {
    const service = ServiceProcess.start(env);
    services.push(service);
    return service;
  };

  it('finishes, once restarted, the call that was out when it was killed, under the same webhook-id', async () => {
    const first = start();
    const url = await first.ready(dataDir, STARTUP_MS);
    const bootstrap = await runCliAsync(['bootstrap', '--tenant', 'async-durable'], env);
    expect(bootstrap.status).toBe(0);
    const made = JSON.parse(bootstrap.stdout) as { api_token: { token: string }; hmac_key: { key: string } };
    const jwt = (await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: made.api_token.token } })).body.jwt_token as string;
    const created = await call(url, 'POST', '/api/v1/gateway/actions', {
      token: jwt,
      body: { name: 'slow_weather', description: 'Slow', webhook_url: receiver.url(), json_schema: { type: 'object' } },
    });
    expect(created.status).toBe(201);

    await killMidCallAndFinish({
      receiver,
      replicas: [{ service: first, url }],
      jwt,
      actionName: 'slow_weather',
      hmacKey: made.hmac_key.key,
      next: () => start().ready(dataDir, STARTUP_MS),
    });
  }, 4 * STARTUP_MS);
});

/**
 * On PostgreSQL (DATABASE_URL, as in CI's second run): two replicas side by side; the one running the call is killed,
 * and the other finishes it once the lease has expired.
 */
describeIf(postgresServer())('asynchronous executions across SIGKILL on PostgreSQL', () => {
  it('finishes on the other replica the call that was out when the one running it was killed, under the same webhook-id', async () => {
    const adminKey = randomBytes(32).toString('hex');
    const shared = {
      ...ASYNC_ENV,
      DATABASE_URL: testDatabase().url,
      HOST: '127.0.0.1',
      RUN_MIGRATIONS: 'false',
      ADMIN_API_KEY: adminKey,
      JWT_SECRET: randomBytes(48).toString('base64'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    };
    const replica = async () => {
      const port = await freePort();
      const service = ServiceProcess.start({ ...shared, PORT: String(port), DATA_DIR: mkdtempSync(join(tmpdir(), 'agw-async-pg-')) });
      const url = `http://127.0.0.1:${port}`;
      await eventually(async () => expect((await call(url, 'GET', '/readyz')).status).toBe(200), STARTUP_MS, 100);
      return { service, url };
    };
    const receiver = await holdingReceiver();
    // Both running before the call: the first replica's call must still be out when it is killed (within
    // WEBHOOK_TIMEOUT_MS), which a start on a loaded machine would outlast.
    const [first, second] = await Promise.all([replica(), replica()]);
    try {
      const tenant = (await call(first.url, 'POST', '/api/v1/admin/tenants', { token: adminKey, body: { name: 'async-durable-pg' } })).body.tenant;
      const token = (await call(first.url, 'POST', `/api/v1/admin/tenants/${tenant.id}/api-tokens`, { token: adminKey, body: { name: 't' } })).body.api_token.token;
      const hmacKey = (await call(first.url, 'POST', `/api/v1/admin/tenants/${tenant.id}/hmac-keys`, { token: adminKey })).body.hmac_key.key as string;
      const jwt = (await call(first.url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: token } })).body.jwt_token as string;
      const created = await call(first.url, 'POST', '/api/v1/gateway/actions', {
        token: jwt,
        body: { name: 'slow_weather', description: 'Slow', webhook_url: receiver.url(), json_schema: { type: 'object' } },
      });
      expect(created.status).toBe(201);
      await killMidCallAndFinish({
        receiver,
        replicas: [first, second],
        jwt,
        actionName: 'slow_weather',
        hmacKey,
        next: async (killed) => (killed === first ? second : first).url,
      });
    } finally {
      await first.service.stop();
      await second.service.stop();
      await receiver.stop();
    }
  }, 4 * STARTUP_MS);
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
