import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from './support/http';
import { runCli, ServiceProcess } from './support/process';
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
    const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SHUTDOWN_DELAY_MS: '1500' };
    const service = ServiceProcess.start(env);
    try {
      const url = await service.ready(dataDir);
      const { api_token: apiToken } = JSON.parse(runCli(['bootstrap', '--tenant', 'draining'], env).stdout);
      const jwt = (await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: apiToken.token } })).body.jwt_token;
      receiver.behaviour = ok;
      const created = await call(url, 'POST', '/api/v1/gateway/actions', {
        token: jwt,
        body: { name: 'slow_one', description: 'answers after 3 s', webhook_url: receiver.url(), json_schema: { type: 'object' } },
      });
      expect(created.status).toBe(201);
      receiver.behaviour = (call, response) => setTimeout(() => ok(call, response), 3_000);

      const inFlight = call(url, 'POST', '/api/v1/gateway/actions/slow_one/execute', { token: jwt, body: { parameters: {} } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      service.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const readiness = await call(url, 'GET', '/readyz');
      expect(readiness.status).toBe(503);
      expect(readiness.body).toEqual({ error: 'Service unavailable', details: 'shutting down' });
      expect((await call(url, 'GET', '/healthz')).status).toBe(200);

      const finished = await inFlight;
      expect(finished.status).toBe(200);
      expect(finished.body.execution).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(await service.exit()).toEqual({ code: 0, signal: null });
    } finally {
      await service.stop();
    }
  });
});
