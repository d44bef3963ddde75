// The load generator of the benchmark: `node bench/load.mjs '<job as JSON>'`, a process of its own (pinned to
// another CPU than the server when possible). It prints one JSON result on stdout. Jobs:
//   {"kind":"autocannon", url, method, headers, body, connections, warmupS, durationS, expect, rate}
//       autocannon with `connections` keep-alive connections, a warm-up run, then the measured run. Latencies are
//       recorded per response from autocannon's own timings (its histogram has 1-ms resolution only).
//       expect "execution": a 200 whose execution did not succeed counts as an error too. rate: at most that many
//       requests per second in all (autocannon's overallRate), else as many as the server answers.
//   {"kind":"overhead", service, path, headers, body, receiver, captured, requests, warmup}
//       sequential executions, then sequential POSTs of the captured webhook call straight to the receiver
//       (same bytes, same headers), each over one keep-alive undici connection.
//   {"kind":"write", service, jwt, receiverUrl, workers, warmupS, durationS, prefix}
//       create + delete cycles (POST /actions with a unique name, then DELETE it) by `workers` loops.
// Every loop is bounded by a deadline and a request budget.
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { percentile, round } from './lib/common.mjs';

const MAX_REQUESTS = 1_000_000;
const job = JSON.parse(process.argv[2]);

function runAutocannon(durationS, onResponse) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.url,
        method: job.method,
        headers: job.headers,
        body: job.body,
        connections: job.connections,
        pipelining: 1,
        duration: durationS,
        timeout: 30,
        ...(job.rate > 0 ? { overallRate: job.rate } : {}),
        ...(job.expect === 'execution' ? { verifyBody: (body) => body.includes('"status":"succeeded"') } : {}),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (onResponse) instance.on('response', onResponse);
  });
}

async function autocannonJob() {
  if (job.warmupS > 0) await runAutocannon(job.warmupS);
  const latencies = [];
  const result = await runAutocannon(job.durationS, (_client, statusCode, _bytes, ms) => {
    if (statusCode >= 200 && statusCode < 300 && latencies.length < MAX_REQUESTS) latencies.push(ms);
  });
  latencies.sort((a, b) => a - b);
  const ok = result['2xx'];
  return {
    requests: ok + result.non2xx + result.errors,
    ok,
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
    failures: result.non2xx + result.errors + result.mismatches,
    status_codes: result.statusCodeStats,
    duration_s: result.duration,
    rps: round(ok / result.duration, 1),
    p50_ms: percentile(latencies, 0.5),
    p90_ms: percentile(latencies, 0.9),
    p99_ms: percentile(latencies, 0.99),
    autocannon_p50_ms: result.latency.p50,
    autocannon_p99_ms: result.latency.p99,
  };
}

/**
 * `workers` loops each calling `send()` back to back until the deadline or the request budget runs out; `send`
 * resolves to undefined on success, else to a description of the problem.
 */
async function loop(workers, seconds, maxRequests, send) {
  const latencies = [];
  const errors = { count: 0, samples: [] };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let issued = 0;
  const worker = async () => {
    while (performance.now() < deadline && issued < maxRequests) {
      issued++;
      const t0 = performance.now();
      let problem;
      try {
        problem = await send();
      } catch (error) {
        problem = String(error?.code ?? error);
      }
      if (problem) {
        errors.count++;
        if (errors.samples.length < 5) errors.samples.push(problem);
      } else latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  const elapsedS = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length + errors.count,
    ok: latencies.length,
    failures: errors.count,
    error_samples: errors.samples,
    duration_s: round(elapsedS, 3),
    rps: round(latencies.length / elapsedS, 1),
    p50_ms: percentile(latencies, 0.5),
    p90_ms: percentile(latencies, 0.9),
    p99_ms: percentile(latencies, 0.99),
  };
}

/** One request; any status but `expected` is a problem (returned as text), else `check(text)`'s verdict. */
function sender(pool, options, expected, check) {
  return async () => {
    const res = await pool.request(typeof options === 'function' ? options() : options);
    const text = await res.body.text();
    if (res.statusCode !== expected) return `${res.statusCode} ${text.slice(0, 200)}`;
    return check?.(text);
  };
}

const executionSucceeded = (text) => {
  const { execution } = JSON.parse(text);
  return execution.status === 'succeeded' ? undefined : `execution ${execution.status}: ${execution.error}`;
};

async function overheadJob() {
  const service = new Pool(job.service, { connections: 1, pipelining: 1 });
  const receiver = new Pool(job.receiver, { connections: 1, pipelining: 1 });
  try {
    const execute = sender(service, { method: 'POST', path: job.path, headers: job.headers, body: job.body }, 200, executionSucceeded);
    const { captured } = job;
    const headers = Object.fromEntries(
      ['content-type', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature'].filter((h) => captured.headers[h]).map((h) => [h, captured.headers[h]]),
    );
    const post = sender(receiver, { method: 'POST', path: captured.path, headers, body: captured.body }, 200);
    // Short sequential warm-ups, then both sides with the same request budget (and at most 30 s each).
    await loop(1, 2, job.warmup, execute);
    await loop(1, 2, job.warmup, post);
    const execution = await loop(1, 30, job.requests, execute);
    const direct = await loop(1, 30, job.requests, post);
    return { execution, direct };
  } finally {
    await service.close();
    await receiver.close();
  }
}

async function writeJob() {
  const service = new Pool(job.service, { connections: job.workers, pipelining: 1 });
  const auth = { authorization: `Bearer ${job.jwt}` };
  let counter = 0;
  const cycle = async () => {
    const name = `${job.prefix}_${process.pid}_${counter++}`;
    const action = { name, description: 'bench write path', webhook_url: job.receiverUrl, json_schema: { type: 'object', properties: { n: { type: 'integer' } } } };
    const headers = { ...auth, 'content-type': 'application/json' };
    const created = await sender(service, { method: 'POST', path: '/api/v1/gateway/actions', headers, body: JSON.stringify(action) }, 201)();
    if (created) return `create: ${created}`;
    const deleted = await sender(service, { method: 'DELETE', path: `/api/v1/gateway/actions/${name}`, headers: auth }, 204)();
    return deleted && `delete: ${deleted}`;
  };
  try {
    if (job.warmupS > 0) await loop(job.workers, job.warmupS, MAX_REQUESTS, cycle);
    return await loop(job.workers, job.durationS, MAX_REQUESTS, cycle);
  } finally {
    await service.close();
  }
}

const jobs = { autocannon: autocannonJob, overhead: overheadJob, write: writeJob };
process.stdout.write(JSON.stringify(await jobs[job.kind]()) + '\n');
