// `npm run bench`: the service against a bare baseline, on the embedded database or on DATABASE_URL.
//
//   npm run bench                                       # builds, then: embedded database (PGlite) in a temp DATA_DIR
//   DATABASE_URL=postgres://... npm run bench           # a PostgreSQL server (an empty database)
//
// Settings (environment):
//   BENCH_ROUNDS               rounds; each starts the service, measures it, stops it, then the same for the
//                              same-query baseline, the no-database baseline and the bare relay (3)
//   BENCH_DURATION_S           seconds per measured autocannon / write-path run (5)
//   BENCH_WARMUP_S             seconds of warm-up before each of them (2): a freshly started server is still compiling
//   BENCH_START_WARMUP_S       seconds of GET /actions/{name} load, not measured, after each start of a server (3):
//                              V8 tiers up the JavaScript and PGlite's WebAssembly during the first seconds
//   BENCH_CONNECTIONS          autocannon connections (16)
//   BENCH_SEQUENTIAL_REQUESTS  sequential executions, and as many direct POSTs, per round for the added latency (1000)
//   BENCH_WRITE_WORKERS        concurrent create + delete loops of the write path, service and baseline (8)
//   BENCH_SCENARIOS            comma list, a subset of: get_action, list_actions, token_exchange, executions,
//                              added_latency, write_path (all). Start-up time and memory are always measured.
//   BENCH_TRACING              comma list of off, on (off): the service's tracing in each round. `on` exports every
//                              span (OTEL_TRACES_SAMPLER=always_on) over OTLP/HTTP to bench/otlp-sink.mjs on CPU 1;
//                              the first mode listed is the service of the main table, the others are measured
//                              after it in each round (get_action, executions) and compared in a table of their own
//   BENCH_PAYLOAD_LOGGING      comma list of on, off (on): the executed action's payload logging (its log settings)
//                              in each round; as with BENCH_TRACING, the first is the main table's service, the
//                              others are measured after it in each round (executions, added_latency) and compared
//                              in a table of their own. Unset, the action keeps the service's default (on), so the
//                              harness runs on a service from before payload logging too.
//   BENCH_EXECUTION_RATE       executions/s of the executions scenario (0: as many as the service answers). At a
//                              fixed rate, CPU per execution compares like with like across runs and commits on a
//                              loaded machine (at a lower rate a process's fixed work falls on fewer executions)
//   BENCH_NODE_ARGS            extra node options for the service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
//   BENCH_DEADLINE_MIN         hard limit of the whole run, after which everything is killed, exit 2 (30)
//   BENCH_REFERENCE            a results file to compare with (before/after): its service figures are shown
//                              beside these, and executions/s must not be lower than its
//   DATABASE_URL               passed to the service and the baseline; unset: embedded PGlite in a temp DATA_DIR
//
// Processes: the service (`node dist/src/main.js`) or a baseline (`bench/baseline-server.mjs`: the same-query
// one, the no-database one for the two reads, and the bare relay for the added latency), never two at once (PGlite's data directory opens in one
// process only), pinned to CPU 0 with taskset when there is a second
// CPU; the load generator (`bench/load.mjs`, autocannon / undici) and the webhook receiver (`bench/receiver.mjs`)
// on CPU 1. Everything listens on and talks to 127.0.0.1 only.
// Output: a table on stdout, bench/results/bench-<embedded|postgresql>-<timestamp>.json, docs/benchmarks.svg.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { writeChart } from './lib/chart.mjs';
import { describeTail, freePort, HOST, killAllChildren, machineInfo, median, ROOT, rssMb, sampleRss, sleep, sourceVersion, spawnNode, stopChild, waitReady } from './lib/common.mjs';
import { loadJobs } from './lib/load-jobs.mjs';
import { call, EXECUTABLE, EXECUTE_BODY, GATEWAY, actionName, bootstrap, startBaseline, startService } from './lib/service.mjs';
import { summarize, printTable } from './lib/report.mjs';

