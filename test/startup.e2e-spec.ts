import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from './support/http';
import { READY_TEST_MS, ServiceProcess } from './support/process';
import { TcpProxy } from './support/tcp-proxy';
import { MIGRATIONS } from '../src/database/schema';

/** What an operator sees when the built service cannot do its work yet: one plain line, or a clear log line. */
describe('starting the service', () => {
  const freshDataDir = () => mkdtempSync(join(tmpdir(), 'agw-startup-'));

  it('on a port another process holds: one line naming the address, exit 1', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const service = ServiceProcess.start({ DATA_DIR: freshDataDir(), HOST: '127.0.0.1', PORT: String(port) });
      expect((await service.exit()).code).toBe(1);
      expect(service.output.join('')).toBe(`Cannot start: 127.0.0.1:${port} is already in use by another process (set PORT, or HOST)\n`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('with EMBEDDED_DATABASE_PORT: the embedded database listens there, and a second service wanting it says so in one line', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    await new Promise((resolve) => holder.close(resolve));
    const dataDir = freshDataDir();
    const first = ServiceProcess.start({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', EMBEDDED_DATABASE_PORT: String(port) });
    try {
      await first.ready(dataDir, 90_000);
      const endpoint = JSON.parse(readFileSync(join(dataDir, 'embedded-postgres.json'), 'utf8')) as { host: string; port: number };
      expect([endpoint.host, endpoint.port]).toEqual(['127.0.0.1', port]);
      // Another data directory, the same port: the port is named, not PORT.
      const second = ServiceProcess.start({ DATA_DIR: freshDataDir(), HOST: '127.0.0.1', PORT: '0', EMBEDDED_DATABASE_PORT: String(port) });
      expect((await second.exit()).code).toBe(1);
      expect(second.output.join('')).toBe(
        `Cannot start: the embedded database's port 127.0.0.1:${port} is already in use by another process (set another EMBEDDED_DATABASE_PORT, or unset it for a free one)\n`,
      );
    } finally {
      await first.stop();
    }
  }, READY_TEST_MS);

  it('on a database that refuses the login (it does not exist): one line saying so, exit 1', async () => {
    // A server there, refusing every login as PostgreSQL does for a database that does not exist.
    const proxy = new TcpProxy('127.0.0.1', 9);
    await proxy.start();
    proxy.refuseLogins('3D000', 'database "gatewy" does not exist');
    try {
      const service = ServiceProcess.start({ DATA_DIR: freshDataDir(), HOST: '127.0.0.1', PORT: '0', DATABASE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/gatewy` });
      expect((await service.exit()).code).toBe(1);
      expect(service.output.join('')).toBe('Cannot start: the database refused the connection (database "gatewy" does not exist): check DATABASE_URL\n');
    } finally {
      await proxy.cut();
    }
  });

  it('on an unmigrated database: says so at start, is not ready, answers 503, and logs queries as JSON without values', async () => {
    const dataDir = freshDataDir();
    const service = ServiceProcess.start({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', RUN_MIGRATIONS: 'false', LOG_LEVEL: 'debug' });
    try {
      const url = await service.ready(dataDir, 90_000); // a fresh embedded database is slow to create on a busy machine
      const adminKey = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).ADMIN_API_KEY as string;

      const ready = await call(url, 'GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ error: 'Service unavailable', details: 'migrations: down' });
      const created = await call(url, 'POST', '/api/v1/admin/tenants', { token: adminKey, body: { name: 'tenant-name-never-logged' } });
      expect(created.status).toBe(503);
      expect(created.body).toEqual({ error: 'Service unavailable' });
      const exchanged = await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: 'agw_token-never-logged' } });
      expect(exchanged.status).toBe(503);
      expect(exchanged.body).toEqual({ error: 'Service unavailable' });
    } finally {
      await service.stop();
    }

    const output = service.output.join('');
    const lines = output.trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
    expect(lines.find((line) => line.context === 'Migrations')).toMatchObject({
      level: 40,
      pending: MIGRATIONS.map((migration) => migration.name),
      msg: expect.stringContaining(`${MIGRATIONS.length} database migration(s) pending: run "npm run migration:run"`),
    });
    const failed = lines.filter((line) => line.context === 'Database' && line.msg === 'query failed');
    expect(failed.map((line) => line.sql)).toContainEqual(expect.stringMatching(/^INSERT INTO "tenants"/));
    expect(lines.filter((line) => line.context === 'HttpErrorFilter').map((line) => [line.level, line.cause?.code])).toEqual([
      [40, '42P01'],
      [40, '42P01'],
    ]);
    // The read model listens for nothing (it reads the committed change log, issue 27.6): an unmigrated database
    // gives it nothing to warn about, each refused read is the 503 above. The pruning jobs say nothing either: the
    // pending migrations were said once.
    expect(lines.filter((line) => line.context === 'ReadModel' && line.level >= 40)).toEqual([]);
    expect(lines.filter((line) => /pruning/.test(String(line.msg)))).toEqual([]);
    expect(output).not.toContain('tenant-name-never-logged');
    expect(output).not.toContain('token-never-logged');
    expect(output).not.toMatch(/PARAMETERS|"parameters"/);
  }, 120_000);
});
