// `npm run bench:isolation`: how long a neighbour tenant waits while another tenant attacks (issues 11 and 27).
//
//   npm run bench:isolation                                  # builds, then: embedded database in a temp DATA_DIR
//   DATABASE_URL=postgres://... npm run bench:isolation      # a PostgreSQL server (an empty database)
//   ISOLATION_ATTACKS=pattern_backtracking,unique_items npm run bench:isolation   # a subset (bench/lib/attacks.mjs)
//   ISOLATION_ATTACKS=none ISOLATION_SUSTAINED=worker_starvation npm run bench:isolation   # one sustained attack
//
// The built service runs on CPU 0 (taskset, when there are two CPUs). A neighbour tenant (bench/neighbour.mjs, its
// own process on CPU 1) sends GET /api/v1/gateway/actions (11 actions) back to back, first alone for
// ISOLATION_QUIET_S seconds (the reference), then during each attack of bench/lib/attacks.mjs, which this process
// replays as the attacking tenant: register the action, update it with the same schema, execute it. Reported per
// attack: the attacker's statuses and slowest answer, and the neighbour's p50 / p99 / max latency over the
// attack's duration. Nothing is asserted (test/isolation.e2e-spec.ts does that); a 5xx is flagged.
//
// Then the sustained attacks of issue 27 (bench/lib/sustained-attacks.mjs; ISOLATION_SUSTAINED, default both, or
// `none`), on a second start of the service with the production budgets (RATE_LIMIT_PER_HOUR 1000 and the
// schema worker's default): each runs ISOLATION_SUSTAINED_S seconds (20) as a fresh attacking tenant while the
// neighbour runs an action whose schema is checked in the worker (`$dynamicAnchor`), paced at one execution every
// ISOLATION_NEIGHBOUR_INTERVAL_MS (100, so its own budget lasts the run), first alone. Reported: the attacker's
// statuses, the signed registration POSTs its churn made the gateway send, and the neighbour's p50 / p99 / max.
// Output: tables on stdout and bench/results/isolation-<embedded|postgresql>-<timestamp>.json.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { ATTACKS } from './lib/attacks.mjs';
import { BACKREFERENCE_SCHEMA, DYNAMIC_TREE_BODY, DYNAMIC_TREE_SCHEMA, managementChurn, workerStarvation } from './lib/sustained-attacks.mjs';
import { freePort, HOST, killAllChildren, machineInfo, neighbourFigures, ROOT, round, runNodeJson, sleep, sourceVersion, stopChild } from './lib/common.mjs';
import { bootstrap, call, GATEWAY, startService } from './lib/service.mjs';

const QUIET_S = Number(process.env.ISOLATION_QUIET_S ?? 5);
const wanted = process.env.ISOLATION_ATTACKS ? process.env.ISOLATION_ATTACKS.split(',').map((name) => name.trim()) : ATTACKS.map(({ name }) => name);
const attacks = ATTACKS.filter(({ name }) => wanted.includes(name));
const SUSTAINED = (process.env.ISOLATION_SUSTAINED ?? 'worker_starvation,management_churn').split(',').map((name) => name.trim()).filter((name) => name && name !== 'none');
const SUSTAINED_S = Number(process.env.ISOLATION_SUSTAINED_S ?? 20);
const NEIGHBOUR_INTERVAL_MS = Number(process.env.ISOLATION_NEIGHBOUR_INTERVAL_MS ?? 100);
const MODE = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
const DEFAULT_ANSWER = JSON.stringify({ result: 'ok', error: '' });
const log = (text) => console.error(`[isolation ${new Date().toISOString().slice(11, 19)}] ${text}`);

process.on('SIGINT', () => {
  killAllChildren();
  process.exit(130);
});

/**
 * The webhook of every action: 200 to the registration test, and the answer its attack names (by path) after.
 * `registrations` counts the registration tests by path.
 */
async function startReceiver() {
  const answers = new Map(attacks.map(({ name, answer }) => [`/${name}`, answer ?? DEFAULT_ANSWER]));
  const registrations = new Map();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const test = Buffer.concat(chunks).includes('"test":true');
      if (test) registrations.set(request.url, (registrations.get(request.url) ?? 0) + 1);
      response.writeHead(200, { 'content-type': 'application/json' }).end(test ? DEFAULT_ANSWER : (answers.get(request.url) ?? DEFAULT_ANSWER));
    });
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, HOST, resolve));
  return { server, url: `http://${HOST}:${port}`, registrations };
}