const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const ALL_SCENARIOS = ['get_action', 'list_actions', 'token_exchange', 'executions', 'added_latency', 'write_path'];
const BASELINE_SCENARIOS = ['get_action', 'list_actions', 'token_exchange', 'write_path'];
/** What the no-database baseline answers. */
const BARE_SCENARIOS = ['get_action', 'list_actions'];
const CONFIG = {
  rounds: num('BENCH_ROUNDS', 3),
  durationS: num('BENCH_DURATION_S', 5),
  warmupS: num('BENCH_WARMUP_S', 2),
  startWarmupS: num('BENCH_START_WARMUP_S', 3),
  connections: num('BENCH_CONNECTIONS', 16),
  sequentialRequests: num('BENCH_SEQUENTIAL_REQUESTS', 1000),
  writeWorkers: num('BENCH_WRITE_WORKERS', 8),
  scenarios: process.env.BENCH_SCENARIOS ? process.env.BENCH_SCENARIOS.split(',').map((s) => s.trim()).filter(Boolean) : ALL_SCENARIOS,
  nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
  baselineNodeArgs: (process.env.BENCH_BASELINE_NODE_ARGS ?? '').split(' ').filter(Boolean),
  deadlineMin: num('BENCH_DEADLINE_MIN', 30),
  reference: process.env.BENCH_REFERENCE || undefined,
  tracing: (process.env.BENCH_TRACING ?? 'off').split(',').map((mode) => mode.trim()).filter(Boolean),
  executionRate: num('BENCH_EXECUTION_RATE', 0),
  payloadLogging: process.env.BENCH_PAYLOAD_LOGGING ? process.env.BENCH_PAYLOAD_LOGGING.split(',').map((mode) => mode.trim()).filter(Boolean) : undefined,
};
const MODE = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
const unknown = CONFIG.scenarios.filter((s) => !ALL_SCENARIOS.includes(s));
if (unknown.length) {
  console.error(`BENCH_SCENARIOS: unknown ${unknown.join(', ')}; known: ${ALL_SCENARIOS.join(', ')}`);
  process.exit(2);
}
if (CONFIG.tracing.length === 0 || CONFIG.tracing.some((mode) => !['off', 'on'].includes(mode))) {
  console.error(`BENCH_TRACING: a comma list of off, on; not ${process.env.BENCH_TRACING}`);
  process.exit(2);
}
if (CONFIG.payloadLogging && (CONFIG.payloadLogging.length === 0 || CONFIG.payloadLogging.some((mode) => !['off', 'on'].includes(mode)))) {
  console.error(`BENCH_PAYLOAD_LOGGING: a comma list of on, off; not ${process.env.BENCH_PAYLOAD_LOGGING}`);
  process.exit(2);
}
const wanted = (scenario) => CONFIG.scenarios.includes(scenario);
/** The service's environment in a tracing mode: `on` sends every span to the OTLP sink. */
let sinkUrl;
const tracingEnv = (mode) => (mode === 'on' ? { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_TRACES_SAMPLER: 'always_on' } : { OTEL_SDK_DISABLED: 'true' });
const log = (text) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}`);

// ---------- the end, however it comes ----------
const temporary = []; // directories removed at exit, whatever the exit
process.on('exit', () => {
  killAllChildren();
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    killAllChildren();
    process.exit(130);
  });
}
setTimeout(() => {
  log(`still running after ${CONFIG.deadlineMin} min (BENCH_DEADLINE_MIN): killing everything`);
  killAllChildren();
  process.exit(2);
}, CONFIG.deadlineMin * 60_000).unref();

// ---------- load ----------
const { generator, autocannonJob, warmUp, sampled } = loadJobs(CONFIG);

/** The two reads, measured on the service and on both baselines. */
async function readScenarios(server, session) {
  const results = {};
  if (wanted('get_action')) results.get_action = await sampled(server, () => autocannonJob(server, `${GATEWAY}/actions/${actionName(3)}`, { token: session.jwt }));
  if (wanted('list_actions')) results.list_actions = await sampled(server, () => autocannonJob(server, `${GATEWAY}/actions`, { token: session.jwt }));
  return results;
}

/** The scenarios measured on the service and on the same-query baseline alike. */
async function commonScenarios(server, session, receiverUrl) {
  const results = await readScenarios(server, session);
  if (wanted('token_exchange')) {
    results.token_exchange = await sampled(server, () =>
      autocannonJob(server, `${GATEWAY}/token/exchange`, { method: 'POST', body: JSON.stringify({ api_token: session.apiToken }) }),
    );
  }
  if (wanted('write_path')) {
    results.write_path = await sampled(server, () =>
      generator({
      kind: 'write',
      service: server.url,
      jwt: session.jwt,
      receiverUrl: `${receiverUrl}/hook`,
      workers: CONFIG.writeWorkers,
      warmupS: CONFIG.warmupS,
      durationS: CONFIG.durationS,
      prefix: `bench_write_${session.round}`,
      }),
    );
  }
  return results;
}

async function serviceScenarios(service, session, receiverUrl) {
  const results = await commonScenarios(service, session, receiverUrl);
  const executePath = `${GATEWAY}/actions/${EXECUTABLE}/execute`;
  if (wanted('executions')) {
    results.executions = await sampled(service, () =>
      autocannonJob(service, executePath, { method: 'POST', token: session.jwt, body: EXECUTE_BODY, expect: 'execution', rate: CONFIG.executionRate }),
    );
  }
  if (wanted('added_latency')) results.added_latency = await addedLatency(service, session, receiverUrl);
  return results;
}

/**
 * Sequential executions through `server` (the service or the bare relay), then as many direct POSTs of one. The
 * relay must answer as the service did (the same fields, a succeeded execution), or it is no baseline.
 */
async function addedLatency(server, session, receiverUrl, { relay = false } = {}) {
  const executePath = `${GATEWAY}/actions/${EXECUTABLE}/execute`;
  // One execution first, so the receiver has a signed call to hand over for the direct POSTs.
  const { execution } = (await call(server.url, 'POST', executePath, { body: JSON.parse(EXECUTE_BODY), token: session.jwt, expected: 200 })).json;
  const shape = { fields: Object.keys(execution).sort(), status: execution.status, result: execution.result, error: execution.error };
  if (!relay) session.executionShape = shape;
  else if (session.executionShape && !isDeepStrictEqual(shape, session.executionShape)) {
    throw new Error(`the bare relay does not answer what the service answers, so it is no baseline:\n  service: ${JSON.stringify(session.executionShape)}\n  relay:   ${JSON.stringify(shape)}`);
  }
  const { captured } = (await call(receiverUrl, 'GET', '/__captured', { expected: 200 })).json;
  if (!captured) throw new Error('the receiver saw no execution call');
  return generator({
    kind: 'overhead',
    service: server.url,
    path: executePath,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.jwt}` },
    body: EXECUTE_BODY,
    receiver: receiverUrl,
    captured,
    requests: CONFIG.sequentialRequests,
    warmup: 100,
  });
}

