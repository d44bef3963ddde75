import { spawnSync } from 'node:child_process';
import { actionBody, createTenant, gateway } from './support/factories';
import { call } from './support/http';
import { Receiver } from './support/receiver';
import { itIf, promtoolCommand } from './support/requirements';
import { startTestApp, TestApp } from './support/test-app';

const SAMPLE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? -?(\d+(\.\d+)?(e[+-]?\d+)?|NaN|\+Inf|-Inf)$/;

/** Parses Prometheus text exposition into sample → value, failing on any line that is not valid. */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    if (!SAMPLE.test(line)) throw new Error(`not Prometheus text: ${line}`);
    const cut = line.lastIndexOf(' ');
    samples.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return samples;
}

describe('/metrics', () => {
  let testApp: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '4' } });
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
  });

  const scrape = async () => {
    const response = await call(testApp.baseUrl, 'GET', '/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return parse(response.text);
  };
  const value = (samples: Map<string, number>, name: string) => samples.get(name) ?? 0;

  it('serves Prometheus text whose counters move with requests, webhooks and rate limits', async () => {
    const tenant = await createTenant(testApp);
    const before = await scrape();
    const listRoute = 'http_request_duration_seconds_count{method="GET",route="/api/v1/gateway/actions",status="200"}';
    const webhook = 'webhook_delivery_duration_seconds_count{kind="registration_test",outcome="status_2xx"}';
    const rejected = 'rate_limit_rejections_total{throttler="default"}';

    expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).status).toBe(201);
    for (let i = 0; i < 4; i++) await gateway(testApp, 'GET', '/actions', { token: tenant.jwt });

    const after = await scrape();
    expect(value(after, listRoute) - value(before, listRoute)).toBe(3);
    expect(value(after, webhook) - value(before, webhook)).toBe(1);
    expect(value(after, rejected) - value(before, rejected)).toBe(1);
    expect(after.has('database_pool_connections{state="total"}')).toBe(true);
    expect(after.has('process_resident_memory_bytes')).toBe(true);
  });

  it('follows Prometheus naming: only counters end in _total', async () => {
    const text = (await call(testApp.baseUrl, 'GET', '/metrics')).text;
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => ({ name, type }));
    expect(types.length).toBeGreaterThan(20);
    expect(types.filter(({ name, type }) => (type === 'counter') !== name.endsWith('_total'))).toEqual([]);
    expect(types.map(({ name }) => name)).toEqual(expect.arrayContaining(['nodejs_active_handles', 'nodejs_active_requests']));
  });

  // promtool (Debian's `prometheus` package; .ci/run installs it and sets REQUIRE_PROMTOOL) checks the rest.
  itIf(promtoolCommand())('has nothing promtool check metrics flags', async () => {
    const text = (await call(testApp.baseUrl, 'GET', '/metrics')).text;
    const promtool = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(promtool.error).toBeUndefined();
    expect({ status: promtool.status, output: `${promtool.stdout}${promtool.stderr}` }).toEqual({ status: 0, output: '' });
  });

  it('labels routes by pattern, never by the raw path', async () => {
    const tenant = await createTenant(testApp);
    await gateway(testApp, 'GET', '/actions/some_unique_name_123', { token: tenant.jwt });
    const text = (await call(testApp.baseUrl, 'GET', '/metrics')).text;
    expect(text).not.toContain('some_unique_name_123');
    expect(text).toContain('route="/api/v1/gateway/actions/:action_name"');
  });
});
