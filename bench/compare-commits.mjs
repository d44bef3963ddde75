// `npm run bench:compare -- <base-ref> [<head-ref>]`: the request path of two commits, side by side, in one run.
// The base (and a head ref, if given; else this checkout as it is, uncommitted changes included) is built in a
// temporary git worktree; then rounds alternate base and head (base, head; head, base; ...), each side on its own
// database with the same data, and the no-database baseline (the floor, bench/baseline-server.mjs) once a round.
// Printed: the medians of each side, head ÷ base, and each side ÷ the floor for the reads; then the bytes each side
// allocates per request (bench/lib/allocation-probe.cjs), the figure that does not move with the machine's load.
//
//   npm run bench:compare -- main                    # this checkout against main
//   npm run bench:compare -- d8f891b HEAD~3          # two commits
//   DATABASE_URL=postgres://.../a BENCH_BASE_DATABASE_URL=postgres://.../b npm run bench:compare -- main
//
// Settings (environment):
//   BENCH_ROUNDS           rounds, each measuring both sides (4: two in each order)
//   BENCH_DURATION_S       seconds per measured autocannon run (5); BENCH_WARMUP_S before each (1)
//   BENCH_START_WARMUP_S   seconds of unmeasured GET load after each start of a server (3)
//   BENCH_CONNECTIONS      autocannon connections (16)
//   BENCH_SCENARIOS        comma list of get_action, list_actions, executions (all)
//   BENCH_FLOOR            0: no no-database baseline (1)
//   BENCH_ALLOCATIONS      0: no allocations per request (1)
//   BENCH_NODE_ARGS        extra node options for both services (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof)
//   BENCH_REUSE_NODE_MODULES  1: the base uses this checkout's node_modules even when its lock file differs
//                          (a symlink; the default when the locks are equal). Else `npm install` in the worktree.
//   BENCH_KEEP_WORKTREES   1: the temporary worktrees are kept (their paths are printed)
//   DATABASE_URL           head's database (empty); BENCH_BASE_DATABASE_URL is then required, the base's (empty).
//                          Unset: embedded PGlite, each side in a temporary DATA_DIR.
// Processes are pinned as `npm run bench` pins them: the servers on CPU 0, the load generator and receiver on CPU 1.
// On a loaded machine requests/s move between rounds: read the ratios of medians, CPU per request and allocations.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allocationProbe, allocationsPerRequest } from './lib/allocations.mjs';
import { freePort, HOST, killAllChildren, machineInfo, median, reportFailures, ROOT, round, spawnNode, stopChild, thenStop, waitReady, writeResults } from './lib/common.mjs';
import { loadJobs } from './lib/load-jobs.mjs';
import { EXECUTABLE, EXECUTE_BODY, GATEWAY, actionName, prepareData, startBaseline, startService } from './lib/service.mjs';

const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const SCENARIOS = ['get_action', 'list_actions', 'executions'];
const CONFIG = {
  rounds: num('BENCH_ROUNDS', 4),
  durationS: num('BENCH_DURATION_S', 5),
  warmupS: num('BENCH_WARMUP_S', 1),
  startWarmupS: num('BENCH_START_WARMUP_S', 3),
  connections: num('BENCH_CONNECTIONS', 16),
  scenarios: process.env.BENCH_SCENARIOS ? process.env.BENCH_SCENARIOS.split(',').map((s) => s.trim()).filter(Boolean) : SCENARIOS,
  floor: process.env.BENCH_FLOOR !== '0',
  allocations: process.env.BENCH_ALLOCATIONS !== '0',
  nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
};
const MODE = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
const [baseRef, headRef] = process.argv.slice(2).filter((arg) => arg !== '--');
const log = (text) => console.error(`[compare ${new Date().toISOString().slice(11, 19)}] ${text}`);
const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

if (!baseRef) {
  console.error('usage: npm run bench:compare -- <base-ref> [<head-ref>]   (head: this checkout as it is)');
  process.exit(2);
}
if (CONFIG.scenarios.some((s) => !SCENARIOS.includes(s))) {
  console.error(`BENCH_SCENARIOS: a comma list of ${SCENARIOS.join(', ')}`);
  process.exit(2);
}
if (MODE === 'postgresql' && !process.env.BENCH_BASE_DATABASE_URL) {
  console.error('DATABASE_URL is set: BENCH_BASE_DATABASE_URL must name another empty database, the base\'s');
  process.exit(2);
}