// ---------- is the baseline's answer the service's answer? ----------
async function referenceAnswers(server, session, { exchange = true } = {}) {
  const get = (path) => call(server.url, 'GET', path, { token: session.jwt, expected: 200 });
  return {
    get_action: await get(`${GATEWAY}/actions/${actionName(3)}`),
    list_actions: await get(`${GATEWAY}/actions`),
    ...(exchange ? { token_exchange: await call(server.url, 'POST', `${GATEWAY}/token/exchange`, { body: { api_token: session.apiToken }, expected: 200 }) } : {}),
  };
}

const jwtClaims = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

/** Throws unless both answer the same JSON (the token exchange, when both were asked: the same shape and claims). */
function compareAnswers(service, baseline) {
  const problems = [];
  for (const scenario of ['get_action', 'list_actions']) {
    if (!isDeepStrictEqual(service[scenario].json, baseline[scenario].json)) {
      problems.push(`${scenario}: the bodies differ\n  service:  ${service[scenario].text.slice(0, 600)}\n  baseline: ${baseline[scenario].text.slice(0, 600)}`);
    }
  }
  const same = Object.fromEntries(['get_action', 'list_actions'].map((k) => [k, { same_json: true, same_bytes: service[k].text === baseline[k].text }]));
  if (!baseline.token_exchange) {
    if (problems.length) throw new Error(`the no-database baseline does not answer what the service answers, so it is no baseline:\n${problems.join('\n')}`);
    return same;
  }
  const claimsOf = ({ json }) => {
    const { iat, exp, jti, ...rest } = jwtClaims(json.jwt_token);
    return { ...rest, lifetime: exp - iat, jti: typeof jti, body: { ...json, jwt_token: typeof json.jwt_token } };
  };
  const [s, b] = [claimsOf(service.token_exchange), claimsOf(baseline.token_exchange)];
  if (!isDeepStrictEqual(s, b)) problems.push(`token_exchange: the answers differ\n  service:  ${JSON.stringify(s)}\n  baseline: ${JSON.stringify(b)}`);
  if (problems.length) throw new Error(`the baseline does not answer what the service answers, so it is no baseline:\n${problems.join('\n')}`);
  return same;
}

