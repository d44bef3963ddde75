// node bench/lib/sequential-executions.mjs <service url> <bearer token> <action> <count>: `count` executions one
// at a time over one keep-alive connection; prints the client-side p50 latency. Used by bench/syscalls.sh.
import { Pool } from 'undici';

const [url, jwt, action, count] = process.argv.slice(2);
const pool = new Pool(url, { connections: 1 });
const latencies = [];
for (let i = 0; i < Number(count); i++) {
  const started = performance.now();
  const response = await pool.request({
    method: 'POST',
    path: `/api/v1/gateway/actions/${action}/execute`,
    headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
    body: '{"parameters":{}}',
  });
  const body = await response.body.text();
  if (response.statusCode !== 200 || !body.includes('"succeeded"')) throw new Error(`${response.statusCode} ${body}`);
  latencies.push(performance.now() - started);
}
latencies.sort((a, b) => a - b);
console.log(`p50 ${latencies[latencies.length >> 1].toFixed(3)} ms`);
await pool.close();
