// What an Idempotency-Key costs an execute, against the built service: `npm run build && node bench/idempotency.mjs`.
// On the embedded database by default; BENCH_DATABASE_URL runs it on a PostgreSQL server (an empty, migrated
// database). One action, one receiver that answers at once (bench/receiver.mjs, on CPU 1), one keep-alive
// connection, executions one after another, in ROUNDS alternating blocks of BLOCK so that the machine's drift falls
// on every kind alike: unkeyed; keyed with a new key each (the claim, an INSERT, before the call); and keyed with
// a key already used (the stored execution answered again, no call). Prints one JSON report: each kind's latency
// (p50, p99, max), the keyed p50 as a multiple of the unkeyed (the goal: at most 1.1), the median of that multiple
// taken round by round (steadier on a shared machine) and the load average at the end. Then the same rounds
// (without the replays) through the bare relay, the floor (bench/baseline-server.mjs BASELINE_MODE=relay: no
// framework, the execution INSERT awaited, and a key claimed by one prepared INSERT ... ON CONFLICT DO NOTHING
// before the call): what a key adds to the service (`keyed_new_added_ms`) against what it adds to the floor
// (`floor.keyed_new_added_ms`), as `added_vs_floor_added`. FLOOR=0 leaves the floor out.
// Traffic goes to 127.0.0.1 only; every loop has a bound.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { freePort, HOST, killAllChildren, machineInfo, percentile, round, sleep, sourceVersion, spawnNode, stopChild } from './lib/common.mjs';
import { bootstrap, call, EXECUTABLE, EXECUTE_BODY, GATEWAY, startBaseline, startService } from './lib/service.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const BLOCK = Number(process.env.BLOCK ?? 200);
const WARMUP = Number(process.env.WARMUP ?? 300);
// The bare relay's rounds after the service's (BASELINE_MODE=relay with a claim): FLOOR=0 leaves them out.
const FLOOR = process.env.FLOOR !== '0';

process.on('exit', killAllChildren);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(1));

const secrets = { ADMIN_API_KEY: randomBytes(32).toString('hex'), JWT_SECRET: randomBytes(48).toString('base64'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };
const dataDir = mkdtempSync(join(tmpdir(), 'agw-bench-idempotency-'));
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const database = process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL, RUN_MIGRATIONS: 'true' } : {};

/** One execute, its latency (ms); `key` sent as Idempotency-Key when given. Fails on anything but 200. */
async function execute(pool, jwt, key) {
  const headers = { authorization: `Bearer ${jwt}`, 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) };
  const t0 = performance.now();
  const res = await pool.request({ method: 'POST', path: `${GATEWAY}/actions/${EXECUTABLE}/execute`, headers, body: EXECUTE_BODY });
  const text = await res.body.text();
  const ms = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`execute answered ${res.statusCode}: ${text}`);
  return { ms, replayed: res.headers['idempotent-replayed'] === 'true', id: JSON.parse(text).execution.id };
}

const summary = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { executions: ms.length, p50_ms: round(percentile(sorted, 0.5), 2), p99_ms: round(percentile(sorted, 0.99), 2), max_ms: round(sorted.at(-1), 1) };
};

const report = { benchmark: 'idempotency', database: process.env.BENCH_DATABASE_URL ? 'postgresql' : 'embedded', source: sourceVersion(), machine: machineInfo(), rounds: ROUNDS, block: BLOCK };

const receiverPort = await freePort();
const receiver = spawnNode(['bench/receiver.mjs', String(receiverPort)], { cpu: 1, name: 'the receiver' });
for (let i = 0; i < 200; i++) {
  try {
    await call(`http://${HOST}:${receiverPort}`, 'GET', '/readyz', { expected: 200 });
    break;
  } catch {
    await sleep(25);
  }
}
/**
 * ROUNDS rounds through `url`, each BLOCK unkeyed executions then BLOCK with a new key each, then (with
 * `replays`) BLOCK more with those keys again; each kind's latencies, and each round's keyed p50 over its unkeyed
 * p50 (the machine's bursts fall on one round, not on the median of them).
 */
async function rounds(url, jwt, { replays }) {
  const pool = new Pool(url, { connections: 1 });
  for (let i = 0; i < WARMUP; i++) await execute(pool, jwt, i % 2 === 0 ? undefined : randomUUID());
  const ms = { unkeyed: [], keyed_new: [], ...(replays ? { keyed_replayed: [] } : {}) };
  const used = [];
  const perRound = [];
  for (let round_ = 0; round_ < ROUNDS; round_++) {
    const from = ms.unkeyed.length;
    for (let i = 0; i < BLOCK; i++) ms.unkeyed.push((await execute(pool, jwt)).ms);
    for (let i = 0; i < BLOCK; i++) {
      const key = randomUUID();
      const { ms: took, replayed, id } = await execute(pool, jwt, key);
      if (replayed) throw new Error('a new key was answered as replayed');
      ms.keyed_new.push(took);
      if (replays) used.push({ key, id });
    }
    for (const { key, id } of replays ? used.splice(0) : []) {
      const again = await execute(pool, jwt, key);
      if (!again.replayed || again.id !== id) throw new Error('a used key was not answered with its execution');
      ms.keyed_replayed.push(again.ms);
    }
    const p50 = (values) => percentile([...values].sort((a, b) => a - b), 0.5);
    perRound.push(p50(ms.keyed_new.slice(from)) / p50(ms.unkeyed.slice(from)));
  }
  await pool.close();
  const figures = Object.fromEntries(Object.entries(ms).map(([kind, values]) => [kind, summary(values)]));
  const sortedRounds = [...perRound].sort((a, b) => a - b);
  return {
    ...figures,
    keyed_new_p50_vs_unkeyed: round(figures.keyed_new.p50_ms / figures.unkeyed.p50_ms, 3),
    keyed_new_added_ms: round(figures.keyed_new.p50_ms - figures.unkeyed.p50_ms, 3),
    keyed_new_vs_unkeyed_per_round: { median: round(percentile(sortedRounds, 0.5), 3), min: round(sortedRounds[0], 3), max: round(sortedRounds.at(-1), 3) },
  };
}

const service = await startService({ port: await freePort(), dataDir, secrets, nodeArgs, env: database });
let relay;
try {
  const { jwt } = await bootstrap(service.url, secrets.ADMIN_API_KEY, `http://${HOST}:${receiverPort}/hook`);
  const measured = await rounds(service.url, jwt, { replays: true });
  Object.assign(report, measured, { keyed_replayed_p50_vs_unkeyed: round(measured.keyed_replayed.p50_ms / measured.unkeyed.p50_ms, 3) });
  if (FLOOR) {
    // The embedded database opens in one process at a time: the service stops before the relay opens it.
    await stopChild(service.child);
    relay = await startBaseline({ port: await freePort(), dataDir, secrets, nodeArgs: [], mode: 'relay', env: database });
    report.floor = await rounds(relay.url, jwt, { replays: false });
    // What a key adds to the service, as a multiple of what it adds to the floor (a claim, nothing else).
    report.added_vs_floor_added = round(report.keyed_new_added_ms / report.floor.keyed_new_added_ms, 2);
  }
  report.load_average = loadavg().map((value) => round(value, 2));
} finally {
  await stopChild(service.child);
  if (relay) await stopChild(relay.child);
  await stopChild(receiver);
  rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.exit(0);
