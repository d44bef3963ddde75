// `npm run bench:allocations`: bytes the service allocates per request (its JavaScript heap), against the figures
// recorded in bench/allocations.json; exits 1 when one is above `bound` × its recorded figure. CI runs it: unlike
// requests/s, the figure hardly moves on a loaded machine, so it can gate a change to the request path.
//
//   npm run bench:allocations                 # builds, measures on the embedded database, checks
//   node bench/allocations.mjs                # the same on the build at hand
//   node bench/allocations.mjs --record       # measures and writes the figures to bench/allocations.json
//
// Settings (environment): ALLOCATION_REQUESTS (2000) measured requests per scenario, ALLOCATION_WARMUP (3000)
// requests before them; DATABASE_URL (an empty database) to measure on PostgreSQL instead.
// The service runs with `-r bench/lib/allocation-probe.cjs` on a temporary DATA_DIR, the webhook receiver beside
// it; the requests go one at a time over one keep-alive connection (bench/lib/allocations.mjs).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allocationProbe, allocationsPerRequest } from './lib/allocations.mjs';
import { describeTail, freePort, HOST, killAllChildren, ROOT, sourceVersion, spawnNode, stopChild, waitReady } from './lib/common.mjs';
import { bootstrap, startService } from './lib/service.mjs';

const RECORD_FILE = join(ROOT, 'bench/allocations.json');
const record = process.argv.includes('--record');
const requests = Number(process.env.ALLOCATION_REQUESTS ?? 2_000);
const warmup = Number(process.env.ALLOCATION_WARMUP ?? 3_000);

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agw-allocations-'));
  const probeFile = join(dataDir, 'probe.json');
  const secrets = { ADMIN_API_KEY: randomBytes(32).toString('hex'), JWT_SECRET: randomBytes(48).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };
  const receiverPort = await freePort();
  const receiver = spawnNode([join(ROOT, 'bench/receiver.mjs'), String(receiverPort)], { cpu: 1, name: 'the receiver' });
  let service;
  try {
    await waitReady(receiver, receiverPort, performance.now());
    const probe = allocationProbe(probeFile);
    service = await startService({ port: await freePort(), dataDir, secrets, nodeArgs: probe.nodeArgs, env: { ...probe.env, OTEL_SDK_DISABLED: 'true' } });
    const session = await bootstrap(service.url, secrets.ADMIN_API_KEY, `http://${HOST}:${receiverPort}/hook`);
    const figures = await allocationsPerRequest(service, session, probeFile, { requests, warmup });
    return { figures, mode: process.env.DATABASE_URL ? 'postgresql' : 'embedded' };
  } catch (error) {
    if (service) error.message += describeTail(service.child);
    throw error;
  } finally {
    if (service) await stopChild(service.child, 5_000);
    await stopChild(receiver, 5_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const { figures, mode } = await main().catch((error) => {
  console.error(`allocations: ${error.stack ?? error}`);
  killAllChildren();
  process.exit(1);
});
if (record) {
  const recorded = {
    about: 'Bytes of JavaScript heap the service allocates per request (bench/allocations.mjs); CI fails above bound × these.',
    bound: 1.25,
    mode,
    node: process.version,
    commit: sourceVersion().commit,
    requests,
    warmup,
    bytes_per_request: figures,
  };
  writeFileSync(RECORD_FILE, JSON.stringify(recorded, null, 2) + '\n');
  console.log(`bytes per request ${JSON.stringify(figures)}: written to ${RECORD_FILE}`);
} else {
  const recorded = JSON.parse(readFileSync(RECORD_FILE, 'utf8'));
  console.log(`bytes allocated per request (${mode}, Node.js ${process.version}), against bench/allocations.json (${recorded.mode}, Node.js ${recorded.node}, bound ${recorded.bound}×):`);
  let failed = false;
  for (const [scenario, bytes] of Object.entries(figures)) {
    const limit = recorded.bytes_per_request[scenario] * recorded.bound;
    const over = bytes > limit;
    failed ||= over;
    console.log(`  ${scenario}: ${bytes} (recorded ${recorded.bytes_per_request[scenario]}, limit ${Math.round(limit)})${over ? '  ABOVE THE LIMIT' : ''}`);
  }
  if (failed) {
    console.error('a request allocates more than the bound allows: find what (docs/benchmarks.md, "Allocations per request"), or, if the cost is meant, record the new figures with `node bench/allocations.mjs --record` and say why in the commit');
    process.exit(1);
  }
}
