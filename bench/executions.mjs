// Benchmark of executions (POST /api/v1/gateway/actions/{name}/execute) against a local receiver.
//
//   npm run bench:executions                      # builds, then runs on the embedded database (PGlite)
//   DATABASE_URL=postgres://... npm run bench:executions
//
// It starts the BUILT service (dist/src/main.js) as a child process on 127.0.0.1 with a throw-away DATA_DIR,
// bootstraps a tenant through the admin API, registers an action pointing at a receiver in this process, then
// measures, BENCH_ROUNDS times:
//   1. throughput: BENCH_CONCURRENCY clients executing back to back for BENCH_DURATION_S (after a warm-up);
//   2. overhead: sequential executions vs. sequential POSTs of a captured, signed webhook call straight to the
//      receiver, i.e. what the gateway adds on top of the webhook round trip itself.
// Medians over the rounds are printed and written to bench/results/executions-<timestamp>.json.
// All traffic stays on 127.0.0.1; every loop is bounded by a request count and a deadline.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const CONFIG = {
  concurrency: num('BENCH_CONCURRENCY', 16),
  durationS: num('BENCH_DURATION_S', 10),
  warmupS: num('BENCH_WARMUP_S', 2),
  rounds: num('BENCH_ROUNDS', 3),
  sequentialRequests: num('BENCH_SEQUENTIAL_REQUESTS', 1000), // per side, per round (also capped at 15 s)
  maxRequestsPerPhase: 1_000_000,
};
const database = process.env.DATABASE_URL ? 'postgresql (DATABASE_URL)' : 'embedded (PGlite)';
// A hard stop, whatever happens: the script must end by itself.
const HARD_DEADLINE_MS = 15 * 60_000;
let serviceProcess; // killed by the hard stop too

// ---------- the local receiver: answers at once, keeps connections alive, keeps the first real call ----------
let captured; // { body, headers } of one execution's webhook call, replayed by the direct measurement
const RECEIVER_ANSWER = JSON.stringify({ result: 'ok', error: '' });
const receiver = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (!captured) {
      const body = Buffer.concat(chunks).toString('utf8');
      if (!body.includes('"test":true')) captured = { body, headers: { ...req.headers } };
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(RECEIVER_ANSWER) }).end(RECEIVER_ANSWER);
  });
});

// ---------- helpers ----------
async function freePort() {
  const server = createNetServer();
  await new Promise((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Nearest-rank percentile of an ascending array, in ms with two decimals. */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]);
}
const round = (x) => Math.round(x * 100) / 100;
const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b); // CPU figures are missing off Linux
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return round(sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2);
};

/** One JSON call to the service; throws with the answer when the status is not the expected one. */
async function call(pool, method, path, body, token, expected) {
  const res = await pool.request({
    method,
    path,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode !== expected) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

// ---------- the service under test ----------
function startService(port, dataDir) {
  const env = {
    ...process.env,
    NODE_ENV: 'development', // loopback http webhooks are refused in production
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST,
    LOG_LEVEL: 'warn',
    // The limits would cut the measurement short; they are not what is measured.
    RATE_LIMIT_PER_HOUR: '100000000',
    TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE: '100000',
    // Given rather than generated, so the bench knows the admin key without reading DATA_DIR.
    ADMIN_API_KEY: randomBytes(32).toString('hex'),
    JWT_SECRET: randomBytes(48).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean); // e.g. --prof
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'dist/src/main.js')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Keep the last lines of output for an error message; draining the pipes also keeps the child from blocking.
  const tail = [];
  const keep = (chunk) => {
    tail.push(...chunk.toString().split('\n').filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - 20));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { child, adminKey: env.ADMIN_API_KEY, tail };
}

// ---------- CPU accounting (Linux /proc; figures are null elsewhere) ----------
// CPU per execution hardly moves when other work shares the machine, unlike executions/s; and the CPU that
// neither the service, the database nor this process used tells how disturbed a round was.
const TICK_S = 0.01; // /proc counts in USER_HZ = 100 ticks per second

function processCpuSeconds(statText) {
  const fields = statText.slice(statText.lastIndexOf(') ') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_S; // utime + stime
}

/** CPU seconds used so far by the service, by local `postgres` processes, by this process and by the machine. */
function cpuSnapshot(servicePid) {
  try {
    let postgres = 0;
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (stat.includes(' (postgres) ')) postgres += processCpuSeconds(stat);
      } catch {
        // the process has gone
      }
    }
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const busy = (ticks.reduce((a, b) => a + b, 0) - ticks[3] - ticks[4]) * TICK_S; // minus idle and iowait
    const self = process.cpuUsage();
    return { service: processCpuSeconds(readFileSync(`/proc/${servicePid}/stat`, 'utf8')), postgres, busy, bench: (self.user + self.system) / 1e6 };
  } catch {
    return undefined;
  }
}

