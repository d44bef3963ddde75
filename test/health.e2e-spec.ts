import { call } from './support/http';
import { createTenant, gateway } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

describe('health probes', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '1' } });
  });
  afterAll(() => testApp.close());

  it('answers liveness at /healthz', async () => {
    const response = await call(testApp.baseUrl, 'GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('answers readiness at /readyz once the database answers and every migration is applied', async () => {
    const response = await call(testApp.baseUrl, 'GET', '/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' }, migrations: { status: 'up' } } });
  });

  it('is outside the rate limit and needs no token', async () => {
    const tenant = await createTenant(testApp);
    await gateway(testApp, 'GET', '/actions', { token: tenant.jwt });
    expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt })).status).toBe(429);
    for (let i = 0; i < 5; i++) {
      expect((await call(testApp.baseUrl, 'GET', '/readyz', { token: tenant.jwt })).status).toBe(200);
      expect((await call(testApp.baseUrl, 'GET', '/healthz')).status).toBe(200);
    }
  });
});