/** A second tenant with a key and a bearer token, through the admin API. */
async function attackerTenant(url, adminKey, name = 'attacker') {
  const admin = (path, body) => call(url, 'POST', `/api/v1/admin${path}`, { body, token: adminKey, expected: 201 }).then((r) => r.json);
  const { tenant } = await admin('/tenants', { name });
  const { api_token } = await admin(`/tenants/${tenant.id}/api-tokens`, { name });
  await admin(`/tenants/${tenant.id}/hmac-keys`);
  const jwt = (await call(url, 'POST', `${GATEWAY}/token/exchange`, { body: { api_token: api_token.token }, expected: 200 })).json.jwt_token;
  return { tenantId: tenant.id, jwt };
}

/** A portal session of `tenantId`, as the console holds it: the cookie's value and the CSRF token. */
async function portalSession(url, adminKey, tenantId) {
  const { portal_link } = (await call(url, 'POST', `/api/v1/admin/tenants/${tenantId}/portal-links`, { token: adminKey, expected: 201 })).json;
  const pool = new Pool(url, { connections: 1 });
  const res = await pool.request({ method: 'POST', path: '/api/v1/admin/portal-links/redeem', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify({ token: portal_link.token }) });
  const { session } = await res.body.json();
  await pool.close();
  const cookie = [res.headers['set-cookie']].flat().find((line) => line.startsWith('agw_console_session='));
  return { cookie: cookie.split(';')[0].slice('agw_console_session='.length), csrf: session.csrf_token };
}

/** One raw request of the attacker; its status and how long the answer took. */
async function timed(pool, method, path, token, body) {
  const started = performance.now();
  const res = await pool.request({ method, path, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body, headersTimeout: 120_000, bodyTimeout: 120_000 });
  await res.body.dump();
  return { status: res.statusCode, ms: performance.now() - started };
}

/** Registers, updates and executes as the attack says (as test/isolation.e2e-spec.ts does). */
async function replay(pool, attack, token, receiverUrl) {
  const name = `attack_${attack.name}`;
  const answers = [];
  const action = { name, description: attack.summary.slice(0, 500), webhook_url: `${receiverUrl}/${attack.name}`, json_schema: attack.schema ?? { type: 'object' } };
  answers.push({ step: 'register', ...(await timed(pool, 'POST', `${GATEWAY}/actions`, token, JSON.stringify(action))) });
  if (answers[0].status === 201) {
    if (attack.schema) answers.push({ step: 'update', ...(await timed(pool, 'PUT', `${GATEWAY}/actions/${name}`, token, JSON.stringify({ json_schema: attack.schema }))) });
    if (attack.parameters !== undefined || attack.executeBody !== undefined) {
      const body = attack.executeBody ?? JSON.stringify({ parameters: attack.parameters });
      for (let i = 0; i < (attack.executions ?? 1); i++) answers.push({ step: 'execute', ...(await timed(pool, 'POST', `${GATEWAY}/actions/${name}/execute`, token, body)) });
    }
    if (attack.executions) answers.push({ step: 'list', ...(await timed(pool, 'GET', `${GATEWAY}/actions/${name}/executions?limit=100`, token)) });
    await timed(pool, 'DELETE', `${GATEWAY}/actions/${name}`, token);
  }
  return answers;
}

