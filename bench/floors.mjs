// `npm run build && node bench/floors.mjs`: authenticated reads against their two floors, both database modes in one
// alternating run. Measured in every round, in an order that turns round by round:
//   service, embedded      the built service on the embedded database (PGlite, in process)
//   service, PostgreSQL    the same on DATABASE_URL (an empty database), when it is set
//   nest-minimal           the framework floor: NestJS on Fastify with the service's guard chain (bearer guard, then
//                          the throttler keyed by tenant) answering the action's JSON made at start, no database
//                          (bench/baseline-server.mjs BASELINE_MODE=nest, bench/lib/nest-floor.mjs)
//   bare                   the no-database baseline: node:http, the same bearer check, no framework (BASELINE_MODE=memory)
// Printed: each side's medians (requests/s, p50, p99, CPU µs per request) and the ratios service ÷ bare,
// nest-minimal ÷ bare and service ÷ nest-minimal side by side, with the reads' targets (service ÷ bare: ≥ 0.5
// on requests/s, ≤ 2 on p99); each measurement records the load average as it started and ended.
//
// Settings (environment): BENCH_ROUNDS (4), BENCH_DURATION_S (6), BENCH_WARMUP_S (1), BENCH_START_WARMUP_S (3),
// BENCH_CONNECTIONS (50), BENCH_SCENARIOS (get_action,list_actions), DATABASE_URL.
// Pinned as `npm run bench` pins: the server measured on CPU 0, the load generator on CPU 1.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, HOST, killAllChildren, machineInfo, median, PINNING, reportFailures, ROOT, round, sourceVersion, spawnNode, stopChild, thenStop, waitReady, writeResults } from './lib/common.mjs';
import { loadJobs } from './lib/load-jobs.mjs';
import { GATEWAY, actionName, prepareData, startBaseline, startService } from './lib/service.mjs';

const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const CONFIG = {
  rounds: num('BENCH_ROUNDS', 4),
  durationS: num('BENCH_DURATION_S', 6),
  warmupS: num('BENCH_WARMUP_S', 1),
  startWarmupS: num('BENCH_START_WARMUP_S', 3),
  connections: num('BENCH_CONNECTIONS', 50),
  scenarios: (process.env.BENCH_SCENARIOS ?? 'get_action,list_actions').split(',').map((s) => s.trim()).filter(Boolean),
};
const PATHS = { get_action: `${GATEWAY}/actions/${actionName(3)}`, list_actions: `${GATEWAY}/actions` };
// The PostgreSQL side's; every other process here runs on the embedded database (the floors read its data at start).
const POSTGRESQL_URL = process.env.DATABASE_URL;
delete process.env.DATABASE_URL;
const log = (text) => console.error(`[floors ${new Date().toISOString().slice(11, 19)}] ${text}`);
const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

if (CONFIG.scenarios.some((s) => !PATHS[s])) {
  console.error(`BENCH_SCENARIOS: a comma list of ${Object.keys(PATHS).join(', ')}`);
  process.exit(2);
}
process.on('exit', killAllChildren);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    killAllChildren();
    process.exit(130);
  });
}

const { autocannonJob, warmUp, sampled } = loadJobs(CONFIG);
const secrets = { ADMIN_API_KEY: randomBytes(32).toString('hex'), JWT_SECRET: randomBytes(48).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };

/** A database mode's data: a first start of the service creates the database, the tenant, its token and actions. */
async function prepare(data, receiverUrl) {
  Object.assign(data, await prepareData({ prefix: 'agw-floors-data-', secrets, receiverUrl, env: data.env }));
}

async function measure(side) {
  const start = side.kind === 'service' ? startService : startBaseline;
  const options = { port: await freePort(), dataDir: side.data.dataDir, secrets, nodeArgs: [], env: side.data.env };
  const server = await start(side.kind === 'service' ? options : { ...options, mode: side.kind });
  return thenStop(server, async () => {
    await warmUp(server, side.data.session);
    const results = {};
    for (const scenario of CONFIG.scenarios) {
      const loadBefore = loadAverage();
      const result = await sampled(server, () => autocannonJob(server, PATHS[scenario], { token: side.data.session.jwt }));
      results[scenario] = { ...result, load_average: [loadBefore, loadAverage()] };
    }
    return results;
  });
}

const FIGURES = [
  ['rps', 'requests/s'],
  ['p50_ms', 'p50 ms'],
  ['p99_ms', 'p99 ms'],
  ['cpu_us_per_request', 'CPU µs/request'],
];

