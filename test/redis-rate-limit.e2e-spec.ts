import Redis from 'ioredis';
import { createTenant, gateway } from './support/factories';
import { call } from './support/http';
import { describeIf, redisServer } from './support/requirements';
import { TcpProxy } from './support/tcp-proxy';
import { startTestApp, TestApp } from './support/test-app';

const redis = redisServer();
const REDIS = redis.url;

/** TEST_REDIS_URL with its credentials and database index, reached through `port` on 127.0.0.1 (the proxy). */
function throughProxy(port: number): string {
  const url = new URL(REDIS.href);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.href;
}

/** Two replicas on one database and one Redis share every tenant's budget (contract "Rate limits"). */
describeIf(redis)('rate limits across replicas (REDIS_URL)', () => {
  let proxy: TcpProxy;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    proxy = new TcpProxy(REDIS.hostname, Number(REDIS.port || 6379));
    await proxy.start();
    const env = { REDIS_URL: throughProxy(proxy.port), RATE_LIMIT_PER_HOUR: '6', TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE: '1000000' };
    first = await startTestApp({ env });
    second = await startTestApp({
      env: {
        ...env,
        JWT_SECRET: first.config.jwt.secret,
        ADMIN_API_KEY: first.config.adminApiKey,
        ENCRYPTION_KEY: first.config.encryptionKey.toString('base64'),
      },
    });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await proxy?.cut();
  });

  it('counts one tenant\'s requests on both replicas against one budget', async () => {
    const tenant = await createTenant(first);
    const replicas = [first, second, first, second, first, second];
    for (const [index, replica] of replicas.entries()) {
      const response = await gateway(replica, 'GET', '/actions', { token: tenant.jwt });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(5 - index));
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(3_500);
    }
    for (const replica of [first, second]) {
      const limited = await gateway(replica, 'GET', '/actions', { token: tenant.jwt });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ error: 'Rate limit exceeded' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3_500);
    }
    expect((await call(first.baseUrl, 'GET', '/readyz')).body.info.redis).toEqual({ status: 'up' });

    // The counters are in the database TEST_REDIS_URL names (its /N), where nothing else of a developer's is.
    const direct = new Redis(REDIS.href, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await direct.connect();
      expect(await direct.keys(`agw:rate:*${tenant.tenantId}`)).toHaveLength(1);
    } finally {
      direct.disconnect();
    }
  });

  it('keeps serving, counting in memory, while Redis is gone, and reports it in readiness', async () => {
    const tenant = await createTenant(first);
    await proxy.cut();
    for (let i = 0; i < 3; i++) {
      const response = await gateway(first, 'GET', '/actions', { token: tenant.jwt });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('6');
    }
    const readiness = await call(first.baseUrl, 'GET', '/readyz');
    expect(readiness.status).toBe(503);
    expect(readiness.body.details).toContain('redis: down');

    await proxy.restore();
    for (let attempt = 0; attempt < 50 && (await call(first.baseUrl, 'GET', '/readyz')).status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await call(first.baseUrl, 'GET', '/readyz')).status).toBe(200);
    expect((await gateway(second, 'GET', '/actions', { token: tenant.jwt })).status).toBe(200);
  });
});