const worktrees = [];
function removeWorktrees() {
  for (const dir of worktrees.splice(0)) {
    if (process.env.BENCH_KEEP_WORKTREES === '1') log(`kept ${dir}`);
    else {
      try {
        git('worktree', 'remove', '--force', dir);
      } catch {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
}
process.on('exit', () => {
  killAllChildren();
  removeWorktrees();
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    killAllChildren();
    process.exit(130);
  });
}

/** `npm run -s <script>` in `dir`, its output shown only when it fails. */
function npm(dir, ...args) {
  try {
    execFileSync('npm', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new Error(`npm ${args.join(' ')} in ${dir} failed:\n${error.stdout}\n${error.stderr}`);
  }
}

/**
 * `ref` checked out in a temporary worktree and built (the service only: tsc and the console), its node_modules
 * this checkout's when the lock files are equal (or BENCH_REUSE_NODE_MODULES=1), else installed from its lock.
 */
function buildCommit(ref) {
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = mkdtempSync(join(tmpdir(), `agw-compare-${commit.slice(0, 7)}-`));
  rmSync(dir, { recursive: true, force: true });
  git('worktree', 'add', '--detach', dir, commit);
  worktrees.push(dir);
  const sameLock = readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(ROOT, 'package-lock.json'), 'utf8');
  if (sameLock || process.env.BENCH_REUSE_NODE_MODULES === '1') {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    log(`${ref} (${commit.slice(0, 7)}): building in ${dir}, with this checkout's node_modules${sameLock ? '' : ' (BENCH_REUSE_NODE_MODULES: the lock files differ)'}`);
  } else {
    log(`${ref} (${commit.slice(0, 7)}): the lock file differs, npm install in ${dir}`);
    npm(dir, 'install', '--no-audit', '--no-fund');
  }
  npm(dir, 'run', '-s', 'build:service');
  return { ref, commit, root: dir };
}

function describeCheckout() {
  const commit = git('rev-parse', 'HEAD');
  const modified = git('status', '--porcelain', '--', 'src') !== '';
  return { ref: modified ? 'this checkout (src/ modified)' : 'this checkout', commit, root: ROOT };
}

const { autocannonJob, warmUp, sampled } = loadJobs(CONFIG);
const wanted = (scenario) => CONFIG.scenarios.includes(scenario);

/** One side's data: a first start creates its database, and the tenant, tokens and actions. */
async function prepare(side, secrets, receiverUrl) {
  side.env = { OTEL_SDK_DISABLED: 'true', ...(side.databaseUrl ? { DATABASE_URL: side.databaseUrl } : {}) };
  Object.assign(side, await prepareData({ prefix: 'agw-compare-data-', secrets, receiverUrl, env: side.env, dist: join(side.root, 'dist') }));
}

/** A server's warm-up, then the two reads. */
async function reads(server, session) {
  await warmUp(server, session);
  const results = {};
  if (wanted('get_action')) results.get_action = await sampled(server, () => autocannonJob(server, `${GATEWAY}/actions/${actionName(3)}`, { token: session.jwt }));
  if (wanted('list_actions')) results.list_actions = await sampled(server, () => autocannonJob(server, `${GATEWAY}/actions`, { token: session.jwt }));
  return results;
}

async function measureSide(side, secrets) {
  const server = await startService({ port: await freePort(), dataDir: side.dataDir, secrets, nodeArgs: CONFIG.nodeArgs, env: side.env, dist: join(side.root, 'dist') });
  return thenStop(server, async () => {
    const results = await reads(server, side.session);
    const token = side.session.jwt;
    if (wanted('executions')) {
      results.executions = await sampled(server, () => autocannonJob(server, `${GATEWAY}/actions/${EXECUTABLE}/execute`, { method: 'POST', token, body: EXECUTE_BODY, expect: 'execution' }));
    }
    return results;
  });
}

async function measureFloor(side, secrets) {
  const env = side.databaseUrl ? { DATABASE_URL: side.databaseUrl } : {};
  const server = await startBaseline({ port: await freePort(), dataDir: side.dataDir, secrets, nodeArgs: [], mode: 'memory', env });
  try {
    return await reads(server, side.session);
  } finally {
    await stopChild(server.child);
  }
}

async function measureAllocations(side, secrets) {
  const file = join(side.dataDir, 'allocation-probe.json');
  const probe = allocationProbe(file);
  const server = await startService({ port: await freePort(), dataDir: side.dataDir, secrets, nodeArgs: probe.nodeArgs, env: { ...side.env, ...probe.env }, dist: join(side.root, 'dist') });
  try {
    return await allocationsPerRequest(server, side.session, file, { requests: 1_000, warmup: 2_000, scenarios: CONFIG.scenarios });
  } finally {
    await stopChild(server.child);
  }
}

const FIGURES = [
  ['rps', 'requests/s', 'higher'],
  ['p50_ms', 'p50 ms', 'lower'],
  ['p99_ms', 'p99 ms', 'lower'],
  ['cpu_us_per_request', 'CPU µs/request', 'lower'],
];

function table(base, head, rounds, floor, allocations) {
  const rows = [];
  const pick = (side, scenario, field) => median(rounds.map((r) => r[side]?.[scenario]?.[field]));
  for (const scenario of CONFIG.scenarios) {
    for (const [field, label] of FIGURES) {
      const b = pick('base', scenario, field);
      const h = pick('head', scenario, field);
      const f = floor ? pick('floor', scenario, field) : null;
      rows.push({ scenario, figure: label, base: b, head: h, head_over_base: b && h ? round(h / b, 3) : null, floor: f, base_over_floor: f && b ? round(b / f, 3) : null, head_over_floor: f && h ? round(h / f, 3) : null });
    }
    if (allocations) {
      const b = allocations.base[scenario];
      const h = allocations.head[scenario];
      rows.push({ scenario, figure: 'bytes allocated/request', base: b, head: h, head_over_base: b && h ? round(h / b, 3) : null, floor: null, base_over_floor: null, head_over_floor: null });
    }
  }
  const show = (x) => (x === null || x === undefined ? '—' : String(x));
  const header = ['scenario', 'figure', `base ${base.commit.slice(0, 7)}`, `head ${head.commit.slice(0, 7)}`, 'head/base', ...(floor ? ['floor', 'base/floor', 'head/floor'] : [])];
  const lines = rows.map((r) => [r.scenario, r.figure, show(r.base), show(r.head), show(r.head_over_base), ...(floor ? [show(r.floor), show(r.base_over_floor), show(r.head_over_floor)] : [])]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  console.log(`\nnpm run bench:compare: ${MODE}; base ${base.ref} (${base.commit.slice(0, 7)}), head ${head.ref} (${head.commit.slice(0, 7)});`);
  console.log(`medians of ${rounds.length} alternating rounds, ${CONFIG.connections} connections, ${CONFIG.durationS} s per run; load average at the end ${machineLoad()}`);
  console.log([format(header), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join('\n'));
  return rows;
}

const machineLoad = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

async function main() {
  const base = buildCommit(baseRef);
  const head = headRef ? buildCommit(headRef) : describeCheckout();
  if (!headRef) {
    log('building this checkout');
    npm(ROOT, 'run', '-s', 'build:service');
  }
  base.databaseUrl = process.env.BENCH_BASE_DATABASE_URL;
  head.databaseUrl = process.env.DATABASE_URL;
  const secrets = { ADMIN_API_KEY: randomBytes(32).toString('hex'), JWT_SECRET: randomBytes(48).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };
  const receiverPort = await freePort();
  const receiver = spawnNode([join(ROOT, 'bench/receiver.mjs'), String(receiverPort)], { cpu: 1, name: 'the receiver' });
  const receiverUrl = `http://${HOST}:${receiverPort}/hook`;
  try {
    await waitReady(receiver, receiverPort, performance.now());
    await prepare(base, secrets, receiverUrl);
    await prepare(head, secrets, receiverUrl);
    const rounds = [];
    for (let r = 0; r < CONFIG.rounds; r++) {
      const order = r % 2 === 0 ? [['base', base], ['head', head]] : [['head', head], ['base', base]];
      const round = {};
      for (const [name, side] of order) {
        log(`round ${r + 1}/${CONFIG.rounds}: ${name}`);
        round[name] = await measureSide(side, secrets);
      }
      if (CONFIG.floor && (wanted('get_action') || wanted('list_actions'))) {
        log(`round ${r + 1}/${CONFIG.rounds}: the no-database baseline`);
        round.floor = await measureFloor(head, secrets);
      }
      rounds.push(round);
    }
    let allocations;
    if (CONFIG.allocations) {
      log('allocations per request: base, then head');
      allocations = { base: await measureAllocations(base, secrets), head: await measureAllocations(head, secrets) };
    }
    const rows = table(base, head, rounds, CONFIG.floor, allocations);
    const strip = ({ ref, commit }) => ({ ref, commit });
    writeResults(`compare-${MODE}`, { date: new Date().toISOString(), mode: MODE, load_average_at_end: machineLoad(), machine: machineInfo(), config: CONFIG, base: strip(base), head: strip(head), rows, allocations, rounds });
    reportFailures(rounds);
  } finally {
    await stopChild(receiver, 5_000);
    for (const side of [base, head]) if (side.dataDir && existsSync(side.dataDir)) rmSync(side.dataDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

main().catch((error) => {
  console.error(`bench:compare failed: ${error.stack ?? error}`);
  killAllChildren();
  process.exitCode = 1;
});
