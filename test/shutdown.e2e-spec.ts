import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './support/eventually';
import { call } from './support/http';
import { READY_TEST_MS, runCli, ServiceProcess } from './support/process';
import { ok, Receiver } from './support/receiver';

/** SIGTERM on the built service: readiness 503 first, in-flight work finishes, then a clean exit 0. */
describe('graceful shutdown', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await Receiver.start();
  });
  afterAll(() => receiver.stop());

  it('finishes an execution in flight, answers /readyz 503 meanwhile, and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agw-shutdown-'));
    // A delay of seconds: readiness 503 and liveness 200 must both be seen within it, from a child process that a
    // loaded machine may answer slowly. The receiver answers after it, so the execution is still in flight when the
    // service stops accepting: drained, not cut.
    const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SHUTDOWN_DELAY_MS: '6000' };
    const service = ServiceProcess.start(env);
    try {
      const url = await service.ready(dataDir);
      const { api_token: apiToken } = JSON.parse(runCli(['bootstrap', '--tenant', 'draining'], env).stdout);
      const jwt = (await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: apiToken.token } })).body.jwt_token;
      receiver.behaviour = ok;
      const created = await call(url, 'POST', '/api/v1/gateway/actions', {
        token: jwt,
        body: { name: 'slow_one', description: 'answers after 10 s', webhook_url: receiver.url(), json_schema: { type: 'object' } },
      });
      expect(created.status).toBe(201);
      receiver.behaviour = (call, response) => setTimeout(() => ok(call, response), 10_000);

      const calls = receiver.calls.length;
      const inFlight = call(url, 'POST', '/api/v1/gateway/actions/slow_one/execute', { token: jwt, body: { parameters: {} } });
      // SIGTERM once the execution is in flight: its webhook call has reached the receiver, which answers in 10 s.
      await eventually(() => expect(receiver.calls.length).toBeGreaterThan(calls), 30_000, 20);
      service.child.kill('SIGTERM');
      const readiness = await eventually(async () => {
        const answer = await call(url, 'GET', '/readyz');
        expect(answer.status).toBe(503);
        return answer;
      }, 4_000, 20); // leaving the /healthz below 2 s of the delay
      expect(readiness.body).toEqual({ error: 'Service unavailable', details: 'shutting down' });
      expect((await call(url, 'GET', '/healthz')).status).toBe(200);

      const finished = await inFlight;
      expect(finished.status).toBe(200);
      expect(finished.body.execution).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(await service.exit()).toEqual({ code: 0, signal: null });
    } finally {
      await service.stop();
    }
  }, READY_TEST_MS);

  it('answers every request it accepted during a load run, then refuses new connections, and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agw-shutdown-load-'));
    // The budget out of the way: served from memory, 8 loops pass the default 1000 an hour within the run.
    const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SHUTDOWN_DELAY_MS: '500', RATE_LIMIT_PER_HOUR: '1000000' };
    const service = ServiceProcess.start(env);
    const statuses: Record<string, number> = {};
    const failures: string[] = [];
    try {
      const url = await service.ready(dataDir);
      const { api_token: apiToken } = JSON.parse(runCli(['bootstrap', '--tenant', 'loaded'], env).stdout);
      const jwt = (await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: apiToken.token } })).body.jwt_token;
      let stop = false;
      const worker = async () => {
        for (let i = 0; i < 2_000 && !stop; i++) {
          try {
            const response = await call(url, 'GET', '/api/v1/gateway/actions', { token: jwt });
            statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          } catch (error) {
            const code = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
            // Refused: the listener is gone. Reset: the request raced the close of an idle connection and was
            // never read (Fastify closes only idle connections). Both are safe to retry elsewhere; anything
            // else, or any non-200 answer, would be a request the service accepted and then dropped.
            if (!['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(code)) failures.push(code);
            stop = true;
          }
        }
      };
      const load = Promise.all(Array.from({ length: 8 }, worker));
      // SIGTERM in the middle of the load: once every loop has had answers.
      await eventually(() => expect(statuses['200'] ?? 0).toBeGreaterThanOrEqual(40), 30_000, 20);
      service.child.kill('SIGTERM');
      await load;
      expect(await service.exit()).toEqual({ code: 0, signal: null });
    } finally {
      await service.stop();
    }
    expect(failures).toEqual([]);
    expect(Object.keys(statuses)).toEqual(['200']);
    expect(statuses['200']).toBeGreaterThan(50);
  }, READY_TEST_MS);
});