function cpuFigures(before, after, executions, seconds) {
  if (!before || !after) return {};
  const d = Object.fromEntries(Object.keys(before).map((key) => [key, after[key] - before[key]]));
  return {
    service_cpu_ms_per_execution: round((d.service * 1000) / executions),
    postgres_cpu_ms_per_execution: round((d.postgres * 1000) / executions),
    bench_process_cpu_cores: round(d.bench / seconds), // the clients and the receiver share the machine too
    other_processes_cpu_cores: round(Math.max(0, d.busy - d.service - d.postgres - d.bench) / seconds),
  };
}

async function waitUntilUp(pool, child, tail) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${tail.join('\n')}`);
    try {
      const res = await pool.request({ method: 'GET', path: '/api/v1/gateway/actions' });
      await res.body.dump();
      if (res.statusCode === 401) return; // routed and guarded: the app is up
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`service did not answer within 60 s:\n${tail.join('\n')}`);
}

async function stopService(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  if ((await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)])) === false) child.kill('SIGKILL');
}

/** A tenant, API token and HMAC key via the admin API; then a bearer token and an action on the receiver. */
async function bootstrap(pool, adminKey, receiverPort) {
  const { tenant } = await call(pool, 'POST', '/api/v1/admin/tenants', { name: 'bench' }, adminKey, 201);
  const { api_token } = await call(pool, 'POST', `/api/v1/admin/tenants/${tenant.id}/api-tokens`, { name: 'bench' }, adminKey, 201);
  await call(pool, 'POST', `/api/v1/admin/tenants/${tenant.id}/hmac-keys`, undefined, adminKey, 201);
  const { jwt_token } = await call(pool, 'POST', '/api/v1/gateway/token/exchange', { api_token: api_token.token }, undefined, 200);
  const action = {
    name: 'get_weather',
    description: 'Current weather for a city',
    webhook_url: `http://${HOST}:${receiverPort}/hook`,
    json_schema: { type: 'object', properties: { city: { type: 'string' } } },
  };
  await call(pool, 'POST', '/api/v1/gateway/actions', action, jwt_token, 201);
  return { jwt: jwt_token, actionName: action.name };
}

// ---------- load loops ----------
/**
 * `workers` loops each sending `send()` back to back until the deadline or the request budget runs out.
 * `send` resolves to undefined on success, else to a description of the problem. Returns the latencies (ms) of
 * successes, the errors and the time taken.
 */
async function loop(workers, seconds, maxRequests, send) {
  const latencies = [];
  const errors = { count: 0, samples: [] };
  const deadline = performance.now() + seconds * 1000;
  let issued = 0;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < deadline && issued < maxRequests) {
      issued++;
      const t0 = performance.now();
      let problem;
      try {
        problem = await send();
      } catch (error) {
        problem = String(error?.code ?? error);
      }
      if (problem) {
        errors.count++;
        if (errors.samples.length < 5) errors.samples.push(problem);
      } else latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return { latencies: latencies.sort((a, b) => a - b), errors, elapsedS: (performance.now() - started) / 1000 };
}

