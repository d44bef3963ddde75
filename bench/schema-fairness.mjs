// `npm run build && node bench/schema-fairness.mjs`: how long a neighbour tenant's worker-checked execution waits
// while two other tenants keep the schema workers busy with checks that each take just under the worker's deadline
// (so they are never cut, and never quarantined), one request at a time each.
//
//   node bench/schema-fairness.mjs                                   # the embedded database, in a temp DATA_DIR
//   DATABASE_URL=postgres://... node bench/schema-fairness.mjs       # a PostgreSQL server (an empty database)
//   FAIRNESS_DIST=/elsewhere/dist node bench/schema-fairness.mjs     # another build (the code before a change)
//
// The built service runs on CPU 0 (taskset, when there are two CPUs); the neighbour (bench/neighbour.mjs, its own
// process on CPU 1) executes a `$dynamicAnchor` action (checked in the worker) every FAIRNESS_INTERVAL_MS (100):
// alone for FAIRNESS_QUIET_S (10), then for FAIRNESS_ATTACK_S (20) while two attacking tenants each loop one
// execution at a time of an action whose check takes about FAIRNESS_CHECK_MS (400) of a worker, then alone again.
// The attackers' check: an array of strings, each matched (on ECMAScript's engine, so in the worker) by a
// pattern whose first branch backtracks for a while before its second matches; the strings' length is calibrated
// on this process at start (a few ms each), their number on the service (a third tenant's executions, before the
// attack) so that the slowest of three takes about FAIRNESS_CHECK_MS (400) there: under the deadline with room
// for the machine's load, which slows the workers too. A check cut at the deadline
// quarantines its tenant, which is not the scenario: the run says so, and its figures are not the ones meant.
// The worker-time budget is lifted (SCHEMA_WORKER_MS_PER_MINUTE, FAIRNESS_BUDGET_MS: 3,600,000) so the attackers
// are never refused: what is measured is how the workers are shared, not the budget.
// Reported: the neighbour's answers and p50 / p90 / p99 / max over each phase, and the attack's p50 and p90 less
// the quiet phases' (the larger of the two); the attackers' statuses and check times. Nothing is asserted.
// Output: a table on stdout and bench/results/schema-fairness-<embedded|postgresql>-<timestamp>.json.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'undici';
import { DYNAMIC_TREE_BODY, DYNAMIC_TREE_SCHEMA } from './lib/sustained-attacks.mjs';
import { freePort, HOST, killAllChildren, machineInfo, neighbourFigures, percentile, ROOT, round, runNodeJson, sleep, sourceVersion, stopChild } from './lib/common.mjs';
import { call, GATEWAY, startService } from './lib/service.mjs';

const QUIET_S = Number(process.env.FAIRNESS_QUIET_S ?? 10);
const ATTACK_S = Number(process.env.FAIRNESS_ATTACK_S ?? 20);
const INTERVAL_MS = Number(process.env.FAIRNESS_INTERVAL_MS ?? 100);
const CHECK_MS = Number(process.env.FAIRNESS_CHECK_MS ?? 400);
const BUDGET_MS = process.env.FAIRNESS_BUDGET_MS ?? '3600000';
const DIST = resolve(process.env.FAIRNESS_DIST ?? join(ROOT, 'dist'));
const MODE = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
const log = (text) => console.error(`[schema-fairness ${new Date().toISOString().slice(11, 19)}] ${text}`);

/** Fails only after its first branch has backtracked through every split of the `a`s; the second then matches. */
const PATTERN = '^(a|a)*(\\1)x$|^a+$';

process.on('SIGINT', () => {
  killAllChildren();
  process.exit(130);
});

/** The strings' length (each a few ms to match) and how many make CHECK_MS, timed on this thread. */
function calibrate() {
  const pattern = new RegExp(PATTERN, 'u');
  const time = (length) => {
    const text = 'a'.repeat(length);
    const started = performance.now();
    for (let i = 0; i < 3; i++) pattern.test(text);
    return (performance.now() - started) / 3;
  };
  let length = 10;
  while (time(length) < 4) length++;
  const each = [0, 1, 2, 3, 4].map(() => time(length)).sort((a, b) => a - b)[2];
  return { length, count: Math.max(1, Math.round(CHECK_MS / each)), each_ms: round(each, 2) };
}