async function main() {
  const secrets = { ADMIN_API_KEY: randomBytes(32).toString('hex'), JWT_SECRET: randomBytes(48).toString('base64'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };
  const stopDir = mkdtempSync(join(tmpdir(), 'agw-isolation-stop-'));
  const receiver = await startReceiver();
  const results = { mode: MODE, ...sourceVersion(), machine: machineInfo(), quiet: null, attacks: [] };
  if (attacks.length > 0) await eachAttack(results, secrets, receiver, stopDir);
  try {
    if (SUSTAINED.length > 0) await sustained(results, secrets, receiver, stopDir);
  } finally {
    receiver.server.close();
    rmSync(stopDir, { recursive: true, force: true });
  }

  const file = join(ROOT, 'bench/results', `isolation-${MODE}-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}Z.json`);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  if (results.quiet) printAttacks(results);
  printSustained(results);
  console.log(`\nresults: ${file}`);
  const sustainedRows = results.sustained?.attacks ?? [];
  const serverErrors = [...results.attacks, ...sustainedRows].filter(
    ({ answers = [], attacker = {}, neighbour }) =>
      answers.some((a) => a.status >= 500) ||
      [neighbour.statuses, ...Object.values(attacker)].some((tally) => typeof tally === 'object' && Object.keys(tally).some((status) => Number(status) >= 500 || Number(status) < 0)),
  );
  if (serverErrors.length) {
    console.log(`5xx or failed requests in: ${serverErrors.map(({ name }) => name).join(', ')}`);
    process.exitCode = 1;
  }
}

/**
 * Issue 11's attacks, one after the other, each by a tenant of its own (its first offence), while the neighbour
 * sends GET /actions back to back; the limits are lifted (bench/lib/service.mjs), as they are not what is measured.
 */
async function eachAttack(results, secrets, receiver, stopDir) {
  const dataDir = mkdtempSync(join(tmpdir(), 'agw-isolation-'));
  const port = await freePort();
  const env = { SCHEMA_WORKER_MS_PER_MINUTE: '3600000' };
  const service = await startService({ port, dataDir, secrets, env, nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean) });
  try {
    const neighbour = await bootstrap(service.url, secrets.ADMIN_API_KEY, `${receiver.url}/neighbour`);
    const pool = new Pool(service.url, { connections: 1 });
    let run = 0;
    const watch = (maxS) => {
      const stopFile = join(stopDir, `stop-${++run}`);
      const job = { url: service.url, path: `${GATEWAY}/actions`, token: neighbour.jwt, stopFile, maxS };
      const samples = runNodeJson([join(ROOT, 'bench/neighbour.mjs'), JSON.stringify(job)], { cpu: 1, timeoutMs: (maxS + 60) * 1000, name: 'the neighbour' });
      return { samples, stop: () => writeFileSync(stopFile, '') };
    };

    log(`the neighbour alone for ${QUIET_S} s`);
    const quiet = watch(QUIET_S);
    results.quiet = neighbourFigures(await quiet.samples);
    for (const attack of attacks) {
      log(attack.name);
      const attackerToken = (await attackerTenant(service.url, secrets.ADMIN_API_KEY, attack.name)).jwt;
      const watching = watch(600);
      await sleep(300);
      const from = Date.now();
      const answers = await replay(pool, attack, attackerToken, receiver.url);
      const to = Date.now();
      watching.stop();
      const samples = await watching.samples;
      results.attacks.push({ name: attack.name, summary: attack.summary, duration_ms: to - from, answers: answers.map((a) => ({ ...a, ms: round(a.ms, 1) })), neighbour: neighbourFigures(samples, from, to) });
    }
    await pool.close();
  } finally {
    await stopChild(service.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function printAttacks(results) {
  const rows = [['(no attack: the neighbour alone)', '', '', results.quiet]].concat(
    results.attacks.map(({ name, answers, neighbour }) => [name, [...new Set(answers.map((a) => `${a.step} ${a.status}`))].join(', '), Math.max(...answers.map((a) => a.ms)), neighbour]),
  );
  console.log(`| attack | attacker's answers | attacker's slowest answer ms | neighbour answers | neighbour p50 ms | p99 ms | max ms |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, statuses, slowest, n] of rows) console.log(`| ${name} | ${statuses} | ${slowest === '' ? '' : round(slowest, 1)} | ${n.answers} | ${n.p50_ms} | ${n.p99_ms} | ${n.max_ms} |`);
}

/**
 * Issue 27's sustained attacks on a fresh start of the service with the production budgets: the neighbour's
 * worker-checked action alone, then during each attack, made by a tenant of its own.
 */
async function sustained(results, secrets, receiver, stopDir) {
  const dataDir = mkdtempSync(join(tmpdir(), 'agw-isolation-'));
  const port = await freePort();
  const env = { RATE_LIMIT_PER_HOUR: '1000', SCHEMA_WORKER_MS_PER_MINUTE: '' };
  const service = await startService({ port, dataDir, secrets, env, nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean) });
  results.sustained = { seconds: SUSTAINED_S, neighbour_interval_ms: NEIGHBOUR_INTERVAL_MS, quiet: null, attacks: [] };
  try {
    const neighbour = await attackerTenant(service.url, secrets.ADMIN_API_KEY, 'neighbour');
    const tree = { name: 'tree', description: 'a $dynamicAnchor schema, checked in the worker', webhook_url: `${receiver.url}/tree`, json_schema: DYNAMIC_TREE_SCHEMA };
    await call(service.url, 'POST', `${GATEWAY}/actions`, { body: tree, token: neighbour.jwt, expected: 201 });
    let run = 0;
    const watch = (maxS) => {
      const stopFile = join(stopDir, `sustained-${++run}`);
      const job = { url: service.url, method: 'POST', path: `${GATEWAY}/actions/tree/execute`, body: DYNAMIC_TREE_BODY, token: neighbour.jwt, stopFile, maxS, intervalMs: NEIGHBOUR_INTERVAL_MS };
      const samples = runNodeJson([join(ROOT, 'bench/neighbour.mjs'), JSON.stringify(job)], { cpu: 1, timeoutMs: (maxS + 60) * 1000, name: 'the neighbour' });
      return { samples, stop: () => writeFileSync(stopFile, '') };
    };
    log(`sustained: the neighbour's worker-checked execution alone for ${QUIET_S} s`);
    results.sustained.quiet = neighbourFigures(await watch(QUIET_S).samples);
    for (const name of SUSTAINED) {
      log(`sustained: ${name} for ${SUSTAINED_S} s`);
      const attacker = await attackerTenant(service.url, secrets.ADMIN_API_KEY, name);
      let attack;
      if (name === 'worker_starvation') {
        await call(service.url, 'POST', `${GATEWAY}/actions`, { body: { name: 'runaway', description: 'backreference', webhook_url: `${receiver.url}/runaway`, json_schema: BACKREFERENCE_SCHEMA }, token: attacker.jwt, expected: 201 });
        attack = () => workerStarvation({ url: service.url, jwt: attacker.jwt, actionName: 'runaway', seconds: SUSTAINED_S });
      } else if (name === 'management_churn') {
        const session = await portalSession(service.url, secrets.ADMIN_API_KEY, attacker.tenantId);
        attack = () => managementChurn({ url: service.url, tenantId: attacker.tenantId, ...session, webhookUrl: `${receiver.url}/churn`, seconds: SUSTAINED_S });
      } else {
        throw new Error(`unknown sustained attack ${name} (worker_starvation, management_churn)`);
      }
      const before = receiver.registrations.get('/churn') ?? 0;
      const watching = watch(SUSTAINED_S + 120);
      await sleep(300);
      const from = Date.now();
      const outcome = await attack();
      const to = Date.now();
      watching.stop();
      const registrationPosts = (receiver.registrations.get('/churn') ?? 0) - before;
      results.sustained.attacks.push({ name, duration_ms: to - from, attacker: outcome.statuses, registration_posts: registrationPosts, neighbour: neighbourFigures(await watching.samples, from, to) });
    }
  } finally {
    await stopChild(service.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function printSustained(results) {
  if (!results.sustained) return;
  const { quiet, attacks: rows, seconds, neighbour_interval_ms } = results.sustained;
  const tally = (statuses) => Object.entries(statuses).map(([status, n]) => `${n} × ${status}`).join(', ');
  const what = ({ name, attacker, registration_posts }) =>
    name === 'management_churn'
      ? `actions: ${tally(attacker.actions)}; tokens: ${tally(attacker.api_tokens)}; keys: ${tally(attacker.hmac_keys)}; ${registration_posts} registration POSTs sent`
      : tally(attacker);
  console.log(`\nSustained attacks, ${seconds} s each; the neighbour executes a worker-checked action every ${neighbour_interval_ms} ms:\n`);
  console.log(`| attack | attacker's answers | neighbour answers | neighbour p50 ms | p99 ms | max ms | neighbour statuses |`);
  console.log('|---|---|---|---|---|---|---|');
  console.log(`| (no attack: the neighbour alone) |  | ${quiet.answers} | ${quiet.p50_ms} | ${quiet.p99_ms} | ${quiet.max_ms} | ${tally(quiet.statuses)} |`);
  for (const row of rows) console.log(`| ${row.name} | ${what(row)} | ${row.neighbour.answers} | ${row.neighbour.p50_ms} | ${row.neighbour.p99_ms} | ${row.neighbour.max_ms} | ${tally(row.neighbour.statuses)} |`);
}

main().catch((error) => {
  console.error(error);
  killAllChildren();
  process.exit(1);
});
