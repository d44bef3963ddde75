// Asynchronous executions (Prefer: respond-async), against the built service: `npm run build && node bench/async-executions.mjs`.
// On the embedded database by default; BENCH_DATABASE_URL runs it on a PostgreSQL server (an empty, migrated
// database). Prints one JSON report:
//   1. executions/s: the same action, executed synchronously by CONNECTIONS keep-alive clients for DURATION_S, then
//      accepted asynchronously the same way (202s/s), and how fast the accepted ones were then run to their end
//      (completed/s, from the first accept to the last finish);
//   2. the bound: a tenant whose receiver never answers sends HANGING_ACCEPTS accepts; how many got 202 and 429, how
//      many were unfinished at most (ASYNC_EXECUTIONS_PER_TENANT, 100 by default), the service's RSS, and how long
//      another tenant's asynchronous executions took meanwhile (the hanging calls hold worker slots).
// Every loop is bounded by a deadline and a request budget; traffic goes to 127.0.0.1 only.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { freePort, HOST, killAllChildren, machineInfo, percentile, round, rssMb, runNodeJson, sampleRss, sleep, sourceVersion, spawnNode, stopChild } from './lib/common.mjs';
import { bootstrap, call, EXECUTABLE, EXECUTE_BODY, GATEWAY, startService } from './lib/service.mjs';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const DURATION_S = Number(process.env.DURATION_S ?? 10);
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const HANGING_ACCEPTS = Number(process.env.HANGING_ACCEPTS ?? 1000);
const WEBHOOK_TIMEOUT_MS = 5_000;
const DRAIN_LIMIT_MS = 300_000;

process.on('exit', killAllChildren);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(1));

const secrets = { ADMIN_API_KEY: randomBytes(32).toString('hex'), JWT_SECRET: randomBytes(48).toString('base64'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };
const dataDir = mkdtempSync(join(tmpdir(), 'agw-bench-async-'));
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const database = process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL, RUN_MIGRATIONS: 'true' } : {};

/** The fast receiver (bench/receiver.mjs) on CPU 1, and a hanging one here, which answers only registration tests. */
async function receivers() {
  const port = await freePort();
  const fast = spawnNode(['bench/receiver.mjs', String(port)], { cpu: 1, name: 'the receiver' });
  for (let i = 0; i < 200; i++) {
    try {
      await call(`http://${HOST}:${port}`, 'GET', '/readyz', { expected: 200 });
      break;
    } catch {
      await sleep(25);
    }
  }
  const held = [];
  const hanging = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (Buffer.concat(chunks).toString().includes('"test":true')) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else held.push(res);
    });
  });
  await new Promise((resolve) => hanging.listen(0, HOST, resolve));
  return { fast, fastUrl: `http://${HOST}:${port}/hook`, hanging, hangingUrl: `http://${HOST}:${hanging.address().port}/hook`, held };
}

/** Until no execution of the tenant is pending or running; resolves with when that was seen (performance.now()). */
async function drained(url, jwt, deadline) {
  while (performance.now() < deadline) {
    const [pending, running] = await Promise.all(
      ['pending', 'running'].map((status) => call(url, 'GET', `${GATEWAY}/executions?status=${status}&limit=1`, { token: jwt, expected: 200 }).then((r) => r.json.executions.length)),
    );
    if (pending + running === 0) return performance.now();
    await sleep(50);
  }
  throw new Error('the accepted executions did not all finish in time');
}