async function startReceiver() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok","error":""}'));
  });
  const port = await freePort();
  await new Promise((done) => server.listen(port, HOST, done));
  return { server, url: `http://${HOST}:${port}` };
}

/** A tenant with a bearer token, through the admin API. */
async function tenant(url, adminKey, name) {
  const admin = (path, body) => call(url, 'POST', `/api/v1/admin${path}`, { body, token: adminKey, expected: 201 }).then((r) => r.json);
  const { tenant: made } = await admin('/tenants', { name });
  const { api_token } = await admin(`/tenants/${made.id}/api-tokens`, { name });
  await admin(`/tenants/${made.id}/hmac-keys`);
  return (await call(url, 'POST', `${GATEWAY}/token/exchange`, { body: { api_token: api_token.token }, expected: 200 })).json.jwt_token;
}

/** One attacker: executes `slow` one request at a time until `until`; statuses, whether cut, and times. */
async function attack(url, jwt, body, until, once = false) {
  const pool = new Pool(url, { connections: 1 });
  const answers = [];
  while (once ? answers.length === 0 : Date.now() < until) {
    const started = performance.now();
    const res = await pool.request({ method: 'POST', path: `${GATEWAY}/actions/slow/execute`, headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` }, body, headersTimeout: 60_000, bodyTimeout: 60_000 });
    const text = await res.body.text();
    answers.push({ status: res.statusCode, ms: performance.now() - started, cut: text.includes('within 1500 ms') });
  }
  await pool.close();
  return answers;
}

async function main() {
  const secrets = { ADMIN_API_KEY: randomBytes(32).toString('hex'), JWT_SECRET: randomBytes(48).toString('base64'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };
  const calibration = calibrate();
  log(`attackers' check: ${calibration.count} strings of ${calibration.length} a's, ${calibration.each_ms} ms each here`);
  const slowSchema = { type: 'object', properties: { s: { type: 'array', items: { type: 'string', pattern: PATTERN } } } };
  const slowBody = (count) => JSON.stringify({ parameters: { s: Array.from({ length: count }, () => 'a'.repeat(calibration.length)) } });

  const receiver = await startReceiver();
  const dataDir = mkdtempSync(join(tmpdir(), 'agw-fairness-'));
  const stopDir = mkdtempSync(join(tmpdir(), 'agw-fairness-stop-'));
  const port = await freePort();
  const results = { mode: MODE, dist: DIST, ...sourceVersion(), machine: machineInfo(), settings: { QUIET_S, ATTACK_S, INTERVAL_MS, CHECK_MS, BUDGET_MS }, calibration, loadavg: { start: loadavg().map((x) => round(x, 1)) } };
  let child;
  try {
    const started = await startService({ port, dataDir, secrets, nodeArgs: [], dist: DIST, env: { SCHEMA_WORKER_MS_PER_MINUTE: BUDGET_MS } });
    child = started.child;
    const url = started.url;
    const neighbour = await tenant(url, secrets.ADMIN_API_KEY, 'neighbour');
    await call(url, 'POST', `${GATEWAY}/actions`, { body: { name: 'tree', description: 'a $dynamicAnchor schema, checked in the worker', webhook_url: `${receiver.url}/tree`, json_schema: DYNAMIC_TREE_SCHEMA }, token: neighbour, expected: 201 });
    // The count calibrated here is scaled to what the service's worker (on a shared
    // machine) takes: a third tenant's executions, the slowest of 3, twice.
    const probe = await tenant(url, secrets.ADMIN_API_KEY, 'probe');
    await call(url, 'POST', `${GATEWAY}/actions`, { body: { name: 'slow', description: 'calibration', webhook_url: `${receiver.url}/slow`, json_schema: slowSchema }, token: probe, expected: 201 });
    for (let pass = 0; pass < 2; pass++) {
      const times = [];
      for (let i = 0; i < 3; i++) {
        const [answer] = await attack(url, probe, slowBody(calibration.count), 0, true);
        times.push(answer.cut ? 3 * CHECK_MS : answer.ms);
      }
      const slowest = Math.max(...times);
      calibration.count = Math.max(1, Math.round((calibration.count * CHECK_MS) / slowest));
      log(`the service's worker took up to ${round(slowest, 0)} ms: ${calibration.count} strings`);
    }
    const attackers = [];
    for (const name of ['attacker_a', 'attacker_b']) {
      const jwt = await tenant(url, secrets.ADMIN_API_KEY, name);
      await call(url, 'POST', `${GATEWAY}/actions`, { body: { name: 'slow', description: 'a check just under the deadline', webhook_url: `${receiver.url}/slow`, json_schema: slowSchema }, token: jwt, expected: 201 });
      attackers.push(jwt);
    }
    const stopFile = join(stopDir, 'stop');
    const job = { url, method: 'POST', path: `${GATEWAY}/actions/tree/execute`, body: DYNAMIC_TREE_BODY, token: neighbour, stopFile, maxS: QUIET_S * 2 + ATTACK_S + 120, intervalMs: INTERVAL_MS };
    const watching = runNodeJson([join(ROOT, 'bench/neighbour.mjs'), JSON.stringify(job)], { cpu: 1, timeoutMs: (job.maxS + 60) * 1000, name: 'the neighbour' });
    const quietFrom = Date.now() + 1000; // its first answers start a worker
    log(`the neighbour alone for ${QUIET_S} s`);
    await sleep(QUIET_S * 1000 + 1000);
    const from = Date.now();
    log(`two attackers for ${ATTACK_S} s`);
    const attacked = await Promise.all(attackers.map((jwt) => attack(url, jwt, slowBody(calibration.count), from + ATTACK_S * 1000)));
    const to = Date.now();
    log(`the neighbour alone again for ${QUIET_S} s`);
    await sleep(QUIET_S * 1000);
    writeFileSync(stopFile, '');
    results.loadavg.end = loadavg().map((x) => round(x, 1));
    const samples = await watching;
    results.neighbour = { quiet_before: neighbourFigures(samples, quietFrom, from), attack: neighbourFigures(samples, from, to), quiet_after: neighbourFigures(samples, to + 500) };
    results.attackers = attacked.map((answers) => {
      const sorted = answers.map(({ ms }) => ms).sort((a, b) => a - b);
      const statuses = {};
      for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
      return { answers: answers.length, statuses, cut_at_deadline: answers.filter(({ cut }) => cut).length, p50_ms: percentile(sorted, 0.5), max_ms: round(sorted.at(-1), 1) };
    });
  } finally {
    if (child) await stopChild(child);
    else killAllChildren(); // it did not start in time: it may still be writing to dataDir
    await sleep(child ? 0 : 1000);
    receiver.server.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(stopDir, { recursive: true, force: true });
  }

  const file = join(ROOT, 'bench/results', `schema-fairness-${MODE}-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}Z.json`);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  const { quiet_before, attack: during, quiet_after } = results.neighbour;
  const idle = (key) => Math.max(quiet_before[key], quiet_after[key]);
  console.log(`\nThe neighbour's worker-checked execution, one every ${INTERVAL_MS} ms (${MODE}, load average ${results.loadavg.start[0]} at the start, ${results.loadavg.end?.[0]} at the end):\n`);
  console.log('| phase | answers | p50 ms | p90 ms | p99 ms | max ms | statuses |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [phase, row] of [['alone, before', quiet_before], ['two attackers', during], ['alone, after', quiet_after]]) {
    console.log(`| ${phase} | ${row.answers} | ${row.p50_ms} | ${row.p90_ms} | ${row.p99_ms} | ${row.max_ms} | ${JSON.stringify(row.statuses)} |`);
  }
  console.log(`\nduring the attack, against the slower quiet phase: p50 ${round(during.p50_ms - idle('p50_ms'), 1)} ms, p90 ${round(during.p90_ms - idle('p90_ms'), 1)} ms`);
  for (const [i, row] of results.attackers.entries()) {
    console.log(`attacker ${i + 1}: ${row.answers} answers ${JSON.stringify(row.statuses)}, ${row.cut_at_deadline} cut at the deadline, p50 ${row.p50_ms} ms, max ${row.max_ms} ms`);
  }
  const cut = results.attackers.reduce((sum, row) => sum + row.cut_at_deadline, 0);
  if (cut > 0) console.log(`\nNOT THE SCENARIO: ${cut} of the attackers' checks were cut at the deadline (their tenants quarantined from then on); run again with a lower FAIRNESS_CHECK_MS or on a quieter machine`);
  console.log(`\nresults: ${file}`);
}

main().catch((error) => {
  console.error(error);
  killAllChildren();
  process.exit(1);
});
