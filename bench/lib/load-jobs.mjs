// The load jobs of the benchmark harnesses (bench/run.mjs, bench/compare-commits.mjs): autocannon runs by the load
// generator (bench/load.mjs, on CPU 1), the unmeasured warm-up after a server starts, and the sampling of the
// server's memory and CPU while a scenario runs.
import { join } from 'node:path';
import { GATEWAY, actionName } from './service.mjs';
import { cpuMs, databaseCpu, ROOT, runNodeJson, sampleRss } from './common.mjs';

/** `config`: { connections, durationS, warmupS, startWarmupS } (seconds). */
export function loadJobs(config) {
  const generator = (job) =>
    runNodeJson([join(ROOT, 'bench/load.mjs'), JSON.stringify(job)], { cpu: 1, name: `the load generator (${job.kind})`, timeoutMs: 180_000 });

  function autocannonJob(server, path, { method = 'GET', token, body, expect, rate, durationS = config.durationS, warmupS = config.warmupS } = {}) {
    const headers = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) };
    return generator({ kind: 'autocannon', url: `${server.url}${path}`, method, headers, body, expect, rate, connections: config.connections, warmupS, durationS });
  }

  /** Load that is not measured, right after a server started: the first seconds run code V8 has not optimized yet. */
  async function warmUp(server, session, request = { path: `${GATEWAY}/actions/${actionName(3)}` }) {
    if (config.startWarmupS <= 0) return;
    const { path, ...options } = request;
    const result = await autocannonJob(server, path, { token: session.jwt, ...options, durationS: config.startWarmupS, warmupS: 0 });
    if (result.failures) throw new Error(`warm-up of ${server.url}: ${result.failures} requests failed`);
  }

  /**
   * Runs one scenario's load while sampling the server's resident memory, kept as the scenario's `rss_max_mb`, and
   * the CPU the server spent on it: `cpu_us_per_request` (warm-up included, so take it with a warm-up of 0), and on
   * a PostgreSQL server on this machine the CPU of its backends serving the database: `db_cpu_us_per_request`.
   */
  async function sampled(server, job) {
    const sampler = sampleRss(server.child.pid);
    const database = await databaseCpu(server.databaseUrl ?? process.env.DATABASE_URL);
    const cpuBefore = cpuMs(server.child.pid);
    const result = await job();
    result.rss_max_mb = sampler.stop();
    const cpuAfter = cpuMs(server.child.pid);
    const databaseMs = database.stop();
    if (cpuBefore !== null && cpuAfter !== null && result.requests) result.cpu_us_per_request = Math.round(((cpuAfter - cpuBefore) * 1000) / result.requests);
    if (databaseMs !== null && result.requests) result.db_cpu_us_per_request = Math.round((databaseMs * 1000) / result.requests);
    return result;
  }

  return { generator, autocannonJob, warmUp, sampled };
}
