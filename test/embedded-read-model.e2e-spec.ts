import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { call } from './support/http';
import { READY_TEST_MS, runCli, ServiceProcess } from './support/process';
import { Receiver } from './support/receiver';

/**
 * Issue 15 on the embedded database, in the built service that owns it (the tests' own apps connect to the
 * global setup's databases, as to a server): a change committed by another connection (the command line, psql)
 * must be in the very next answer, as on a server, and nothing another connection runs can make it stale.
 */
describe('the read model on the embedded database the service owns', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'agw-embedded-read-model-'));
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' };
  let receiver: Receiver;
  let service: ServiceProcess;
  let url: string;
  let database: Client;
  let jwt: string;
  let tenantId: string;

  beforeAll(async () => {
    receiver = await Receiver.start();
    service = ServiceProcess.start(env);
    url = await service.ready(dataDir);
    const created = JSON.parse(runCli(['bootstrap', '--tenant', 'owned'], env).stdout);
    tenantId = created.tenant.id;
    jwt = (await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: created.api_token.token } })).body.jwt_token;
    // Another connection to the same database, as the command line or an operator's psql would open.
    const endpoint = JSON.parse(readFileSync(join(dataDir, 'embedded-postgres.json'), 'utf8')) as { host: string; port: number; password: string };
    database = new Client({ host: endpoint.host, port: endpoint.port, user: 'postgres', password: endpoint.password, database: 'postgres' });
    await database.connect();
  }, READY_TEST_MS);
  afterAll(async () => {
    await database?.end();
    await service?.stop();
    await receiver?.stop();
  });

  const describeAction = (name: string) => call(url, 'GET', `/api/v1/gateway/actions/${name}`, { token: jwt });

  async function memoryReads(cache: string): Promise<number> {
    const text = (await call(url, 'GET', '/metrics')).text;
    const line = text.split('\n').find((entry) => entry.startsWith(`read_model_reads_total{cache="${cache}",source="memory"}`));
    return line ? Number(line.split(' ').pop()) : 0;
  }

  it('lets another process in only with the password written beside the data, readable by its owner alone', async () => {
    const endpointFile = join(dataDir, 'embedded-postgres.json');
    expect(statSync(endpointFile).mode & 0o777).toBe(0o600);
    const { host, port } = JSON.parse(readFileSync(endpointFile, 'utf8')) as { host: string; port: number };
    for (const password of [undefined, 'guessed']) {
      const stranger = new Client({ host, port, user: 'postgres', database: 'postgres', password });
      stranger.on('error', () => undefined);
      await expect(stranger.connect()).rejects.toThrow(password ? 'password authentication failed for user "postgres"' : /password/);
      await stranger.end().catch(() => undefined);
    }
    expect((await database.query('SELECT count(*)::int AS n FROM tenants WHERE id = $1', [tenantId])).rows).toEqual([{ n: 1 }]);
  });

  it('answers from memory, and the next request after a change acknowledged elsewhere sees it, every time', async () => {
    const body = { name: 'watched', description: 'first', webhook_url: receiver.url(), json_schema: { type: 'object' } };
    expect((await call(url, 'POST', '/api/v1/gateway/actions', { token: jwt, body })).status).toBe(201);
    expect((await describeAction('watched')).body.action.description).toBe('first');
    const before = await memoryReads('actions');
    expect((await describeAction('watched')).body.action.description).toBe('first');
    expect(await memoryReads('actions')).toBeGreaterThan(before);

    for (let round = 0; round < 40; round++) {
      const description = `edited by hand ${round}`;
      await database.query('UPDATE actions SET description = $1 WHERE tenant_id = $2 AND name = $3', [description, tenantId, 'watched']);
      const [seen, again] = [await describeAction('watched'), await describeAction('watched')];
      expect([seen.status, seen.body.action.description, again.body.action.description]).toEqual([200, description, description]);
    }
    await database.query('DELETE FROM actions WHERE tenant_id = $1 AND name = $2', [tenantId, 'watched']);
    expect((await describeAction('watched')).status).toBe(404);
  });

  it('stays exact whatever another connection runs: UNLISTEN, DISCARD ALL, a forged notification', async () => {
    const body = { name: 'kept', description: 'first', webhook_url: receiver.url(), json_schema: { type: 'object' } };
    expect((await call(url, 'POST', '/api/v1/gateway/actions', { token: jwt, body })).status).toBe(201);
    const where = `tenant_id = '${tenantId}' AND name = 'kept'`;
    await describeAction('kept');
    expect((await describeAction('kept')).body.action.description).toBe('first'); // from memory now
    const [{ latest }] = (await database.query('SELECT max(position)::int AS latest FROM read_model_changes')).rows;
    const forged = JSON.stringify({ version: latest + 1, table: 'actions', key: tenantId });
    for (const [step, before] of ['UNLISTEN *', 'DISCARD ALL', `SELECT pg_notify('read_model', '${forged}')`].entries()) {
      await database.query(before);
      await database.query(`UPDATE actions SET description = $1 WHERE ${where}`, [`changed in step ${step}`]);
      expect((await describeAction('kept')).body.action.description).toBe(`changed in step ${step}`);
      const reads = await memoryReads('actions');
      expect((await describeAction('kept')).body.action.description).toBe(`changed in step ${step}`);
      expect(await memoryReads('actions')).toBeGreaterThan(reads);
    }
  });

  it('refuses a token revoked by another connection at the next request, and a disabled tenant likewise', async () => {
    expect((await call(url, 'GET', '/api/v1/gateway/actions', { token: jwt })).status).toBe(200);
    await database.query(`UPDATE tenants SET status = 'disabled' WHERE id = $1`, [tenantId]);
    expect((await call(url, 'GET', '/api/v1/gateway/actions', { token: jwt })).status).toBe(401);
    await database.query(`UPDATE tenants SET status = 'active' WHERE id = $1`, [tenantId]);
    expect((await call(url, 'GET', '/api/v1/gateway/actions', { token: jwt })).status).toBe(200);
    await database.query('UPDATE api_tokens SET revoked_at = now() WHERE tenant_id = $1', [tenantId]);
    expect(await call(url, 'GET', '/api/v1/gateway/actions', { token: jwt })).toMatchObject({ status: 401, body: { error: 'Invalid token' } });
  });
});
