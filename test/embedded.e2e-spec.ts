import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from './support/http';
import { READY_MS, READY_TEST_MS, runCli, runCliAsync, runMigrationCommand, ServiceProcess } from './support/process';
import { ok, Receiver, status } from './support/receiver';

/**
 * The zero-set-up path, on the built service in child processes: no DATABASE_URL, an embedded PostgreSQL under
 * DATA_DIR, secrets generated there, data kept across restarts, and a command line that goes through the
 * running service because only one process may open the data directory.
 */

// A test here starts up to six Node processes one after the other (services, the command line, which may open
// PGlite itself): about 20 s on an idle 2-core machine, past the default 60 s when the browser tests run beside it.
// A service's start alone may take ready()'s whole wait on a fresh DATA_DIR under load.
jest.setTimeout(READY_TEST_MS);
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
    // Starting, serving and stopping gave no warning (at LOG_LEVEL=warn): the database going away last is expected.
    expect([first.output.join(''), third.output.join('')]).toEqual(['', '']);
  }, 2 * READY_MS + 120_000); // two starts (the first on a fresh DATA_DIR), and four more processes

  it('explains command-line mistakes with exit status 2, and help with 0', () => {
    const unknown = runCli(['frobnicate'], env);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe(`unknown command "frobnicate"\n\nrun 'npm run gateway -- help' for the list of commands\n`);
    const missing = runCli(['bootstrap'], env);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--tenant <name> is required\n\nusage: npm run gateway -- bootstrap --tenant <name> [--output <file>]');
    for (const argv of [['--help'], ['-h'], ['help'], ['help', 'api-tokens:revoke'], ['api-tokens:revoke', '--help']]) {
      const help = runCli(argv, env);
      expect(help.status).toBe(0);
      expect(help.stderr).toBe('');
      expect(help.stdout).toMatch(/^usage: npm run gateway -- /m);
    }
  });

  it('looks tenants up by name, refuses a second bootstrap of a name, prints revocations, and writes secrets 0600', async () => {
    await Promise.all(services.map((running) => running.stop())); // a service an earlier test left running holds DATA_DIR
    const service = start();
    await service.ready(dataDir);
    const output = join(mkdtempSync(join(tmpdir(), 'agw-cli-out-')), 'beta.json');

    const written = runCli(['bootstrap', '--tenant', 'beta', '--output', output], env);
    expect(written).toMatchObject({ status: 0, stdout: '', stderr: `wrote ${output} (readable by you only)\n` });
    expect(statSync(output).mode & 0o777).toBe(0o600);
    const beta = JSON.parse(readFileSync(output, 'utf8'));
    expect(beta.tenant.name).toBe('beta');

    const again = runCli(['bootstrap', '--tenant', 'beta'], env);
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(
      `a tenant named "beta" already exists (${beta.tenant.id}): issue more credentials for it with ` +
        'api-tokens:create --tenant beta and hmac-keys:create --tenant beta\n',
    );
    const clobber = runCli(['bootstrap', '--tenant', 'gamma', '--output', output], env);
    expect(clobber).toMatchObject({ status: 1, stderr: `${output} already exists: remove it or choose another file\n` });
    const names = JSON.parse(runCli(['tenants:list'], env).stdout).tenants.map((tenant: { name: string }) => tenant.name);
    expect(names.filter((name: string) => name === 'beta')).toHaveLength(1);
    expect(names).not.toContain('gamma');

    const issued = JSON.parse(runCli(['api-tokens:create', '--tenant', 'beta', '--name', 'ci'], env).stdout);
    expect(issued.api_token).toMatchObject({ name: 'ci', token: expect.stringMatching(/^agw_/) });
    const revokedToken = runCli(['api-tokens:revoke', '--tenant', 'beta', '--token-id', issued.api_token.id], env);
    expect(revokedToken.status).toBe(0);
    expect(JSON.parse(revokedToken.stdout).api_token).toMatchObject({ id: issued.api_token.id, revoked_at: expect.any(String) });
    const revokedKey = runCli(['hmac-keys:revoke', '--tenant-id', beta.tenant.id, '--key-id', beta.hmac_key.id], env);
    expect(JSON.parse(revokedKey.stdout).hmac_key).toMatchObject({ id: beta.hmac_key.id, revoked_at: expect.any(String) });

    const nobody = runCli(['api-tokens:list', '--tenant', 'nobody'], env);
    expect(nobody).toMatchObject({ status: 1, stdout: '', stderr: 'no tenant is named "nobody"\n' });
    const unknownId = runCli(['api-tokens:list', '--tenant-id', '00000000-0000-4000-8000-000000000000'], env);
    expect(unknownId).toMatchObject({ status: 1, stderr: 'tenant not found\n' });
    await service.stop();
  }, 180_000);

  it("manages a tenant's actions and portal links, and says which option was meant for a name given as an id", async () => {
    await Promise.all(services.map((running) => running.stop()));
    const service = start();
    const url = await service.ready(dataDir);
    const delta = JSON.parse(runCli(['bootstrap', '--tenant', 'delta'], env).stdout);
    const folder = mkdtempSync(join(tmpdir(), 'agw-cli-schema-'));
    const schemaFile = join(folder, 'schema.json');
    writeFileSync(schemaFile, '{"type":"object","properties":{"city":{"type":"string","maxLength":1e2}},"required":["city"]}\n');
    const tested = receiver.calls.length;

    const created = await runCliAsync(
      ['actions:create', '--tenant', 'delta', '--name', 'get_weather', '--description', 'Weather now', '--webhook-url', receiver.url(), '--json-schema', schemaFile],
      env,
    );
    expect(created).toMatchObject({ status: 0, stderr: '' });
    expect(JSON.parse(created.stdout).action).toMatchObject({ name: 'get_weather', description: 'Weather now', webhook_url: receiver.url() });
    expect(receiver.calls.length).toBe(tested + 1); // the registration test
    const listed = JSON.parse(runCli(['actions:list', '--tenant-id', delta.tenant.id], env).stdout);
    expect(listed.actions.map((action: { name: string }) => action.name)).toEqual(['get_weather']);
    const updated = JSON.parse((await runCliAsync(['actions:update', '--tenant', 'delta', '--name', 'get_weather', '--description', 'Weather, now'], env)).stdout);
    expect(updated.action).toMatchObject({ name: 'get_weather', description: 'Weather, now', json_schema: listed.actions[0].json_schema });
    const got = JSON.parse(runCli(['actions:get', '--tenant', 'delta', '--name', 'get_weather'], env).stdout);
    expect(got.action).toEqual(updated.action);

    receiver.behaviour = status(404);
    const refused = await runCliAsync(['actions:update', '--tenant', 'delta', '--name', 'get_weather', '--webhook-url', receiver.url('/v2')], env);
    receiver.behaviour = ok;
    expect(refused).toMatchObject({ status: 1, stderr: 'action validation failed: webhook endpoint returned status 404\n' });
    const deleted = runCli(['actions:delete', '--tenant', 'delta', '--name', 'get_weather'], env);
    expect(JSON.parse(deleted.stdout)).toEqual({ deleted_action: got.action });
    expect(runCli(['actions:get', '--tenant', 'delta', '--name', 'get_weather'], env)).toMatchObject({ status: 1, stderr: 'action not found\n' });

    const link = JSON.parse(runCli(['portal-links:create', '--tenant', 'delta'], env).stdout).portal_link;
    expect(link).toMatchObject({ tenant_id: delta.tenant.id, url: `${url}/console/portal#token=${link.token}` });
    expect((await call(url, 'POST', '/api/v1/admin/portal-links/redeem', { body: { token: link.token }, headers: { origin: url } })).status).toBe(200);

    const byName = runCli(['actions:list', '--tenant-id', 'delta'], env);
    expect(byName).toMatchObject({ status: 2, stdout: '' });
    expect(byName.stderr).toMatch(/^"delta" is not a tenant id \(ids are UUIDs\): did you mean --tenant delta\?\n\nusage: npm run gateway -- actions:list /);
    await service.stop();

    // No service running: the command line's own copy of the service makes the link for the one PORT names.
    const offline = JSON.parse(runCli(['portal-links:create', '--tenant', 'delta'], { ...env, PORT: '3999' }).stdout).portal_link;
    expect(offline.url).toBe(`http://127.0.0.1:3999/console/portal#token=${offline.token}`);
  }, 180_000);

  it('reads the delivery log, replays one execution and the failed ones since a time, and gives the numbers', async () => {
    await Promise.all(services.map((running) => running.stop()));
    const service = start();
    const url = await service.ready(dataDir, 120_000); // a fresh DATA_DIR when this test runs alone
    const epsilon = JSON.parse(runCli(['bootstrap', '--tenant', 'epsilon'], env).stdout);
    const jwt = (await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: epsilon.api_token.token } })).body.jwt_token;
    const before = new Date(Date.now() - 1000);
    receiver.behaviour = ok;
    const registered = await call(url, 'POST', '/api/v1/gateway/actions', {
      token: jwt,
      body: { name: 'logged', description: 'logged', webhook_url: receiver.url(), json_schema: { type: 'object' } },
    });
    expect(registered.status).toBe(201);
    receiver.behaviour = status(400); // not retried: one attempt
    const failed = (await call(url, 'POST', '/api/v1/gateway/actions/logged/execute', { token: jwt, body: { parameters: { n: 1 } } })).body.execution;
    expect(failed.status).toBe('failed');

    const listed = runCli(['executions:list', '--tenant', 'epsilon'], env);
    expect(listed).toMatchObject({ status: 0, stderr: '' });
    expect(JSON.parse(listed.stdout)).toEqual({ executions: [expect.objectContaining({ id: failed.id, status: 'failed', replay_of: null, attempt_log: [expect.any(Object)] })], next_cursor: null });
    // An offset with a +, as typed: the command line encodes it.
    const offset = new Date(before.getTime() + 3_600_000).toISOString().replace('Z', '+01:00');
    expect(JSON.parse(runCli(['executions:list', '--tenant', 'epsilon', '--since', offset, '--status', 'failed'], env).stdout).executions).toHaveLength(1);
    expect(JSON.parse(runCli(['executions:list', '--tenant', 'epsilon', '--status', 'succeeded'], env).stdout).executions).toEqual([]);
    const refused = runCli(['executions:list', '--tenant', 'epsilon', '--status', 'done'], env);
    expect(refused).toMatchObject({ status: 1, stderr: 'invalid request: status: must be "succeeded", "failed", "pending" or "running"\n' });
    const got = JSON.parse(runCli(['executions:get', '--tenant', 'epsilon', '--execution-id', failed.id], env).stdout).execution;
    expect(got).toMatchObject({ id: failed.id, action_name: 'logged', payload: { status: 'kept' } });

    receiver.behaviour = ok;
    const replayed = await runCliAsync(['executions:replay', '--tenant', 'epsilon', '--execution-id', failed.id], env);
    expect(replayed).toMatchObject({ status: 0, stderr: '' });
    expect(JSON.parse(replayed.stdout).execution).toMatchObject({ status: 'succeeded', replay_of: failed.id });

    // With no service running, the bulk replay runs in the command line's own copy, which waits for its end. The
    // first failure was delivered by its replay: only the second is replayed.
    receiver.behaviour = status(400);
    expect((await call(url, 'POST', '/api/v1/gateway/actions/logged/execute', { token: jwt, body: { parameters: { n: 2 } } })).body.execution.status).toBe('failed');
    receiver.behaviour = ok;
    await service.stop();
    const bulk = await runCliAsync(['executions:replay', '--tenant', 'epsilon', '--action', 'logged', '--failed-since', before.toISOString()], env);
    expect(bulk).toMatchObject({ status: 0, stderr: '' });
    expect(JSON.parse(bulk.stdout).replay).toMatchObject({ status: 'done', total: 1, done: 1, succeeded: 1, left: 0 });

    const stats = JSON.parse(runCli(['stats', '--tenant', 'epsilon'], env).stdout).stats;
    expect(stats.hourly).toHaveLength(48);
    expect(stats.actions).toEqual([expect.objectContaining({ action_name: 'logged', executions: 4, succeeded: 2, failed: 2 })]);
    expect(JSON.parse(runCli(['stats', '--tenant', 'epsilon', '--action', 'logged'], env).stdout).stats.action_name).toBe('logged');
    const help = runCli(['help'], env).stdout;
    for (const name of ['executions:list', 'executions:get', 'executions:replay', 'stats']) expect(help).toContain(`\n  ${name} `);
  }, 300_000);

  it('says what to do when the running service was started with another admin key', async () => {
    await Promise.all(services.map((running) => running.stop()));
    const serviceKey = randomBytes(32).toString('hex');
    const service = ServiceProcess.start({ ...env, ADMIN_API_KEY: serviceKey });
    services.push(service);
    const url = await service.ready(dataDir, 120_000);
    // This command line reads the key generated into DATA_DIR; the service took the one in its environment.
    const refused = runCli(['tenants:list'], env);
    expect(refused).toMatchObject({ status: 1, stdout: '' });
    expect(refused.stderr).toBe(
      `the service running at ${url} refused this command line's admin key (ADMIN_API_KEY in ${join(dataDir, 'secrets.json')}): ` +
        "the service uses the ADMIN_API_KEY set in its environment. Run the command with the service's key: " +
        "ADMIN_API_KEY=<the service's key> npm run -s gateway -- <command>\n",
    );
    const otherKey = runCli(['tenants:list'], { ...env, ADMIN_API_KEY: randomBytes(32).toString('hex') });
    expect(otherKey.stderr).toBe(
      `the service running at ${url} refused this command line's admin key (the ADMIN_API_KEY set in its environment): ` +
        `the service uses its own (ADMIN_API_KEY in ${dataDir}/secrets.json when none was set for it). Run the command with the service's key: ` +
        "ADMIN_API_KEY=<the service's key> npm run -s gateway -- <command>\n",
    );
    expect(runCli(['tenants:list'], { ...env, ADMIN_API_KEY: serviceKey }).status).toBe(0);
    await service.stop();
  }, 300_000);

  it('lists every configuration problem at once, one line each, and exits 1 without a stack trace', async () => {
    const service = ServiceProcess.start({ NODE_ENV: 'production', DATA_DIR: dataDir, PORT: 'abc', JWT_SECRET: 'a'.repeat(40) });
    const exit = await service.exit();
    expect(exit.code).toBe(1);
    expect(service.output.join('').trim().split('\n')).toEqual([
      'Configuration error: PORT must be a whole number from 0 to 65535, not "abc"',
      'Configuration error: DATABASE_URL is required in production (the embedded database is for development)',
      'Configuration error: ADMIN_API_KEY is required in production',
      'Configuration error: ENCRYPTION_KEY is required in production',
      'Configuration error: PUBLIC_URL is required in production: the origin browsers reach the service at, e.g. https://gateway.example.com (portal links are made with it)',
      'Configuration error: JWT_SECRET is too weak (it repeats a short pattern): use at least 32 random bytes (openssl rand -base64 48)',
    ]);
  });

  it('starts outside production with short test secrets, warning once about each', async () => {
    const testDir = mkdtempSync(join(tmpdir(), 'agw-test-secrets-'));
    const secrets = { JWT_SECRET: 'test-jwt-secret', ADMIN_API_KEY: 'test-admin-key', ENCRYPTION_KEY: 'test-encryption-key' };
    const service = ServiceProcess.start({ NODE_ENV: 'test', DATA_DIR: testDir, PORT: '0', HOST: '127.0.0.1', ...secrets });
    services.push(service);
    const url = await service.ready(testDir);
    const admin = (method: string, path: string, body?: unknown) => call(url, method, `/api/v1/admin${path}`, { token: secrets.ADMIN_API_KEY, body });
    const tenant = await admin('POST', '/tenants', { name: 'test-secrets' });
    expect(tenant.status).toBe(201);
    // The HMAC key is stored encrypted under the SHA-256 of ENCRYPTION_KEY, and read back to sign.
    expect((await admin('POST', `/tenants/${tenant.body.tenant.id}/hmac-keys`)).status).toBe(201);
    const token = await admin('POST', `/tenants/${tenant.body.tenant.id}/api-tokens`, { name: 't' });
    const jwt = (await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: token.body.api_token.token } })).body.jwt_token;
    const action = { name: 'signed', description: 'd', webhook_url: receiver.url(), json_schema: { type: 'object' } };
    const registered = await call(url, 'POST', '/api/v1/gateway/actions', { token: jwt, body: action });
    expect([registered.status, registered.body]).toEqual([201, expect.anything()]);
    expect(receiver.calls[receiver.calls.length - 1].body).toMatch(/,"signature":"[0-9a-f]{64}"\}$/);
    const warnings = service.output.join('').split('\n').filter((line) => line.includes('Configuration warning'));
    expect(warnings.map((line) => JSON.parse(line).msg.split(' ').slice(0, 3).join(' '))).toEqual([
      'Configuration warning: JWT_SECRET',
      'Configuration warning: ADMIN_API_KEY',
      'Configuration warning: ENCRYPTION_KEY',
    ]);
    await service.stop();
  });

  it('refuses an unknown NODE_ENV instead of starting in development', async () => {
    const service = ServiceProcess.start({ NODE_ENV: 'prod', DATA_DIR: mkdtempSync(join(tmpdir(), 'agw-prod-typo-')) });
    expect((await service.exit()).code).toBe(1);
    expect(service.output.join('').trim()).toBe(
      'Configuration error: NODE_ENV must be one of production, development, test (unset means development), not "prod"',
    );
  });
});