/** The executed action's payload logging (its log settings), when BENCH_PAYLOAD_LOGGING asks for a mode. */
async function setPayloadLogging(server, session, mode) {
  if (!mode) return;
  await call(server.url, 'PUT', `${GATEWAY}/actions/${EXECUTABLE}/log-settings`, { body: { payload_logging: mode === 'on' }, token: session.jwt, expected: 200 });
}

// ---------- main ----------
async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agw-bench-'));
  temporary.push(dataDir);
  const secrets = {
    ADMIN_API_KEY: randomBytes(32).toString('hex'),
    JWT_SECRET: randomBytes(48).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  const receiverPort = await freePort();
  const receiver = spawnNode([join(ROOT, 'bench/receiver.mjs'), String(receiverPort)], { cpu: 1, name: 'the receiver' });
  const receiverUrl = `http://${HOST}:${receiverPort}`;
  let sink;
  if (CONFIG.tracing.includes('on')) {
    const sinkPort = await freePort();
    sink = spawnNode([join(ROOT, 'bench/otlp-sink.mjs'), String(sinkPort)], { cpu: 1, name: 'the OTLP sink' });
    sinkUrl = `http://${HOST}:${sinkPort}`;
    await waitReady(sink, sinkPort, performance.now());
  }
  const [mainMode, ...otherModes] = CONFIG.tracing;
  const [mainPayload, ...otherPayloads] = CONFIG.payloadLogging ?? [undefined];
  let current; // the server running now, for the error message
  const rounds = [];
  let session;
  let equivalence;
  let bareEquivalence;
  let databaseVersion;
  let firstStart;
  try {
    await waitReady(receiver, receiverPort, performance.now());
    const needBaseline = CONFIG.scenarios.some((s) => BASELINE_SCENARIOS.includes(s));
    const needBare = CONFIG.scenarios.some((s) => BARE_SCENARIOS.includes(s));
    // A first start, not measured as a round: it creates the database (PGlite's initdb, the migrations) and the
    // data, and creating an embedded database leaves its memory high in that process. Every round is a restart.
    current = await startService({ port: await freePort(), dataDir, secrets, nodeArgs: CONFIG.nodeArgs, env: tracingEnv(mainMode) });
    log(`service ready in ${current.readyMs} ms (first start); bootstrapping a tenant, its tokens and 11 actions`);
    session = await bootstrap(current.url, secrets.ADMIN_API_KEY, `${receiverUrl}/hook`);
    firstStart = { ready_ms: current.readyMs, rss_after_bootstrap_mb: rssMb(current.child.pid) };
    await stopChild(current.child);
    for (let r = 1; r <= CONFIG.rounds; r++) {
      const round = { round: r };
      // The service.
      current = await startService({ port: await freePort(), dataDir, secrets, nodeArgs: CONFIG.nodeArgs, env: tracingEnv(mainMode) });
      session.round = r;
      await sleep(500);
      const idle = rssMb(current.child.pid);
      const reference = r === 1 && (needBaseline || needBare) ? await referenceAnswers(current, session) : undefined;
      log(`round ${r}/${CONFIG.rounds}: service (ready in ${current.readyMs} ms, RSS ${idle} MB idle)`);
      const sampler = sampleRss(current.child.pid);
      await setPayloadLogging(current, session, mainPayload);
      await warmUp(current, session);
      const scenarios = await serviceScenarios(current, session, receiverUrl);
      round.service = { ready_ms: current.readyMs, rss_idle_mb: idle, rss_max_mb: sampler.stop(), scenarios, tracing: mainMode, payload_logging: mainPayload };
      await stopChild(current.child);
      // The same service with the executed action's payload logging in the other modes: executions again.
      for (const mode of otherPayloads) {
        current = await startService({ port: await freePort(), dataDir, secrets, nodeArgs: CONFIG.nodeArgs, env: tracingEnv(mainMode) });
        log(`round ${r}/${CONFIG.rounds}: service with payload logging ${mode} (ready in ${current.readyMs} ms)`);
        await setPayloadLogging(current, session, mode);
        await warmUp(current, session);
        const measured = {};
        if (wanted('executions')) {
          measured.executions = await sampled(current, () =>
            autocannonJob(current, `${GATEWAY}/actions/${EXECUTABLE}/execute`, { method: 'POST', token: session.jwt, body: EXECUTE_BODY, expect: 'execution', rate: CONFIG.executionRate }),
          );
        }
        if (wanted('added_latency')) measured.added_latency = await addedLatency(current, session, receiverUrl);
        round[`payload_${mode}`] = { ready_ms: current.readyMs, scenarios: measured };
        await setPayloadLogging(current, session, mainPayload);
        await stopChild(current.child);
      }
      // The same service in the other tracing modes: the reads and executions again.
      for (const mode of otherModes) {
        current = await startService({ port: await freePort(), dataDir, secrets, nodeArgs: CONFIG.nodeArgs, env: tracingEnv(mode) });
        log(`round ${r}/${CONFIG.rounds}: service with tracing ${mode} (ready in ${current.readyMs} ms)`);
        await warmUp(current, session);
        const traced = await readScenarios(current, session);
        if (wanted('executions')) {
          traced.executions = await sampled(current, () =>
            autocannonJob(current, `${GATEWAY}/actions/${EXECUTABLE}/execute`, { method: 'POST', token: session.jwt, body: EXECUTE_BODY, expect: 'execution', rate: CONFIG.executionRate }),
          );
        }
        round[`tracing_${mode}`] = { ready_ms: current.readyMs, scenarios: traced };
        await stopChild(current.child);
      }
      // The baseline, on the same data.
      if (needBaseline) {
        current = await startBaseline({ port: await freePort(), dataDir, secrets, nodeArgs: CONFIG.baselineNodeArgs });
        log(`round ${r}/${CONFIG.rounds}: baseline (ready in ${current.readyMs} ms)`);
        if (reference) {
          equivalence = compareAnswers(reference, await referenceAnswers(current, session));
          databaseVersion ??= await databaseVersionOf();
        }
        await warmUp(current, session);
        round.baseline = { ready_ms: current.readyMs, rss_idle_mb: rssMb(current.child.pid), scenarios: await commonScenarios(current, session, receiverUrl) };
        await stopChild(current.child);
      }
      // The no-database baseline: the same data, read once at its start.
      if (needBare) {
        current = await startBaseline({ port: await freePort(), dataDir, secrets, nodeArgs: CONFIG.baselineNodeArgs, mode: 'memory' });
        log(`round ${r}/${CONFIG.rounds}: no-database baseline (ready in ${current.readyMs} ms)`);
        if (reference) bareEquivalence = compareAnswers(reference, await referenceAnswers(current, session, { exchange: false }));
        await warmUp(current, session);
        round.bare = { ready_ms: current.readyMs, rss_idle_mb: rssMb(current.child.pid), scenarios: await readScenarios(current, session) };
        await stopChild(current.child);
      }
      // The bare relay: the floor of the added latency (one signed POST and one INSERT, no framework).
      if (wanted('added_latency')) {
        current = await startBaseline({ port: await freePort(), dataDir, secrets, nodeArgs: CONFIG.baselineNodeArgs, mode: 'relay' });
        log(`round ${r}/${CONFIG.rounds}: bare relay (ready in ${current.readyMs} ms)`);
        // The relay answers executions only: its warm-up is executions.
        await warmUp(current, session, { path: `${GATEWAY}/actions/${EXECUTABLE}/execute`, method: 'POST', body: EXECUTE_BODY, expect: 'execution' });
        round.relay = { ready_ms: current.readyMs, scenarios: { added_latency: await addedLatency(current, session, receiverUrl, { relay: true }) } };
        await stopChild(current.child);
      }
      current = undefined;
      rounds.push(round);
    }
    databaseVersion ??= await databaseVersionOf();
  } catch (error) {
    if (current) error.message += describeTail(current.child);
    throw error;
  } finally {
    if (current) await stopChild(current.child, 5_000);
    await stopChild(receiver, 5_000);
    if (sink) await stopChild(sink, 5_000);
    rmSync(dataDir, { recursive: true, force: true });
  }

  const reference = CONFIG.reference ? JSON.parse(readFileSync(CONFIG.reference, 'utf8')) : undefined;
  const summary = summarize(rounds, MODE, firstStart, reference);
  const failed = printTable(summary, { mode: MODE, config: CONFIG, code: sourceVersion() });
  const tracing = CONFIG.tracing.length > 1 ? modeComparison('tracing', rounds, mainMode, otherModes, (mode) => `tracing_${mode}`) : undefined;
  const payloadLogging = otherPayloads.length > 0 ? modeComparison('payload logging', rounds, mainPayload, otherPayloads, (mode) => `payload_${mode}`) : undefined;
  const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  const file = join(ROOT, 'bench/results', `bench-${MODE}-${stamp}.json`);
  mkdirSync(dirname(file), { recursive: true });
  const record = {
    date: new Date().toISOString(),
    mode: MODE,
    code: sourceVersion(),
    machine: { ...machineInfo(), database: databaseVersion },
    config: CONFIG,
    equivalence,
    bare_equivalence: bareEquivalence,
    reference: reference ? { file: CONFIG.reference, code: reference.code, date: reference.date } : undefined,
    first_start: firstStart,
    medians: summary,
    tracing,
    payload_logging: payloadLogging,
    rounds,
  };
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  console.log(`\nwritten to ${file}`);
  console.log(`chart: ${writeChart()}`);
  if (failed) process.exitCode = 1;
}

