import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from './support/http';
import { runCli, runMigrationCommand, ServiceProcess } from './support/process';
import { Receiver } from './support/receiver';

/**
 * The zero-set-up path, on the built service in child processes: no DATABASE_URL, an embedded PostgreSQL under
 * DATA_DIR, secrets generated there, data kept across restarts, and a command line that goes through the
 * running service because only one process may open the data directory.
 */
describe('embedded database and the command line', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'agw-embedded-'));
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' };
  let receiver: Receiver;
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await receiver.stop();
  });

  const start = () => {
    const service = ServiceProcess.start(env);
    services.push(service);
    return service;
  };

  it('starts with no set-up, bootstraps a tenant through the running service, and keeps everything across a restart', async () => {
    const first = start();
    const url = await first.ready(dataDir);

    const bootstrap = runCli(['bootstrap', '--tenant', 'acme'], env);
    expect(bootstrap.stderr).toBe('');
    expect(bootstrap.status).toBe(0);
    const created = JSON.parse(bootstrap.stdout);
    expect(Object.keys(created)).toEqual(['tenant', 'api_token', 'hmac_key']);
    expect(created.tenant).toMatchObject({ name: 'acme', status: 'active' });
    expect(created.api_token.token).toMatch(/^agw_/);
    expect(created.hmac_key.key).toMatch(/^whsec_/);

    const exchanged = await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: created.api_token.token } });
    expect(exchanged.status).toBe(200);
    const action = await call(url, 'POST', '/api/v1/gateway/actions', {
      token: exchanged.body.jwt_token,
      body: { name: 'persisted', description: 'kept across restarts', webhook_url: receiver.url(), json_schema: { type: 'object' } },
    });
    expect(action.status).toBe(201);

    // A second service, and the migration command line, on the same DATA_DIR: one line naming the holder.
    const second = start();
    expect((await second.exit()).code).toBe(1);
    expect(second.output.join('')).toBe(
      `Cannot start: the embedded database is in use by process ${first.child.pid} (another service on DATA_DIR ${dataDir}): ` +
        'stop that one or set another DATA_DIR\n',
    );
    const show = runMigrationCommand('migration:show', env);
    expect(show.status).toBe(1);
    expect(show.stdout).toBe('');
    expect(show.stderr).toBe(
      `Cannot open the embedded database in ${dataDir}: the service running as process ${first.child.pid} holds it. ` +
        'That service applies pending migrations itself when it starts (RUN_MIGRATIONS), and its /readyz says whether any are pending; ' +
        'stop it to run migration commands.\n',
    );

    await first.stop();
    const listed = runCli(['tenants:list'], env); // nobody holds the directory now: the command line opens it itself
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout).tenants.map((tenant: { id: string }) => tenant.id)).toEqual([created.tenant.id]);

    const third = start();
    const restartedUrl = await third.ready(dataDir);
    const afterRestart = await call(restartedUrl, 'GET', '/api/v1/gateway/actions/persisted', { token: exchanged.body.jwt_token });
    expect(afterRestart.status).toBe(200);
    expect(afterRestart.body.action).toEqual(action.body.action);
    await third.stop();
  });

  it('explains command-line mistakes', () => {
    const unknown = runCli(['frobnicate'], env);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown command frobnicate');
    expect(unknown.stderr).toContain('bootstrap --tenant <tenant>');
    const missing = runCli(['bootstrap'], env);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--tenant is required');
  });

  it('lists every configuration problem at once, one line each, and exits 1 without a stack trace', async () => {
    const service = ServiceProcess.start({ NODE_ENV: 'production', DATA_DIR: dataDir, PORT: 'abc', JWT_SECRET: 'a'.repeat(40) });
    const exit = await service.exit();
    expect(exit.code).toBe(1);
    expect(service.output.join('').trim().split('\n')).toEqual([
      'Configuration error: PORT must be a whole number from 0 to 65535, not "abc"',
      'Configuration error: DATABASE_URL is required in production (the embedded database is for development)',
      'Configuration error: ADMIN_API_KEY is required in production',
      'Configuration error: ENCRYPTION_KEY is required in production',
      'Configuration error: JWT_SECRET is too weak (it repeats a short pattern): use at least 32 random bytes (openssl rand -base64 48)',
    ]);
  });

  it('refuses an unknown NODE_ENV instead of starting in development', async () => {
    const service = ServiceProcess.start({ NODE_ENV: 'prod', DATA_DIR: mkdtempSync(join(tmpdir(), 'agw-prod-typo-')) });
    expect((await service.exit()).code).toBe(1);
    expect(service.output.join('').trim()).toBe(
      'Configuration error: NODE_ENV must be one of production, development, test (unset means development), not "prod"',
    );
  });
});
