// The neighbour tenant of bench/isolation.mjs: `node bench/neighbour.mjs '<job as JSON>'`, a process of its own.
// Job: {url, path, token, stopFile, maxS}. Sends GET `path` back to back over one keep-alive connection until
// `stopFile` exists (or `maxS` passed), then prints every answer as JSON: [{at (epoch ms), ms, status}].
import { existsSync } from 'node:fs';
import { Pool } from 'undici';

const job = JSON.parse(process.argv[2]);
const pool = new Pool(job.url, { connections: 1 });
const samples = [];
const deadline = performance.now() + job.maxS * 1000;
while (!existsSync(job.stopFile) && performance.now() < deadline) {
  const at = Date.now();
  const started = performance.now();
  let status = 0;
  try {
    const res = await pool.request({ method: 'GET', path: job.path, headers: { authorization: `Bearer ${job.token}` }, headersTimeout: 60_000, bodyTimeout: 60_000 });
    await res.body.dump();
    status = res.statusCode;
  } catch {
    status = -1;
  }
  samples.push({ at, ms: performance.now() - started, status });
}
await pool.close();
process.stdout.write(JSON.stringify(samples));
