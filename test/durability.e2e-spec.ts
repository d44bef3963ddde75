import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDatabase } from './support/database';
import { eventually } from './support/eventually';
import { call } from './support/http';
import { READY_MS, runCli, ServiceProcess } from './support/process';
import { Receiver } from './support/receiver';
import { describeIf, postgresServer } from './support/requirements';

/**
 * The built service on the embedded database, killed with SIGKILL (no shutdown hook runs, the lock file still
 * names the dead process): started again on the same DATA_DIR, it takes the lock over and every acknowledged
 * write is still there.
 */
describe('durability of the embedded database across SIGKILL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'agw-durability-'));
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_HOUR: '1000000' };
  let receiver: Receiver;
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    receiver = await Receiver.start();
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

  it('keeps all 100 acknowledged actions after SIGKILL and a restart on the same DATA_DIR', async () => {
    const first = start();
    let url = await first.ready(dataDir);

    const bootstrap = runCli(['bootstrap', '--tenant', 'durable'], env);
    expect(bootstrap.status).toBe(0);
    const apiToken = JSON.parse(bootstrap.stdout).api_token.token as string;
    const exchanged = await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: apiToken } });
    expect(exchanged.status).toBe(200);
    const jwt = exchanged.body.jwt_token as string;

    const names = Array.from({ length: 100 }, (_, i) => `durable_${String(i).padStart(3, '0')}`);
    for (let batch = 0; batch < names.length; batch += 10) {
      const responses = await Promise.all(
        names.slice(batch, batch + 10).map((name) =>
          call(url, 'POST', '/api/v1/gateway/actions', {
            token: jwt,
            body: { name, description: `kept ${name}`, webhook_url: receiver.url(), json_schema: { type: 'object', properties: { [name]: { type: 'string' } } } },
          }),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(responses.length).fill(201));
    }
    const before = await call(url, 'GET', '/api/v1/gateway/actions', { token: jwt });
    expect(before.body.actions).toHaveLength(100);

    // Kill it the hard way, right after the last acknowledged write.
    first.child.kill('SIGKILL');
    expect((await first.exit()).signal).toBe('SIGKILL');
    const lockFile = join(dataDir, 'embedded-postgres.json');
    const staleLock = existsSync(lockFile) ? (JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number }) : undefined;
    expect(staleLock?.pid).toBe(first.child.pid); // the lock names a dead process

    const second = start();
    url = await second.ready(dataDir); // fails with the service's output if it refuses the stale lock
    const lockNow = JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number };
    expect(lockNow.pid).toBe(second.child.pid);

    // The bearer token minted before the crash still works (the JWT secret was kept under DATA_DIR).
    const after = await call(url, 'GET', '/api/v1/gateway/actions', { token: jwt });
    expect(after.status).toBe(200);
    expect(after.body.actions.map((a: { name: string }) => a.name)).toEqual(names);
    for (const action of after.body.actions) {
      expect(action.description).toBe(`kept ${action.name}`);
      expect(JSON.stringify(action.json_schema)).toBe(JSON.stringify({ type: 'object', properties: { [action.name]: { type: 'string' } } }));
    }
    // And the database is writable again: the quota is full, a new create is a 403, a delete and a create work.
    const full = await call(url, 'POST', '/api/v1/gateway/actions', { token: jwt, body: { name: 'one_more', description: 'd', webhook_url: receiver.url(), json_schema: {} } });
    expect(full.status).toBe(403);
    expect((await call(url, 'DELETE', `/api/v1/gateway/actions/${names[0]}`, { token: jwt })).status).toBe(204);
    expect((await call(url, 'POST', '/api/v1/gateway/actions', { token: jwt, body: { name: 'one_more', description: 'd', webhook_url: receiver.url(), json_schema: {} } })).status).toBe(201);
    await second.stop();
    expect(existsSync(lockFile)).toBe(false); // a clean stop releases the lock
  }, 2 * READY_MS + 120_000); // two starts (the first on a fresh DATA_DIR), and the writes and reads between them
});

/** The same on PostgreSQL (DATABASE_URL, as in CI's second run): what was acknowledged survives SIGKILL. */
describeIf(postgresServer())('durability on PostgreSQL across SIGKILL', () => {
  it('keeps all 100 acknowledged actions after SIGKILL and a restart', async () => {
    const { randomBytes } = await import('node:crypto');
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const adminKey = randomBytes(32).toString('hex');
    const env = {
      DATABASE_URL: testDatabase().url,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'agw-durability-pg-')),
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_HOUR: '1000000',
      RUN_MIGRATIONS: 'false',
      ADMIN_API_KEY: adminKey,
      JWT_SECRET: randomBytes(48).toString('base64'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    };
    const url = `http://127.0.0.1:${port}`;
    // Ready once /readyz says so (a refused connection: not listening yet), within a start on a loaded machine.
    const up = () => eventually(async () => expect((await call(url, 'GET', '/readyz')).status).toBe(200), READY_MS, 100);
    const receiver = await Receiver.start();
    const first = ServiceProcess.start(env);
    let second: ServiceProcess | undefined;
    try {
      await up();
      const tenant = (await call(url, 'POST', '/api/v1/admin/tenants', { token: adminKey, body: { name: 'durable-pg' } })).body.tenant;
      const token = (await call(url, 'POST', `/api/v1/admin/tenants/${tenant.id}/api-tokens`, { token: adminKey, body: { name: 't' } })).body.api_token.token;
      const jwt = (await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: token } })).body.jwt_token;
      for (let i = 0; i < 100; i++) {
        const created = await call(url, 'POST', '/api/v1/gateway/actions', {
          token: jwt,
          body: { name: `pg_durable_${i}`, description: 'kept', webhook_url: receiver.url(), json_schema: { type: 'object' } },
        });
        expect(created.status).toBe(201);
      }
      first.child.kill('SIGKILL');
      expect((await first.exit()).signal).toBe('SIGKILL');

      second = ServiceProcess.start(env);
      await up();
      const after = await call(url, 'GET', '/api/v1/gateway/actions', { token: jwt });
      expect(after.status).toBe(200);
      expect(after.body.actions).toHaveLength(100);
    } finally {
      await first.stop();
      await second?.stop();
      await receiver.stop();
    }
  }, 2 * READY_MS + 120_000); // two starts, and 100 registrations one after the other, each calling the receiver
});