/**
 * The service in each mode of a setting (tracing, payload logging), from the same rounds: medians of requests/s,
 * p99 and CPU per request of the reads and executions, the added latency, and each mode's ratio to the first (the
 * main table's). Printed, and kept in the results.
 */
function modeComparison(label, rounds, mainMode, otherModes, sideOfOther) {
  const sideOf = (mode) => (mode === mainMode ? 'service' : sideOfOther(mode));
  const rows = [];
  const added = (p) => (run) => (run ? run.execution[p] - run.direct[p] : undefined);
  const figures = [
    ...['get_action', 'list_actions', 'executions'].flatMap((scenario) => ['rps', 'p99_ms', 'cpu_us_per_request', 'db_cpu_us_per_request'].map((field) => [scenario, field, (run) => run?.[field]])),
    ['added_latency', 'added_p50_ms', added('p50_ms')],
    ['added_latency', 'added_p99_ms', added('p99_ms')],
  ];
  for (const [scenario, field, value] of figures) {
    const values = Object.fromEntries([mainMode, ...otherModes].map((mode) => [mode, median(rounds.map((r) => value(r[sideOf(mode)]?.scenarios?.[scenario])).filter((x) => x !== undefined && x !== null))]));
    if (values[mainMode] === undefined || values[mainMode] === null) continue;
    const ratios = Object.fromEntries(otherModes.map((mode) => [mode, values[mode] && values[mainMode] ? Math.round((values[mode] / values[mainMode]) * 1000) / 1000 : null]));
    rows.push({ scenario, field, values, ratios });
  }
  console.log(`\n${label} (medians of ${rounds.length} rounds; ratio = mode / ${mainMode})`);
  console.log(['scenario', 'figure', ...[mainMode, ...otherModes], ...otherModes.map((mode) => `${mode} / ${mainMode}`)].join('\t'));
  for (const row of rows) console.log([row.scenario, row.field, ...Object.values(row.values), ...Object.values(row.ratios)].join('\t'));
  return rows;
}

/** The database server's version: `SELECT version()` on DATABASE_URL, else the PGlite package's. */
async function databaseVersionOf() {
  if (!process.env.DATABASE_URL) return `PGlite ${machineInfo().pglite}`;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query('SELECT version()')).rows[0].version;
  } finally {
    await client.end();
  }
}

main().catch((error) => {
  console.error(`bench failed: ${error.stack ?? error}`);
  killAllChildren();
  process.exit(1);
});
