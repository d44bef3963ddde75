// Issue 28: many tenants. `node bench/tenant-scale.mjs` (after `npm run build`), on the embedded database or on
// DATABASE_URL (an empty database), measures, in one run:
//   import   TENANTS tenants, one API token and one action (get_weather) each, inserted in ONE transaction as an
//            import from another system would be (statements of 1,000 rows), with no VACUUM or ANALYZE after it
//   hot      GET /actions/get_weather with one tenant's bearer token
//   spread   the same, each request with a uniformly random tenant's token, right after the import
//   in turn  every tenant once, in order (TENANTS requests): the most the read model ever holds; the service's
//            resident memory is sampled throughout and read at the end
//   spread   again, once the import has settled and the service is warm (as the floor is when it is measured)
//   floor    the bare baseline (bench/baseline-server.mjs, same SQL, no framework) under `hot` and `spread`; on
//            PostgreSQL also `spread` right after an import of its own (another TENANTS tenants), the floor of
//            the service's first spread
// Settings (environment): TENANTS (100000), BENCH_DURATION_S (10), BENCH_WARMUP_S (3), BENCH_CONNECTIONS (50),
// READ_MODEL_CACHE_MB (the service's default), BENCH_NODE_ARGS (extra node options for the service, e.g.
// `--cpu-prof --cpu-prof-dir=/tmp/prof`), DATABASE_URL (unset: embedded PGlite in a temp DATA_DIR).
// The service and the baseline run pinned to CPU 0, the load generator to CPU 1 (as `npm run bench`).
// Output: a table on stdout and bench/results/tenant-scale-<mode>-<timestamp>.json.
// `node bench/tenant-scale.mjs load <job.json>` is the load generator's own process.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { freePort, killAllChildren, machineInfo, percentile, ROOT, rssMb, round, runNodeJson, sampleRss, sourceVersion, stopChild } from './lib/common.mjs';
import { GATEWAY, startBaseline, startService } from './lib/service.mjs';

const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const ACTION = 'get_weather';
const PATH = `${GATEWAY}/actions/${ACTION}`;

if (process.argv[2] === 'load') {
  console.log(JSON.stringify(await load(JSON.parse(readFileSync(process.argv[3], 'utf8')))));
  process.exit(0);
}

