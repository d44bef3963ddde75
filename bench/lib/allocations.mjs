// Bytes allocated per request in the service's process, read through bench/lib/allocation-probe.cjs: the figure
// the CI gate (bench/allocations.mjs) and the before/after comparison (bench/compare-commits.mjs) share.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { ROOT, round, sleep } from './common.mjs';
import { EXECUTABLE, EXECUTE_BODY, GATEWAY, actionName } from './service.mjs';

/** The node options and environment that load the probe into a server: give both to startService. */
export function allocationProbe(file) {
  return { nodeArgs: ['-r', join(ROOT, 'bench/lib/allocation-probe.cjs')], env: { ALLOCATION_PROBE_FILE: file } };
}

/** The measured requests: the two reads served from memory and an execution (a receiver call, a log insert). */
export const ALLOCATION_SCENARIOS = {
  get_action: { method: 'GET', path: `${GATEWAY}/actions/${actionName(3)}` },
  list_actions: { method: 'GET', path: `${GATEWAY}/actions` },
  executions: { method: 'POST', path: `${GATEWAY}/actions/${EXECUTABLE}/execute`, body: EXECUTE_BODY },
};

async function allocatedSoFar(server, file) {
  rmSync(file, { force: true });
  server.child.kill('SIGUSR2');
  for (let i = 0; i < 500; i++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')).allocated_bytes;
    } catch {
      await sleep(10); // not written yet
    }
  }
  throw new Error('the allocation probe did not answer (is the server started with allocationProbe()?)');
}

/**
 * For each scenario: `warmup` requests (V8 optimizes the path: optimized code allocates less), then `requests`
 * more, one at a time over one keep-alive connection, reading the probe before and after. Returns the bytes per
 * request. Whatever the process allocates meanwhile on its own (timers) is counted too: small next to the
 * requests', and the same on both sides of a comparison.
 */
export async function allocationsPerRequest(server, session, file, { requests = 2_000, warmup = 3_000, scenarios = Object.keys(ALLOCATION_SCENARIOS) } = {}) {
  const pool = new Pool(server.url, { connections: 1, pipelining: 1 });
  const headers = { authorization: `Bearer ${session.jwt}`, 'content-type': 'application/json' };
  const send = async ({ method, path, body }) => {
    const response = await pool.request({ method, path, headers, body });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`${method} ${path}: ${response.statusCode} ${text.slice(0, 200)}`);
  };
  try {
    const figures = {};
    for (const scenario of scenarios) {
      const request = ALLOCATION_SCENARIOS[scenario];
      for (let i = 0; i < warmup; i++) await send(request);
      const before = await allocatedSoFar(server, file);
      for (let i = 0; i < requests; i++) await send(request);
      const after = await allocatedSoFar(server, file);
      figures[scenario] = round((after - before) / requests, 0);
    }
    return figures;
  } finally {
    await pool.close();
  }
}
