import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { call } from './support/http';
import { actionBody, createTenant, gateway } from './support/factories';
import { Receiver } from './support/receiver';
import { itIf, promtoolCommand, redisServer } from './support/requirements';
import { startTestApp, TestApp } from './support/test-app';

const ROOT = join(__dirname, '..');
const MONITORING = join(ROOT, 'deploy/monitoring');
/** Series the rules and the dashboard read from elsewhere than the service (kube-state-metrics). */
const EXTERNAL = new Set(['kube_pod_container_status_restarts_total']);
const PROMQL_WORDS = new Set(['by', 'without', 'and', 'or', 'unless', 'ignoring', 'on', 'group_left', 'group_right', 'bool', 'offset', 'le', 'inf', 'nan']);

interface Rule {
  alert: string;
  expr: string;
}
const rulesFile = () => YAML.parse(readFileSync(join(MONITORING, 'alert-rules.yaml'), 'utf8')) as { groups: { rules: Rule[] }[] };
const dashboard = () => JSON.parse(readFileSync(join(MONITORING, 'grafana-dashboard.json'), 'utf8')) as { panels: { id: number; type: string; targets?: { expr: string }[] }[] };

/** The metric names a PromQL expression reads: identifiers outside label matchers, strings and groupings, not functions. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+/g, ' ');
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)]
    .filter((match) => !bare.slice(match.index + match[0].length).trimStart().startsWith('('))
    .map(([name]) => name)
    .filter((name) => !PROMQL_WORDS.has(name.toLowerCase()));
}

describe('dashboards and alert rules (deploy/monitoring)', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    // Every optional dependency configured, so every metric the dashboard may show is there: REDIS_URL (a closed
    // port: this Redis stays down) and an OTLP endpoint (nothing listens; spans are dropped).
    testApp = await startTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:9/0', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' } });
  });
  afterAll(() => testApp.close());

  it('query only metrics the running service exports (a renamed metric fails here)', async () => {
    const text = (await call(testApp.baseUrl, 'GET', '/metrics')).text;
    const types = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => [name, type]));
    const exported = (name: string) => {
      if (types.has(name)) return true;
      const histogram = /^(.*)_(bucket|count|sum)$/.exec(name);
      return histogram !== null && ['histogram', 'summary'].includes(types.get(histogram[1]) ?? '');
    };
    const queried = [
      ...rulesFile().groups.flatMap((group) => group.rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr }))),
      ...dashboard().panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `panel ${panel.id}`, expr: target.expr }))),
    ];
    const names = new Set(queried.flatMap(({ expr }) => metricNames(expr)));
    // The parser finds what the dashboard is about, not a handful of names.
    expect([...names]).toEqual(expect.arrayContaining(['http_request_duration_seconds_bucket', 'executions_total', 'redis_up', 'read_model_resets_total', 'database_pool_connections']));
    const missing = queried.flatMap(({ where, expr }) => metricNames(expr).filter((name) => !EXTERNAL.has(name) && !exported(name)).map((name) => `${where}: ${name}`));
    expect(missing).toEqual([]);
  });

  it('starts every counter whose label sets are known at 0, so that rate() and increase() see their first burst', async () => {
    const text = (await call(testApp.baseUrl, 'GET', '/metrics')).text;
    for (const throttler of ['default', 'exchange', 'operator', 'admin-key-failures', 'redemption']) {
      expect(text).toMatch(new RegExp(`^rate_limit_rejections_total\\{throttler="${throttler}"\\} 0$`, 'm'));
    }
    expect(text).toMatch(/^executions_total\{status="failed"\} 0$/m);
    expect(text).toMatch(/^executions_short_circuited_total 0$/m);
    expect(text).toMatch(/^webhook_circuit_openings_total 0$/m);
    for (const state of ['closed', 'open', 'half_open']) expect(text).toMatch(new RegExp(`^webhook_circuits\\{state="${state}"\\} 0$`, 'm'));
    for (const outcome of ['exported', 'failed']) expect(text).toMatch(new RegExp(`^tracing_spans_total\\{exporter="otlp",outcome="${outcome}"\\} \\d+$`, 'm'));
    const caches = [...text.matchAll(/^read_model_reads_total\{cache="([^"]+)",source="(memory|database)"\}/gm)].map(([, cache, source]) => `${cache}/${source}`);
    const names = [...new Set(caches.map((entry) => entry.split('/')[0]))];
    expect(names.length).toBeGreaterThan(2);
    expect(caches.sort()).toEqual(names.flatMap((name) => [`${name}/database`, `${name}/memory`]).sort());
  });

  it('counts executions by status, and reports the pool\'s size beside its connections', async () => {
    const receiver = await Receiver.start();
    try {
      const tenant = await createTenant(testApp);
      const name = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action.name;
      expect((await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'x' } } })).status).toBe(200);
    } finally {
      await receiver.stop();
    }
    const text = (await call(testApp.baseUrl, 'GET', '/metrics')).text;
    expect(text).toMatch(/^executions_total\{status="succeeded"\} [1-9]/m);
    expect(text).toContain(`database_pool_connections{state="max"} ${testApp.config.databasePoolSize}`);
    expect(text).toMatch(/^redis_up 0$/m);
  });

  it('has no redis_up series without REDIS_URL, so that RedisDown cannot fire', async () => {
    const withoutRedis = await startTestApp();
    try {
      expect((await call(withoutRedis.baseUrl, 'GET', '/metrics')).text).not.toContain('redis_up');
    } finally {
      await withoutRedis.close();
    }
  });

  const redis = redisServer();
  itIf(redis)('reports redis_up 1 while the rate limits\' Redis is connected', async () => {
    const withRedis = await startTestApp({ env: { REDIS_URL: redis.url.toString() } });
    try {
      const scrape = async () => (await call(withRedis.baseUrl, 'GET', '/metrics')).text;
      let text = await scrape();
      for (let i = 0; i < 50 && !/^redis_up 1$/m.test(text); i++) text = await new Promise((resolve) => setTimeout(() => void scrape().then(resolve), 100));
      expect(text).toMatch(/^redis_up 1$/m);
    } finally {
      await withRedis.close();
    }
  });

  it('keeps every label bounded: routes by pattern, no tenant, action, execution or URL label', async () => {
    const text = (await call(testApp.baseUrl, 'GET', '/metrics')).text;
    const labels = new Set([...text.matchAll(/[{,]([a-zA-Z_][a-zA-Z0-9_]*)="/g)].map(([, label]) => label));
    for (const unbounded of ['tenant', 'tenant_id', 'action', 'action_name', 'execution_id', 'url', 'path']) expect(labels).not.toContain(unbounded);
  });

  it('hold the same groups in the plain rules file and the PrometheusRule', () => {
    const generated = spawnSync(process.execPath, [join(ROOT, 'scripts/build-alert-rules.js'), '--check'], { encoding: 'utf8' });
    expect({ status: generated.status, stderr: generated.stderr }).toEqual({ status: 0, stderr: '' });
    const operator = YAML.parse(readFileSync(join(MONITORING, 'prometheus-rule.yaml'), 'utf8')) as { kind: string; spec: unknown };
    expect(operator.kind).toBe('PrometheusRule');
    expect(operator.spec).toEqual(rulesFile());
    expect(rulesFile().groups.flatMap((group) => group.rules.map((rule) => rule.alert)).sort()).toEqual([
      'ActionGateway5xxRatioHigh',
      'ActionGatewayDatabasePoolSaturated',
      'ActionGatewayLatencyP99High',
      'ActionGatewayPodRestarting',
      'ActionGatewayReadModelMissRatioHigh',
      'ActionGatewayReadModelOutOfStep',
      'ActionGatewayRedisDown',
      'ActionGatewayWebhookCircuitsOpen',
      'ActionGatewayWebhookFailureRatioHigh',
    ]);
  });

  it('gives every dashboard panel a unique id and the dashboard\'s data source', () => {
    const panels = dashboard().panels;
    expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
    const queried = panels.filter((panel) => panel.type !== 'row');
    expect(queried.every((panel) => (panel as { datasource?: { uid?: string } }).datasource?.uid === '${datasource}')).toBe(true);
  });

  const withPromtool = itIf(promtoolCommand());
  withPromtool('answer the dashboard\'s ratios with 0, not nothing, when nothing failed (promtool test rules on the dashboard\'s own queries)', () => {
    const ratio = (panelId: number) => {
      const target = dashboard().panels.find((panel) => panel.id === panelId)!.targets!.find((candidate) => candidate.expr.includes(' / '))!;
      // As Grafana sends it, for every job and instance over a 5-minute window.
      return target.expr.replace(/\$job|\$instance/g, '.*').replace(/\$__rate_interval/g, '5m');
    };
    const sample = (expr: string, value: number) => ({ expr, eval_time: '10m', exp_samples: [{ labels: '{}', value }] });
    const requests = (status: string, perMinute: number) => ({
      series: `http_request_duration_seconds_count{method="GET",route="/api/v1/gateway/actions",status="${status}",instance="a",job="gw"}`,
      values: `0+${perMinute}x20`,
    });
    const attempts = (outcome: string, perMinute: number) => ({
      series: `webhook_delivery_duration_seconds_count{kind="execution",outcome="${outcome}",instance="a",job="gw"}`,
      values: `0+${perMinute}x20`,
    });
    const tests = {
      tests: [
        { interval: '1m', input_series: [requests('200', 90), attempts('status_2xx', 60)], promql_expr_test: [sample(ratio(3), 0), sample(ratio(10), 0)] },
        { interval: '1m', input_series: [requests('200', 90), requests('503', 10), attempts('status_2xx', 60), attempts('timed_out', 20)], promql_expr_test: [sample(ratio(3), 0.1), sample(ratio(10), 0.25)] },
      ],
    };
    const folder = mkdtempSync(join(tmpdir(), 'agw-dashboard-'));
    writeFileSync(join(folder, 'dashboard.test.yaml'), YAML.stringify(tests));
    const run = spawnSync('promtool', ['test', 'rules', 'dashboard.test.yaml'], { cwd: folder, encoding: 'utf8' });
    expect({ status: run.status, output: `${run.stdout}${run.stderr}` }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  withPromtool('pass promtool check rules, and promtool test rules (each alert firing and not firing)', () => {
    for (const args of [['check', 'rules', 'alert-rules.yaml'], ['test', 'rules', 'alert-rules.test.yaml']]) {
      const run = spawnSync('promtool', args, { cwd: MONITORING, encoding: 'utf8' });
      expect({ args, status: run.status, output: `${run.stdout}${run.stderr}` }).toEqual({ args, status: 0, output: expect.stringContaining('SUCCESS') });
    }
  });
});