const autocannon = (url, jwt, headers, durationS, warmupS) =>
  runNodeJson(
    ['bench/load.mjs', JSON.stringify({ kind: 'autocannon', url: `${url}${GATEWAY}/actions/${EXECUTABLE}/execute`, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}`, ...headers }, body: EXECUTE_BODY, connections: CONNECTIONS, warmupS, durationS })],
    { cpu: 1, timeoutMs: (durationS + warmupS + 60) * 1_000, name: 'the load generator' },
  );

async function throughput(report, fastUrl) {
  const port = await freePort();
  // The bound is not what is measured here: a run keeps up to 100,000 accepted.
  const service = await startService({ port, dataDir, secrets, nodeArgs, env: { ...database, ASYNC_EXECUTIONS_PER_TENANT: '100000' } });
  try {
    const { jwt } = await bootstrap(service.url, secrets.ADMIN_API_KEY, fastUrl);
    const sync = await autocannon(service.url, jwt, {}, DURATION_S, WARMUP_S);
    // The warm-up's accepts run before the measured ones start.
    await autocannon(service.url, jwt, { prefer: 'respond-async' }, WARMUP_S, 0);
    await drained(service.url, jwt, performance.now() + DRAIN_LIMIT_MS);
    const started = performance.now();
    const accepted = await autocannon(service.url, jwt, { prefer: 'respond-async' }, DURATION_S, 0);
    const finished = await drained(service.url, jwt, performance.now() + DRAIN_LIMIT_MS);
    report.throughput = {
      connections: CONNECTIONS,
      duration_s: DURATION_S,
      sync: { executions_per_s: sync.rps, p50_ms: sync.p50_ms, p99_ms: sync.p99_ms, failures: sync.failures },
      async: {
        accepted_per_s: accepted.rps,
        accept_p50_ms: accepted.p50_ms,
        accept_p99_ms: accepted.p99_ms,
        accepted: accepted.ok,
        failures: accepted.failures,
        completed_per_s: round(accepted.ok / ((finished - started) / 1_000), 1),
        drain_s: round((finished - started) / 1_000 - accepted.duration_s, 1),
      },
    };
  } finally {
    await stopChild(service.child);
  }
}

async function bound(report, { fastUrl, hangingUrl, held }) {
  const port = await freePort();
  const service = await startService({ port, dataDir, secrets, nodeArgs, env: { ...database, WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS), WEBHOOK_MAX_RETRIES: '0' } });
  try {
    const admin = (path, body) => call(service.url, 'POST', `/api/v1/admin${path}`, { body, token: secrets.ADMIN_API_KEY, expected: 201 }).then((r) => r.json);
    const tenant = async (name, webhookUrl) => {
      const made = await admin('/tenants', { name: `${name}-${Date.now()}` });
      const { api_token } = await admin(`/tenants/${made.tenant.id}/api-tokens`, { name });
      await admin(`/tenants/${made.tenant.id}/hmac-keys`);
      const jwt = (await call(service.url, 'POST', `${GATEWAY}/token/exchange`, { body: { api_token: api_token.token }, expected: 200 })).json.jwt_token;
      await call(service.url, 'POST', `${GATEWAY}/actions`, { token: jwt, expected: 201, body: { name: 'slow', description: 'd', webhook_url: webhookUrl, json_schema: { type: 'object' } } });
      return jwt;
    };
    const hanging = await tenant('hanging', hangingUrl);
    const neighbour = await tenant('neighbour', fastUrl);
    const rssBefore = rssMb(service.child.pid);
    const rss = sampleRss(service.child.pid);
    const pool = new Pool(service.url, { connections: 10 });
    const statuses = {};
    let maxUnfinished = 0;
    const accept = (jwt) =>
      pool.request({ method: 'POST', path: `${GATEWAY}/actions/slow/execute`, headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json', prefer: 'respond-async' }, body: '{}' });
    const started = performance.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (sent < HANGING_ACCEPTS && performance.now() - started < 120_000) {
          sent += 1;
          const res = await accept(hanging);
          await res.body.dump();
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        }
      }),
    );
    const unfinished = async () => {
      let count = 0;
      for (const status of ['pending', 'running']) count += (await call(service.url, 'GET', `${GATEWAY}/executions?status=${status}&limit=100`, { token: hanging, expected: 200 })).json.executions.length;
      return count;
    };
    maxUnfinished = await unfinished();
    // The neighbour's asynchronous executions while the hanging tenant's hold their slots: accept to finished.
    const neighbourMs = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const res = await accept(neighbour);
      const { execution } = await res.body.json();
      for (;;) {
        const read = await call(service.url, 'GET', `${GATEWAY}/executions/${execution.id}`, { token: neighbour, expected: 200 });
        if (read.json.execution.status === 'succeeded' || read.json.execution.status === 'failed') break;
        if (performance.now() - t0 > 120_000) throw new Error('the neighbour execution did not finish');
        await sleep(20);
      }
      neighbourMs.push(performance.now() - t0);
    }
    const peakRss = rss.stop();
    neighbourMs.sort((a, b) => a - b);
    report.bound = {
      webhook_timeout_ms: WEBHOOK_TIMEOUT_MS,
      accepts_sent: sent,
      answers: statuses,
      unfinished_after_the_burst: maxUnfinished,
      calls_held_by_the_receiver: held.length,
      rss_mb: { before: rssBefore, peak: peakRss },
      neighbour_accept_to_finish_ms: { p50: round(percentile(neighbourMs, 0.5), 0), max: round(neighbourMs.at(-1), 0) },
    };
    await pool.close();
  } finally {
    for (const response of held.splice(0)) response.destroy();
    await stopChild(service.child);
  }
}

const report = { benchmark: 'async-executions', database: process.env.BENCH_DATABASE_URL ? 'postgresql' : 'embedded', source: sourceVersion(), machine: machineInfo() };
const receiver = await receivers();
try {
  await throughput(report, receiver.fastUrl);
  await bound(report, receiver);
} finally {
  receiver.hanging.close();
  await stopChild(receiver.fast);
  rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.exit(0);
