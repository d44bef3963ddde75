import { admin, createTenant, gateway, TestTenant } from './support/factories';
import { eventually } from './support/eventually';
import { call } from './support/http';
import { testDatabase } from './support/database';
import { TcpProxy } from './support/tcp-proxy';
import { startTestApp, TestApp } from './support/test-app';

/** Contract: "Database unreachable: 503 Service unavailable; the service recovers by itself when the database is back." */
describe('database outage', () => {
  let proxy: TcpProxy;
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    const target = new URL(testDatabase().url);
    proxy = new TcpProxy(target.hostname, Number(target.port));
    await proxy.start();
    target.host = `127.0.0.1:${proxy.port}`;
    // The default statement timeout: on the embedded database every worker's statements run on one thread, so a
    // short one could turn an answer that had to wait its turn into a 503. The stall test has an app of its own.
    testApp = await startTestApp({ env: { DATABASE_URL: target.toString() } });
    tenant = await createTenant(testApp);
  });
  afterAll(async () => {
    await testApp?.close();
    await proxy?.cut();
  });

  it('answers 503 while the database is gone and recovers without a restart', async () => {
    expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt })).status).toBe(200);

    await proxy.cut();
    expect((await call(testApp.baseUrl, 'GET', '/healthz')).status).toBe(200);
    const notReady = await call(testApp.baseUrl, 'GET', '/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.body.error).toBe('Service unavailable');
    expect(notReady.body.details).toContain('database: down');
    for (const request of [
      () => gateway(testApp, 'GET', '/actions', { token: tenant.jwt }),
      () => gateway(testApp, 'POST', '/token/exchange', { body: { api_token: tenant.apiToken } }),
    ]) {
      const response = await request();
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ error: 'Service unavailable' });
    }

    await proxy.restore();
    expect((await call(testApp.baseUrl, 'GET', '/readyz')).status).toBe(200);
    const recovered = await gateway(testApp, 'GET', '/actions', { token: tenant.jwt });
    expect(recovered.status).toBe(200);
    expect(recovered.body).toEqual({ actions: [] });
    expect((await gateway(testApp, 'POST', '/token/exchange', { body: { api_token: tenant.apiToken } })).status).toBe(200);
  });

  it.each([
    ['55000', 'database "gateway" is not currently accepting connections'],
    ['3D000', 'database "gateway" does not exist'],
    ['28P01', 'password authentication failed for user "gateway"'],
    ['53300', 'sorry, too many clients already'],
    ['57P03', 'the database system is starting up'],
  ])('answers 503 while the server refuses logins with %s, and recovers when it accepts them', async (code, message) => {
    proxy.refuseLogins(code, message);
    try {
      for (const request of [
        () => gateway(testApp, 'GET', '/actions', { token: tenant.jwt }),
        () => gateway(testApp, 'POST', '/token/exchange', { body: { api_token: tenant.apiToken } }),
        () => admin(testApp, 'GET', '/tenants'),
      ]) {
        const response = await request();
        expect([response.status, response.body]).toEqual([503, { error: 'Service unavailable' }]);
      }
    } finally {
      proxy.accept();
    }
    expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt })).status).toBe(200);
  });

  it('answers 503 at the statement timeout when the database stops answering, not a hung request', async () => {
    // Its own app with a short statement timeout (1 s instead of 10 s), behind its own proxy, so that only this
    // test depends on it. The same secrets: the tenant's token is good there too.
    const target = new URL(testDatabase().url);
    const stalling = new TcpProxy(target.hostname, Number(target.port));
    await stalling.start();
    const config = Object.assign(Object.create(testApp.config) as typeof testApp.config, {
      databaseUrl: stalling.urlTo(testApp.config.databaseUrl!),
      databaseStatementTimeoutMs: 1_000,
    });
    let shortTimeout: TestApp | undefined;
    const actions = () => gateway(shortTimeout!, 'GET', '/actions', { token: tenant.jwt });
    try {
      shortTimeout = await startTestApp({ config });
      // Served once first, as the other app has been: the stall then meets a connection already open, not the
      // connect timeout (5 s). Retried: on the embedded database a second of waiting for its turn is a 503 here.
      await eventually(async () => expect((await actions()).status).toBe(200), 30_000, 500);
      // The database answers nothing until resumed, so this answer can only come from the service's own timeout.
      stalling.stall();
      try {
        const response = await actions();
        expect(response.status).toBe(503);
        expect(response.body).toEqual({ error: 'Service unavailable' });
      } finally {
        stalling.resume();
      }
      // The slow connection was given up; the next request gets a fresh one.
      await eventually(async () => expect((await actions()).status).toBe(200), 30_000, 500);
    } finally {
      await shortTimeout?.close();
      await stalling.cut();
    }
  });
});
