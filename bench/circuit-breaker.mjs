// The circuit breaker's fail-fast, against the built service: `npm run build && node bench/circuit-breaker.mjs`.
// On the embedded database by default; BENCH_DATABASE_URL runs it on a PostgreSQL server (an empty, migrated
// database). One action's receiver never answers (WEBHOOK_TIMEOUT_MS 3000, retries as configured by default): the
// first WEBHOOK_BREAKER_FAILURES (5) executions each wait for the timeout, then the circuit is open and EXECUTIONS
// more are sent one after another over one keep-alive connection; for comparison the same number go to another
// action whose receiver answers at once. Prints one JSON report: each phase's latency (p50, p99, max), the calls
// the hanging receiver got, and executions/s with CONNECTIONS clients while the circuit is open.
// Traffic goes to 127.0.0.1 only; every loop has a bound.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { freePort, HOST, killAllChildren, machineInfo, percentile, round, runNodeJson, sleep, sourceVersion, spawnNode, stopChild } from './lib/common.mjs';
import { bootstrap, call, EXECUTABLE, EXECUTE_BODY, GATEWAY, startService } from './lib/service.mjs';

const EXECUTIONS = Number(process.env.EXECUTIONS ?? 500);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const DURATION_S = Number(process.env.DURATION_S ?? 10);
const WEBHOOK_TIMEOUT_MS = 3_000;

process.on('exit', killAllChildren);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(1));

const secrets = { ADMIN_API_KEY: randomBytes(32).toString('hex'), JWT_SECRET: randomBytes(48).toString('base64'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };
const dataDir = mkdtempSync(join(tmpdir(), 'agw-bench-breaker-'));
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const database = process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL, RUN_MIGRATIONS: 'true' } : {};

/** Latency of `count` executions of `action`, one after another (ms), and their statuses and errors. */
async function sequential(pool, jwt, action, count) {
  const ms = [];
  const errors = {};
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await pool.request({ method: 'POST', path: `${GATEWAY}/actions/${action}/execute`, headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' }, body: EXECUTE_BODY });
    const { execution } = await res.body.json();
    ms.push(performance.now() - t0);
    const key = `${execution.status}: ${execution.error.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/, '<time>')}`;
    errors[key] = (errors[key] ?? 0) + 1;
  }
  const sorted = [...ms].sort((a, b) => a - b);
  return { executions: count, p50_ms: round(percentile(sorted, 0.5), 2), p99_ms: round(percentile(sorted, 0.99), 2), max_ms: round(sorted.at(-1), 1), outcomes: errors };
}

const report = { benchmark: 'circuit-breaker', database: process.env.BENCH_DATABASE_URL ? 'postgresql' : 'embedded', source: sourceVersion(), machine: machineInfo() };

// The fast receiver (bench/receiver.mjs) on CPU 1, and one here that answers registration tests only.
const fastPort = await freePort();
const fast = spawnNode(['bench/receiver.mjs', String(fastPort)], { cpu: 1, name: 'the receiver' });
for (let i = 0; i < 200; i++) {
  try {
    await call(`http://${HOST}:${fastPort}`, 'GET', '/readyz', { expected: 200 });
    break;
  } catch {
    await sleep(25);
  }
}
let hangingCalls = 0;
const held = [];
const hanging = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (Buffer.concat(chunks).toString().includes('"test":true')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    hangingCalls += 1;
    held.push(res);
  });
});
await new Promise((resolve) => hanging.listen(0, HOST, resolve));
const hangingUrl = `http://${HOST}:${hanging.address().port}/hook`;

const port = await freePort();
// A long cooldown: the circuit stays open for the whole measurement.
const service = await startService({ port, dataDir, secrets, nodeArgs, env: { ...database, WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS), WEBHOOK_BREAKER_COOLDOWN_MS: '3600000' } });
try {
  const { jwt } = await bootstrap(service.url, secrets.ADMIN_API_KEY, `http://${HOST}:${fastPort}/hook`);
  await call(service.url, 'POST', `${GATEWAY}/actions`, { token: jwt, expected: 201, body: { name: 'hanging', description: 'never answers', webhook_url: hangingUrl, json_schema: { type: 'object' } } });
  const pool = new Pool(service.url, { connections: 1 });
  await sequential(pool, jwt, EXECUTABLE, 200); // warm-up
  report.webhook_timeout_ms = WEBHOOK_TIMEOUT_MS;
  report.before_opening = await sequential(pool, jwt, 'hanging', 5);
  const callsWhenOpened = hangingCalls;
  report.open_fail_fast = await sequential(pool, jwt, 'hanging', EXECUTIONS);
  report.healthy_action_same_run = await sequential(pool, jwt, EXECUTABLE, EXECUTIONS);
  report.hanging_receiver_calls = { until_open: callsWhenOpened, while_open: hangingCalls - callsWhenOpened };
  await pool.close();
  const load = await runNodeJson(
    ['bench/load.mjs', JSON.stringify({ kind: 'autocannon', url: `${service.url}${GATEWAY}/actions/hanging/execute`, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` }, body: EXECUTE_BODY, connections: CONNECTIONS, warmupS: 1, durationS: DURATION_S })],
    { cpu: 1, timeoutMs: (DURATION_S + 60) * 1_000, name: 'the load generator' },
  );
  report.open_fail_fast_load = { connections: CONNECTIONS, duration_s: DURATION_S, executions_per_s: load.rps, p50_ms: load.p50_ms, p99_ms: load.p99_ms, failures: load.failures };
  report.hanging_receiver_calls.total = hangingCalls;
} finally {
  for (const response of held.splice(0)) response.destroy();
  hanging.close();
  await stopChild(service.child);
  await stopChild(fast);
  rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.exit(0);
