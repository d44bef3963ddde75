// `npm run bench:isolation`: how long a neighbour tenant waits while another tenant attacks (issue 11).
//
//   npm run bench:isolation                                  # builds, then: embedded database in a temp DATA_DIR
//   DATABASE_URL=postgres://... npm run bench:isolation      # a PostgreSQL server (an empty database)
//   ISOLATION_ATTACKS=pattern_backtracking,unique_items npm run bench:isolation   # a subset (bench/lib/attacks.mjs)
//
// The built service runs on CPU 0 (taskset, when there are two CPUs). A neighbour tenant (bench/neighbour.mjs, its
// own process on CPU 1) sends GET /api/v1/gateway/actions (11 actions) back to back, first alone for
// ISOLATION_QUIET_S seconds (the reference), then during each attack of bench/lib/attacks.mjs, which this process
// replays as the attacking tenant: register the action, update it with the same schema, execute it. Reported per
// attack: the attacker's statuses and slowest answer, and the neighbour's p50 / p99 / max latency over the
// attack's duration. Nothing is asserted (test/isolation.e2e-spec.ts does that); a 5xx is flagged.
// Output: a table on stdout and bench/results/isolation-<embedded|postgresql>-<timestamp>.json.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { ATTACKS } from './lib/attacks.mjs';
import { freePort, HOST, killAllChildren, machineInfo, percentile, ROOT, round, runNodeJson, sleep, sourceVersion, stopChild } from './lib/common.mjs';
import { bootstrap, call, GATEWAY, startService } from './lib/service.mjs';

const QUIET_S = Number(process.env.ISOLATION_QUIET_S ?? 5);
const wanted = process.env.ISOLATION_ATTACKS ? process.env.ISOLATION_ATTACKS.split(',').map((name) => name.trim()) : ATTACKS.map(({ name }) => name);
const attacks = ATTACKS.filter(({ name }) => wanted.includes(name));
const MODE = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
const DEFAULT_ANSWER = JSON.stringify({ result: 'ok', error: '' });
const log = (text) => console.error(`[isolation ${new Date().toISOString().slice(11, 19)}] ${text}`);

process.on('SIGINT', () => {
  killAllChildren();
  process.exit(130);
});

/** The webhook of every action: 200 to the registration test, and the answer its attack names (by path) after. */
async function startReceiver() {
  const answers = new Map(attacks.map(({ name, answer }) => [`/${name}`, answer ?? DEFAULT_ANSWER]));
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const test = Buffer.concat(chunks).includes('"test":true');
      response.writeHead(200, { 'content-type': 'application/json' }).end(test ? DEFAULT_ANSWER : (answers.get(request.url) ?? DEFAULT_ANSWER));
    });
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, HOST, resolve));
  return { server, url: `http://${HOST}:${port}` };
}

/** A second tenant with a key and a bearer token, through the admin API. */
async function attackerTenant(url, adminKey) {
  const admin = (path, body) => call(url, 'POST', `/api/v1/admin${path}`, { body, token: adminKey, expected: 201 }).then((r) => r.json);
  const { tenant } = await admin('/tenants', { name: 'attacker' });
  const { api_token } = await admin(`/tenants/${tenant.id}/api-tokens`, { name: 'attacker' });
  await admin(`/tenants/${tenant.id}/hmac-keys`);
  return (await call(url, 'POST', `${GATEWAY}/token/exchange`, { body: { api_token: api_token.token }, expected: 200 })).json.jwt_token;
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

/** The neighbour's figures over [from, to] (epoch ms): answers, statuses, p50 / p99 / max latency. */
function neighbourFigures(samples, from = -Infinity, to = Infinity) {
  const within = samples.filter(({ at, ms }) => at + ms >= from && at <= to);
  const sorted = within.map(({ ms }) => ms).sort((a, b) => a - b);
  const statuses = {};
  for (const { status } of within) statuses[status] = (statuses[status] ?? 0) + 1;
  return { answers: within.length, statuses, p50_ms: percentile(sorted, 0.5), p99_ms: percentile(sorted, 0.99), max_ms: round(sorted[sorted.length - 1] ?? NaN, 1) };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agw-isolation-'));
  const secrets = { ADMIN_API_KEY: randomBytes(32).toString('hex'), JWT_SECRET: randomBytes(48).toString('base64'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };
  const stopDir = mkdtempSync(join(tmpdir(), 'agw-isolation-stop-'));
  const receiver = await startReceiver();
  const port = await freePort();
  const service = await startService({ port, dataDir, secrets, nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean) });
  const results = { mode: MODE, ...sourceVersion(), machine: machineInfo(), quiet: null, attacks: [] };
  try {
    const neighbour = await bootstrap(service.url, secrets.ADMIN_API_KEY, `${receiver.url}/neighbour`);
    const attackerToken = await attackerTenant(service.url, secrets.ADMIN_API_KEY);
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
    receiver.server.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(stopDir, { recursive: true, force: true });
  }

  const file = join(ROOT, 'bench/results', `isolation-${MODE}-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}Z.json`);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  const rows = [['(no attack: the neighbour alone)', '', '', results.quiet]].concat(
    results.attacks.map(({ name, answers, neighbour }) => [name, [...new Set(answers.map((a) => `${a.step} ${a.status}`))].join(', '), Math.max(...answers.map((a) => a.ms)), neighbour]),
  );
  console.log(`| attack | attacker's answers | attacker's slowest answer ms | neighbour answers | neighbour p50 ms | p99 ms | max ms |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, statuses, slowest, n] of rows) console.log(`| ${name} | ${statuses} | ${slowest === '' ? '' : round(slowest, 1)} | ${n.answers} | ${n.p50_ms} | ${n.p99_ms} | ${n.max_ms} |`);
  console.log(`\nresults: ${file}`);
  const serverErrors = results.attacks.filter(({ answers, neighbour }) => answers.some((a) => a.status >= 500) || Object.keys(neighbour.statuses).some((s) => Number(s) >= 500 || Number(s) < 0));
  if (serverErrors.length) {
    console.log(`5xx or failed requests in: ${serverErrors.map(({ name }) => name).join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  killAllChildren();
  process.exit(1);
});
