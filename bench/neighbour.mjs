// The neighbour tenant of bench/isolation.mjs: `node bench/neighbour.mjs '<job as JSON>'`, a process of its own.
// Job: {url, path, token, stopFile, maxS, method?, body?, intervalMs?}. Sends `method` (GET) `path` (with `body`)
// over one keep-alive connection, back to back or, with `intervalMs`, one every `intervalMs` (paced: a slow answer
// does not lower the rate of those that follow, so the figures are not coordinated with the slowness measured),
// until `stopFile` exists (or `maxS` passed), then prints every answer as JSON: [{at (epoch ms), ms, status}].
import { existsSync } from 'node:fs';
import { Pool } from 'undici';

const job = JSON.parse(process.argv[2]);
const pool = new Pool(job.url, { connections: 1 });
const samples = [];
const deadline = performance.now() + job.maxS * 1000;
const headers = { authorization: `Bearer ${job.token}`, ...(job.body === undefined ? {} : { 'content-type': 'application/json' }) };
let next = performance.now();
while (!existsSync(job.stopFile) && performance.now() < deadline) {
  if (job.intervalMs) {
    next += job.intervalMs;
    const wait = next - job.intervalMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const at = Date.now();
  const started = performance.now();
  let status = 0;
  try {
    const res = await pool.request({ method: job.method ?? 'GET', path: job.path, headers, body: job.body, headersTimeout: 60_000, bodyTimeout: 60_000 });
    await res.body.dump();
    status = res.statusCode;
  } catch {
    status = -1;
  }
  samples.push({ at, ms: performance.now() - started, status });
}
await pool.close();
process.stdout.write(JSON.stringify(samples));