function report(sides, rounds) {
  const pick = (name, scenario, field) => median(rounds.map((r) => r[name]?.[scenario]?.[field]).filter((x) => x !== undefined));
  const ratio = (a, b) => (a && b ? round(a / b, 3) : null);
  const services = sides.filter((side) => side.kind === 'service');
  const rows = [];
  for (const scenario of CONFIG.scenarios) {
    for (const [field, label] of FIGURES) {
      const row = { scenario, figure: label };
      for (const side of sides) row[side.name] = pick(side.name, scenario, field);
      row['nest÷bare'] = ratio(row.nest, row.bare);
      for (const side of services) {
        row[`${side.name}÷bare`] = ratio(row[side.name], row.bare);
        row[`${side.name}÷nest`] = ratio(row[side.name], row.nest);
      }
      rows.push(row);
    }
  }
  const columns = ['scenario', 'figure', ...sides.map((s) => s.name), ...services.map((s) => `${s.name}÷bare`), 'nest÷bare', ...services.map((s) => `${s.name}÷nest`)];
  const show = (x) => (x === null || x === undefined ? '—' : String(x));
  const lines = rows.map((row) => columns.map((c) => show(row[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...lines.map((l) => l[i].length)));
  const format = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const loads = rounds.flatMap((r) => Object.values(r).flatMap((results) => Object.values(results).flatMap((x) => x.load_average)));
  console.log(`\nnode bench/floors.mjs: medians of ${rounds.length} rounds, ${CONFIG.connections} connections, ${CONFIG.durationS} s per run, ` +
    `${PINNING ? 'servers pinned to CPU 0, load on CPU 1' : 'not pinned'}; load average ${Math.min(...loads)}–${Math.max(...loads)} over the run`);
  console.log([format(columns), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join('\n'));
  console.log('\nTargets of the reads: service ÷ bare ≥ 0.5 on requests/s and ≤ 2 on p99');
  for (const scenario of CONFIG.scenarios) {
    const rps = rows.find((r) => r.scenario === scenario && r.figure === 'requests/s');
    const p99 = rows.find((r) => r.scenario === scenario && r.figure === 'p99 ms');
    for (const side of services) {
      const [a, b] = [rps[`${side.name}÷bare`], p99[`${side.name}÷bare`]];
      console.log(`  ${scenario}, ${side.name}: ${a}× requests/s ${a >= 0.5 ? 'PASS' : 'MISS'}, ${b}× p99 ${b !== null && b <= 2 ? 'PASS' : 'MISS'}`);
    }
  }
  return rows;
}

async function main() {
  const embedded = { env: { OTEL_SDK_DISABLED: 'true' } };
  const postgresql = POSTGRESQL_URL ? { env: { OTEL_SDK_DISABLED: 'true', DATABASE_URL: POSTGRESQL_URL } } : undefined;
  const sides = [
    { name: 'embedded', kind: 'service', data: embedded },
    ...(postgresql ? [{ name: 'postgresql', kind: 'service', data: postgresql }] : []),
    // The floors read the embedded side's data at start (then no database): the same tenant, token and actions.
    { name: 'nest', kind: 'nest', data: embedded },
    { name: 'bare', kind: 'memory', data: embedded },
  ];
  const receiverPort = await freePort();
  const receiver = spawnNode([join(ROOT, 'bench/receiver.mjs'), String(receiverPort)], { cpu: 1, name: 'the receiver' });
  try {
    await waitReady(receiver, receiverPort, performance.now());
    for (const data of [embedded, postgresql].filter(Boolean)) await prepare(data, `http://${HOST}:${receiverPort}/hook`);
    const rounds = [];
    for (let r = 0; r < CONFIG.rounds; r++) {
      const order = sides.map((_, i) => sides[(i + r) % sides.length]);
      const results = {};
      for (const side of order) {
        log(`round ${r + 1}/${CONFIG.rounds}: ${side.name} (load average ${loadAverage()})`);
        results[side.name] = await measure(side);
      }
      rounds.push(results);
    }
    const rows = report(sides, rounds);
    writeResults('floors', { date: new Date().toISOString(), source: sourceVersion(), machine: machineInfo(), config: CONFIG, rows, rounds });
    reportFailures(rounds);
  } finally {
    await stopChild(receiver, 5_000);
    for (const data of [embedded, postgresql]) if (data?.dataDir && existsSync(data.dataDir)) rmSync(data.dataDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

main().catch((error) => {
  console.error(`bench/floors.mjs failed: ${error.stack ?? error}`);
  killAllChildren();
  process.exitCode = 1;
});