const CONFIG = {
  tenants: num('TENANTS', 100_000),
  durationS: num('BENCH_DURATION_S', 10),
  warmupS: num('BENCH_WARMUP_S', 3),
  connections: num('BENCH_CONNECTIONS', 50),
};
const MODE = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
const log = (text) => console.error(`[tenant-scale ${new Date().toISOString().slice(11, 19)}] ${text}`);
const work = mkdtempSync(join(tmpdir(), 'agw-tenant-scale-'));
process.on('exit', () => {
  killAllChildren();
  rmSync(work, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

const secrets = {
  JWT_SECRET: randomBytes(48).toString('base64'),
  ADMIN_API_KEY: randomBytes(32).toString('hex'),
  ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};
const dataDir = join(work, 'data');
mkdirSync(dataDir);

/** The database as another program sees it: DATABASE_URL, or the running service's embedded one over its port. */
function databaseUrl() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const { host, port, password } = JSON.parse(readFileSync(join(dataDir, 'embedded-postgres.json'), 'utf8'));
  return `postgres://postgres:${encodeURIComponent(password)}@${host}:${port}/postgres`;
}

/** TENANTS tenants, tokens and actions in one transaction; returns the ids and the milliseconds it took. */
async function bulkImport(count) {
  const client = new pg.Client(databaseUrl());
  await client.connect();
  const tenants = [];
  const started = performance.now();
  const schema = JSON.stringify({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
  try {
    await client.query('BEGIN');
    for (let from = 0; from < count; from += 1_000) {
      const batch = Array.from({ length: Math.min(1_000, count - from) }, (_, index) => ({
        tenant: randomUUID(),
        token: randomUUID(),
        action: randomUUID(),
        hash: randomBytes(32).toString('hex'),
        name: `imported ${from + index}`,
      }));
      const column = (key) => batch.map((row) => row[key]);
      await client.query(
        `INSERT INTO tenants (id, name, status, created_at, updated_at) SELECT unnest($1::uuid[]), unnest($2::text[]), 'active', now(), now()`,
        [column('tenant'), column('name')],
      );
      await client.query(
        `INSERT INTO api_tokens (id, tenant_id, name, prefix, token_hash, created_at) SELECT unnest($1::uuid[]), unnest($2::uuid[]), 'imported', 'agw_imp', unnest($3::text[]), now()`,
        [column('token'), column('tenant'), column('hash')],
      );
      await client.query(
        `INSERT INTO actions (id, tenant_id, name, description, json_schema, webhook_url, created_at, updated_at) ` +
          `SELECT unnest($1::uuid[]), unnest($2::uuid[]), $3, 'The weather in a city', $4::json, 'http://127.0.0.1:9/weather', now(), now()`,
        [column('action'), column('tenant'), ACTION, schema],
      );
      tenants.push(...batch.map(({ tenant, token }) => ({ tenant, token })));
    }
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
  return { tenants, ms: round(performance.now() - started, 0) };
}

/** Bearer tokens as the token exchange signs them, one per tenant, written to a file for the load generator. */
function bearerTokens(tenants, name = 'tokens.json') {
  const file = join(work, name);
  const tokens = tenants.map(({ tenant, token }) =>
    jwt.sign({ sub: token, tenant_id: tenant, jti: randomUUID() }, secrets.JWT_SECRET, { algorithm: 'HS256', issuer: 'action-gateway', audience: 'action-gateway', expiresIn: 3600 }),
  );
  writeFileSync(file, JSON.stringify(tokens));
  return file;
}

/** The load generator's process: `order` hot (the first token), spread (random) or turn (each once, in order). */
async function load(job) {
  const tokens = JSON.parse(readFileSync(job.tokens, 'utf8'));
  let next = 0;
  const pick = { hot: () => tokens[0], spread: () => tokens[Math.floor(Math.random() * tokens.length)], turn: () => tokens[next++ % tokens.length] }[job.order];
  const run = (options) =>
    new Promise((resolve, reject) => {
      const latencies = [];
      const instance = autocannon(
        {
          url: job.url + PATH,
          connections: job.connections,
          pipelining: 1,
          timeout: 30,
          requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${pick()}` } }) }],
          ...options,
        },
        (error, result) => (error ? reject(error) : resolve({ result, latencies })),
      );
      instance.on('response', (_client, status, _bytes, ms) => {
        if (status === 200) latencies.push(ms);
      });
    });
  if (job.order !== 'turn' && job.warmupS > 0) await run({ duration: job.warmupS });
  const { result, latencies } = await run(job.order === 'turn' ? { amount: tokens.length } : { duration: job.durationS });
  latencies.sort((a, b) => a - b);
  return {
    requests: result.requests.total,
    ok: result['2xx'],
    failures: result.non2xx + result.errors,
    status_codes: result.statusCodeStats,
    duration_s: result.duration,
    rps: round(result['2xx'] / result.duration, 0),
    p50_ms: round(percentile(latencies, 0.5), 2),
    p99_ms: round(percentile(latencies, 0.99), 2),
    max_ms: round(latencies[latencies.length - 1], 2),
  };
}

async function measure(url, tokens, order, pid) {
  const jobFile = join(work, `job-${order}.json`);
  writeFileSync(jobFile, JSON.stringify({ url, tokens, order, connections: CONFIG.connections, durationS: CONFIG.durationS, warmupS: CONFIG.warmupS }));
  const rss = pid ? sampleRss(pid) : undefined;
  const result = await runNodeJson([join(ROOT, 'bench/tenant-scale.mjs'), 'load', jobFile], { cpu: 1, timeoutMs: 30 * 60_000, name: `the load generator (${order})` });
  if (rss) result.max_rss_mb = rss.stop();
  log(`${order}: ${result.rps} rps, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms, ${result.failures} failures${rss ? `, max RSS ${result.max_rss_mb} MB` : ''}`);
  return result;
}

async function main() {
  log(`${MODE}, ${CONFIG.tenants} tenants, ${CONFIG.connections} connections, ${CONFIG.durationS} s runs`);
  const port = await freePort();
  // The heap limit production runs with (deploy/k8s/configmap.yaml), so that memory is measured as it would be there.
  const service = await startService({ port, dataDir, secrets, nodeArgs: ['--max-old-space-size=256', ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)] });
  const results = { mode: MODE, config: CONFIG, machine: machineInfo(), source: sourceVersion(), service: {}, baseline: {} };
  try {
    results.service.idle_rss_mb = rssMb(service.child.pid);
    log('importing');
    const imported = await bulkImport(CONFIG.tenants);
    results.import_ms = imported.ms;
    log(`imported in ${imported.ms} ms`);
    const tokens = bearerTokens(imported.tenants);
    // Right after the import, with nothing vacuumed or analyzed: spread first, then hot, then every tenant in turn.
    results.service.spread = await measure(service.url, tokens, 'spread', service.child.pid);
    results.service.hot = await measure(service.url, tokens, 'hot', service.child.pid);
    results.service.turn = await measure(service.url, tokens, 'turn', service.child.pid);
    results.service.rss_after_all_mb = rssMb(service.child.pid);
    // Spread again, once the import has settled (autovacuum's analyze) and the service is warm, as the floor is.
    results.service.spread_later = await measure(service.url, tokens, 'spread', service.child.pid);
  } finally {
    await stopChild(service.child);
  }
  // The floor: the bare baseline, same database, same load (on the embedded one it opens DATA_DIR itself).
  const baseline = await startBaseline({ port, dataDir, secrets, nodeArgs: [] });
  try {
    const tokens = join(work, 'tokens.json');
    if (MODE === 'postgresql') {
      // The floor of "right after the import" too: the baseline's reads right after an import of its own (another
      // TENANTS tenants), while the database digests it (autovacuum's analyze, the checkpoint), as the service's were.
      log('importing again, for the baseline');
      const again = await bulkImport(CONFIG.tenants);
      results.baseline.spread_after_import = await measure(baseline.url, bearerTokens(again.tenants, 'tokens-again.json'), 'spread');
    }
    results.baseline.spread = await measure(baseline.url, tokens, 'spread');
    results.baseline.hot = await measure(baseline.url, tokens, 'hot');
  } finally {
    await stopChild(baseline.child);
  }
  results.ratios = {
    spread_to_hot: round(results.service.spread.rps / results.service.hot.rps, 2),
    spread_later_to_hot: round(results.service.spread_later.rps / results.service.hot.rps, 2),
    baseline_spread_to_hot: round(results.baseline.spread.rps / results.baseline.hot.rps, 2),
    spread_to_baseline_spread: round(results.service.spread.rps / results.baseline.spread.rps, 2),
    hot_to_baseline_hot: round(results.service.hot.rps / results.baseline.hot.rps, 2),
    // The tail against the floor's in the same state: right after an import, and once settled.
    ...(results.baseline.spread_after_import ? { spread_p99_to_floor_after_import: round(results.service.spread.p99_ms / results.baseline.spread_after_import.p99_ms, 2) } : {}),
    spread_later_p99_to_floor: round(results.service.spread_later.p99_ms / results.baseline.spread.p99_ms, 2),
  };
  const out = join(ROOT, 'bench/results', `tenant-scale-${MODE}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  const row = (name, r) => `| ${name} | ${r.rps} | ${r.p50_ms} / ${r.p99_ms} / ${r.max_ms} | ${r.failures} | ${r.max_rss_mb ?? ''} |`;
  console.log(`\n${MODE}: ${CONFIG.tenants} tenants, import ${results.import_ms} ms (one transaction)\n`);
  console.log('| load | rps | p50 / p99 / max ms | failures | max RSS MB |\n|---|---|---|---|---|');
  for (const [name, r] of [
    ['service: spread, right after the import', results.service.spread],
    ['service: hot (one tenant)', results.service.hot],
    ['service: every tenant in turn', results.service.turn],
    ['service: spread, after that', results.service.spread_later],
    ...(results.baseline.spread_after_import ? [['bare baseline: spread, right after its own import', results.baseline.spread_after_import]] : []),
    ['bare baseline: spread', results.baseline.spread],
    ['bare baseline: hot', results.baseline.hot],
  ]) console.log(row(name, r));
  console.log(`\nRSS after every tenant was read: ${results.service.rss_after_all_mb} MB (idle before the import: ${results.service.idle_rss_mb} MB)`);
  console.log(`ratios: ${JSON.stringify(results.ratios)}\nresults: ${out}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
