// What one round trip to another process costs on this machine, by where the caller runs:
// `node bench/core-hop.mjs` starts the bench's receiver (bench/receiver.mjs) pinned to CPU 1, then sends
// BENCH_HOP_REQUESTS (3000) sequential POSTs over one keep-alive connection from a client pinned to CPU 1 (the
// receiver's own core, as the added-latency scenario's direct POSTs run) and from one pinned to CPU 0 (the
// service's core, as its webhook calls run), after 300 of each as warm-up, and prints p50 and p99 of each as JSON.
// All traffic stays on 127.0.0.1. Needs taskset and two CPUs (docs/benchmarks.md, "Where an execution's added latency goes").
import { Client } from 'undici';
import { join } from 'node:path';
import { freePort, HOST, killAllChildren, percentile, PINNING, ROOT, runNodeJson, spawnNode, stopChild, waitReady } from './lib/common.mjs';

const REQUESTS = Number(process.env.BENCH_HOP_REQUESTS ?? 3000);

if (process.argv[2] === 'client') {
  const [, , , origin] = process.argv;
  const client = new Client(origin, { keepAliveTimeout: 10_000 });
  const body = JSON.stringify({ action_name: 'hop', parameters: { city: 'Oslo' }, timestamp: 1 });
  const once = async () => {
    const response = await client.request({ method: 'POST', path: '/hook', headers: { 'content-type': 'application/json' }, body });
    await response.body.text();
  };
  for (let index = 0; index < 300; index++) await once();
  const times = [];
  for (let index = 0; index < REQUESTS; index++) {
    const started = process.hrtime.bigint();
    await once();
    times.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  await client.close();
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ p50_us: Math.round(percentile(times, 0.5)), p99_us: Math.round(percentile(times, 0.99)) }));
} else {
  if (!PINNING) throw new Error('needs /usr/bin/taskset and two CPUs');
  const port = await freePort();
  const receiver = spawnNode([join(ROOT, 'bench/receiver.mjs'), String(port)], { cpu: 1, name: 'the receiver' });
  try {
    await waitReady(receiver, port, performance.now());
    const origin = `http://${HOST}:${port}`;
    const result = {};
    for (const [label, cpu] of [['receiver_core', 1], ['other_core', 0], ['receiver_core_again', 1], ['other_core_again', 0]]) {
      result[label] = await runNodeJson([join(ROOT, 'bench/core-hop.mjs'), 'client', origin], { cpu, timeoutMs: 120_000, name: `the client on CPU ${cpu}` });
    }
    console.log(JSON.stringify({ requests: REQUESTS, ...result }, null, 2));
  } finally {
    await stopChild(receiver);
    killAllChildren();
  }
}
