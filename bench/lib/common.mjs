// Shared helpers of the benchmark harness (bench/run.mjs and its child processes): numbers, ports, child
// processes pinned to a CPU, readiness, memory, and the description of the code and the machine measured.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Every server of the benchmark listens here and every request goes here: nothing leaves the machine. */
export const HOST = '127.0.0.1';
export { sleep };

export const round = (x, digits = 2) => (Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : null);

export function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return round(sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2, 3);
}

/** Nearest-rank percentile (0..1) of an ascending array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))], 3);
}

/** bench/neighbour.mjs's answers within [from, to] (epoch ms): how many, their statuses, p50 / p90 / p99 / max ms. */
export function neighbourFigures(samples, from = -Infinity, to = Infinity) {
  const within = samples.filter(({ at, ms }) => at + ms >= from && at <= to);
  const sorted = within.map(({ ms }) => ms).sort((a, b) => a - b);
  const statuses = {};
  for (const { status } of within) statuses[status] = (statuses[status] ?? 0) + 1;
  return { answers: within.length, statuses, p50_ms: percentile(sorted, 0.5), p90_ms: percentile(sorted, 0.9), p99_ms: percentile(sorted, 0.99), max_ms: round(sorted[sorted.length - 1] ?? NaN, 1) };
}

export async function freePort() {
  const server = createNetServer();
  await new Promise((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// ---------- child processes ----------
const TASKSET = '/usr/bin/taskset';
/** Pinning needs taskset and a second CPU: the server gets CPU 0, the load generator and receiver CPU 1. */
export const PINNING = existsSync(TASKSET) && cpus().length >= 2;
const children = new Set();

/**
 * `node <args>` as a child process, on `cpu` when pinning is possible (taskset execs node: the pid is node's).
 * The last lines of its output are kept in `tail` for error messages; draining the pipes keeps it from blocking.
 */
export function spawnNode(args, { cpu, env = process.env, name } = {}) {
  const command = PINNING && cpu !== undefined ? [TASKSET, ['-c', String(cpu), process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(command[0], command[1], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.label = name ?? args.join(' ');
  child.tail = [];
  child.stdoutText = '';
  const keep = (chunk) => {
    child.tail.push(...chunk.toString().split('\n').filter(Boolean));
    child.tail.splice(0, Math.max(0, child.tail.length - 30));
  };
  child.stdout.on('data', (chunk) => {
    child.stdoutText += chunk;
    keep(chunk);
  });
  child.stderr.on('data', keep);
  if (process.env.BENCH_OUTPUT_DIR) keepOutput(child, process.env.BENCH_OUTPUT_DIR);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function describeTail(child) {
  return child.tail.length ? `\nlast lines of ${child.label}'s output:\n  ${child.tail.join('\n  ')}` : '';
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export async function stopChild(child, graceMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  if (!(await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]))) {
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(5_000)]);
  }
}

/** Whatever happens (an error, a signal, the deadline), no child outlives the benchmark. */
export function killAllChildren() {
  for (const child of children) child.kill('SIGKILL');
}

/** Runs a node script to its end and parses the JSON it prints on stdout. */
export async function runNodeJson(args, { cpu, timeoutMs, name }) {
  const child = spawnNode(args, { cpu, name });
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await exit;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${child.label} ended with ${code}${describeTail(child)}`);
  return JSON.parse(child.stdoutText);
}

// ---------- readiness and memory ----------
/**
 * Polls GET /readyz every ~10 ms until a 200; returns the ms since `spawnedAt`. BENCH_READY_TIMEOUT_S (60) bounds
 * the wait: a first start creates the embedded database, which takes minutes on a loaded machine.
 */
export async function waitReady(child, port, spawnedAt, timeoutMs = Number(process.env.BENCH_READY_TIMEOUT_S ?? 60) * 1000) {
  const deadline = spawnedAt + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${child.label} exited with ${child.exitCode}${describeTail(child)}`);
    try {
      const res = await request(`http://${HOST}:${port}/readyz`, { headersTimeout: 2_000, bodyTimeout: 2_000 });
      await res.body.dump();
      if (res.statusCode === 200) return round(performance.now() - spawnedAt, 1);
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  throw new Error(`${child.label} was not ready within ${timeoutMs / 1000} s${describeTail(child)}`);
}

/** Resident memory of a process in MB (VmRSS), null off Linux or once it has gone. */
export function rssMb(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? round(Number(match[1]) / 1024, 1) : null;
  } catch {
    return null;
  }
}

/**
 * CPU time `pid` has used so far (user + system, /proc/<pid>/stat), in ms; null when it cannot be read. CPU per
 * request hardly moves when other processes load the machine, unlike requests per second: the fairer figure
 * for a small difference on a shared machine.
 */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * The CPU the database server spends for `databaseUrl`'s database (PostgreSQL on this machine): the backends
 * connected to it now, read again by `stop()`, which gives the ms they used meanwhile (backends that connected
 * in between are not counted; the service's pools are open by then). null for the embedded database (it runs in
 * the service's process, whose CPU is counted already), when the server's processes cannot be read, or when one
 * of the backends ended meanwhile.
 */
export async function databaseCpu(databaseUrl) {
  if (!databaseUrl) return { stop: () => null };
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let pids;
  try {
    pids = (await client.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
  // A backend that ended meanwhile (a pool replacing a connection) takes its CPU with it: then no figure.
  const before = pids.map((pid) => cpuMs(pid));
  return {
    stop: () => {
      const after = pids.map((pid) => cpuMs(pid));
      if (before.some((ms) => ms === null) || after.some((ms) => ms === null)) return null;
      return after.reduce((sum, ms, index) => sum + ms - before[index], 0);
    },
  };
}

/** Samples the RSS of `pid` every 100 ms until stopped; `stop()` returns the maximum seen. */
export function sampleRss(pid) {
  let max = rssMb(pid) ?? 0;
  const timer = setInterval(() => {
    max = Math.max(max, rssMb(pid) ?? 0);
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return max || null;
    },
  };
}

// ---------- what was measured ----------
/** The commit measured, and whether src/ differed from it (figures of a dirty tree are not reproducible). */
export function sourceVersion() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    return { commit: git('rev-parse', 'HEAD'), src_modified: git('status', '--porcelain', '--', 'src') !== '' };
  } catch {
    return { commit: 'unknown', src_modified: null };
  }
}

export function machineInfo() {
  const packageVersion = (name) => {
    try {
      return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      return null;
    }
  };
  return {
    cpu: cpus()[0]?.model ?? null,
    nproc: cpus().length,
    memory_gib: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    taskset: PINNING,
    pglite: packageVersion('@electric-sql/pglite'),
    autocannon: packageVersion('autocannon'),
  };
}

/** BENCH_OUTPUT_DIR: a server's whole stdout and stderr in `<dir>/<service|baseline>-<pid>.log` (e.g. --trace-gc-nvp). */
function keepOutput(child, dir) {
  const server = /\b(service|baseline)\b/.exec(child.label)?.[1];
  if (!server) return;
  mkdirSync(dir, { recursive: true });
  const file = createWriteStream(join(dir, `${server}-${child.pid}.log`));
  child.stdout.pipe(file, { end: false });
  child.stderr.pipe(file, { end: false });
}

/** Writes `record` to bench/results/<name>-<time>.json, says where, and returns the path. */
export function writeResults(name, record) {
  const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  const file = join(ROOT, 'bench/results', `${name}-${stamp}.json`);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  console.log(`\nwritten to ${file}`);
  return file;
}

/** The requests that failed in `rounds` (each { side: { scenario: result } }): said, and the exit code made 1. */
export function reportFailures(rounds) {
  const failures = rounds.flatMap((r) => Object.values(r).flatMap((side) => Object.values(side).map((result) => result.failures ?? 0))).reduce((a, b) => a + b, 0);
  if (failures) {
    console.log(`ERRORS: ${failures} requests failed; see the results file`);
    process.exitCode = 1;
  }
}

/** `work()` on a started `server`, which is stopped after; a failure carries the tail of the server's output. */
export async function thenStop(server, work) {
  try {
    return await work();
  } catch (error) {
    error.message += describeTail(server.child);
    throw error;
  } finally {
    await stopChild(server.child);
  }
}