/** One execution; any non-200 or a failed execution is an error (returned as text). */
function executor(pool, jwt, actionName) {
  const path = `/api/v1/gateway/actions/${actionName}/execute`;
  const body = JSON.stringify({ parameters: { city: 'Oslo' } });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${jwt}` };
  return async () => {
    const res = await pool.request({ method: 'POST', path, headers, body });
    const text = await res.body.text();
    if (res.statusCode !== 200) return `${res.statusCode} ${text.slice(0, 200)}`;
    const { execution } = JSON.parse(text);
    return execution.status === 'succeeded' ? undefined : `execution ${execution.status}: ${execution.error}`;
  };
}

/** The captured webhook call, sent as the gateway sends it: same bytes, same headers, keep-alive undici. */
function directPoster(pool) {
  const { 'content-type': type, 'user-agent': agent, 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': sig } = captured.headers;
  const headers = { 'content-type': type, 'user-agent': agent, 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': sig };
  return async () => {
    const res = await pool.request({ method: 'POST', path: '/hook', headers, body: captured.body });
    const text = await res.body.text();
    return res.statusCode === 200 ? undefined : `${res.statusCode} ${text.slice(0, 200)}`;
  };
}

const summary = ({ latencies, errors, elapsedS }) => ({
  requests: latencies.length + errors.count,
  errors: errors.count,
  error_samples: errors.samples,
  per_second: round(latencies.length / elapsedS),
  p50_ms: percentile(latencies, 0.5),
  p90_ms: percentile(latencies, 0.9),
  p99_ms: percentile(latencies, 0.99),
});

// ---------- main ----------
// Other work on the machine skews every figure: the load average before starting is kept with the results.
const loadBefore = loadavg()[0];

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agw-bench-'));
  await new Promise((resolve) => receiver.listen(0, HOST, resolve));
  const receiverPort = receiver.address().port;
  const port = await freePort();
  const { child, adminKey, tail } = startService(port, dataDir);
  serviceProcess = child;
  // One connection per client, so the clients never queue behind each other inside undici.
  const service = new Pool(`http://${HOST}:${port}`, { connections: CONFIG.concurrency, pipelining: 1 });
  const direct = new Pool(`http://${HOST}:${receiverPort}`, { connections: 1, pipelining: 1 });
  try {
    await waitUntilUp(service, child, tail);
    const { jwt, actionName } = await bootstrap(service, adminKey, receiverPort);
    const execute = executor(service, jwt, actionName);
    const rounds = [];
    for (let r = 1; r <= CONFIG.rounds; r++) {
      await loop(CONFIG.concurrency, CONFIG.warmupS, CONFIG.maxRequestsPerPhase, execute);
      const cpuBefore = cpuSnapshot(child.pid);
      const result = await loop(CONFIG.concurrency, CONFIG.durationS, CONFIG.maxRequestsPerPhase, execute);
      const throughput = { ...summary(result), ...cpuFigures(cpuBefore, cpuSnapshot(child.pid), result.latencies.length + result.errors.count, result.elapsedS) };
      if (!captured) throw new Error('the receiver saw no execution call');
      const post = directPoster(direct);
      // Short sequential warm-ups, then both sides with the same request budget.
      await loop(1, 1, 100, execute);
      await loop(1, 1, 100, post);
      const sequentialExecution = summary(await loop(1, 15, CONFIG.sequentialRequests, execute));
      const sequentialDirect = summary(await loop(1, 15, CONFIG.sequentialRequests, post));
      rounds.push({ throughput, sequential_execution: sequentialExecution, sequential_direct: sequentialDirect });
      console.error(`round ${r}/${CONFIG.rounds}: ${throughput.per_second} executions/s, ${throughput.errors} errors; ` +
        `sequential p50 ${sequentialExecution.p50_ms} ms vs direct ${sequentialDirect.p50_ms} ms; ` +
        `other processes used ${throughput.other_processes_cpu_cores} cores`);
    }
    report(rounds);
  } catch (error) {
    if (tail.length) console.error(`last lines of the service's output:\n${tail.join('\n')}`);
    throw error;
  } finally {
    await service.close();
    await direct.close();
    await stopService(child);
    receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(rounds) {
  const med = (pick) => median(rounds.map(pick));
  const errors = rounds.reduce((sum, r) => sum + r.throughput.errors + r.sequential_execution.errors + r.sequential_direct.errors, 0);
  const medians = {
    executions_per_second: med((r) => r.throughput.per_second),
    service_cpu_ms_per_execution: med((r) => r.throughput.service_cpu_ms_per_execution),
    postgres_cpu_ms_per_execution: med((r) => r.throughput.postgres_cpu_ms_per_execution),
    concurrent_p50_ms: med((r) => r.throughput.p50_ms),
    concurrent_p90_ms: med((r) => r.throughput.p90_ms),
    concurrent_p99_ms: med((r) => r.throughput.p99_ms),
    sequential_execution_p50_ms: med((r) => r.sequential_execution.p50_ms),
    sequential_execution_p99_ms: med((r) => r.sequential_execution.p99_ms),
    direct_post_p50_ms: med((r) => r.sequential_direct.p50_ms),
    direct_post_p99_ms: med((r) => r.sequential_direct.p99_ms),
    overhead_p50_ms: med((r) => r.sequential_execution.p50_ms - r.sequential_direct.p50_ms),
    overhead_p99_ms: med((r) => r.sequential_execution.p99_ms - r.sequential_direct.p99_ms),
    bench_process_cpu_cores: med((r) => r.throughput.bench_process_cpu_cores),
    other_processes_cpu_cores: med((r) => r.throughput.other_processes_cpu_cores),
    errors,
  };
  const code = sourceVersion();
  const rows = [
    ['commit', `${code.commit.slice(0, 7)}${code.src_modified ? ' (src/ modified)' : ''}`],
    ['database', database],
    ['executions/s', `${medians.executions_per_second} (concurrency ${CONFIG.concurrency}, ${CONFIG.durationS} s)`],
    ['CPU per execution: service / postgres', `${medians.service_cpu_ms_per_execution} / ${medians.postgres_cpu_ms_per_execution} ms`],
    ['latency under load p50 / p90 / p99', `${medians.concurrent_p50_ms} / ${medians.concurrent_p90_ms} / ${medians.concurrent_p99_ms} ms`],
    ['sequential execution p50 / p99', `${medians.sequential_execution_p50_ms} / ${medians.sequential_execution_p99_ms} ms`],
    ['direct POST to receiver p50 / p99', `${medians.direct_post_p50_ms} / ${medians.direct_post_p99_ms} ms`],
    ['overhead of an execution p50 / p99', `${medians.overhead_p50_ms} / ${medians.overhead_p99_ms} ms`],
    ['errors (all rounds)', String(errors)],
    ['CPU cores used by this process / others', `${medians.bench_process_cpu_cores} / ${medians.other_processes_cpu_cores} (others 0: undisturbed)`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`\nmedians of ${rounds.length} rounds\n` + rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n'));

  const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  const file = join(ROOT, 'bench/results', `executions-${stamp}.json`);
  mkdirSync(dirname(file), { recursive: true });
  const machine = { nproc: cpus().length, cpu: cpus()[0]?.model, memory_gib: round(totalmem() / 2 ** 30), node: process.version, platform: process.platform, load_1min_before: round(loadBefore) };
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), code, database, config: CONFIG, machine, medians, rounds }, null, 2) + '\n');
  console.log(`\nwritten to ${file}`);
  if (errors > 0) process.exitCode = 1;
}

/** The commit measured, and whether src/ differed from it (figures of a dirty tree are not reproducible). */
function sourceVersion() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    return { commit: git('rev-parse', 'HEAD'), src_modified: git('status', '--porcelain', '--', 'src') !== '' };
  } catch {
    return { commit: 'unknown', src_modified: null };
  }
}

const hardStop = setTimeout(() => {
  console.error(`bench: still running after ${HARD_DEADLINE_MS / 60_000} min, giving up`);
  serviceProcess?.kill('SIGKILL');
  process.exit(2);
}, HARD_DEADLINE_MS).unref();

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(hardStop));
