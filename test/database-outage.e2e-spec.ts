import { admin, createTenant, gateway, TestTenant } from './support/factories';
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
    testApp = await startTestApp({ env: { DATABASE_URL: target.toString(), DATABASE_STATEMENT_TIMEOUT_MS: '1000' } });
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
    // The database answers nothing until resumed, so this answer can only come from the service's own timeout.
    proxy.stall();
    try {
      const response = await gateway(testApp, 'GET', '/actions', { token: tenant.jwt });
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ error: 'Service unavailable' });
    } finally {
      proxy.resume();
    }
    // The slow connection was given up; the next request gets a fresh one.
    for (let attempt = 0; attempt < 20; attempt++) {
      if ((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt })).status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('did not recover after the slow spell');
  });
});
