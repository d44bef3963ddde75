// Issue 29: the delivery log at scale. `node bench/log-scale.mjs` (after `npm run build`), on the embedded database
// or on DATABASE_URL (an empty database), in one run:
//   seed      EXECUTIONS executions written straight into the log over DAYS days across TENANTS tenants (10
//             actions each), skewed: tenant 0 holds half, all on its first action, which never failed (the
//             issue's "Failed filter on an action with 1.5M executions and no failures"); the others fail 2 %.
//             With their rollups (hourly for 48 hours, daily), and payloads (~1 KB) for the last PAYLOAD_DAYS days.
//   queries   p50/p99 over HTTP, one request at a time (SAMPLES each), of every list, filter, lookup and stats
//             query: newest page, status=failed (no failures), a since/until window, page 20 of a cursor walk,
//             the tenant-wide list and its failed filter, a lookup by id (with payload), stats tenant-wide and of
//             an action
//   retention a run of the upkeep's retention (the code the service runs, dist/src/executions/log-partitions.repository.js)
//             dropping the partitions past EXECUTION_RETENTION_DAYS (DAYS - 2), while a neighbour tenant runs
//             executions: its p99 during the run against idle
//   delete    DELETE of tenant 0's action (half the log), timed; its history is purged in the background
//   disk      bytes per million executions, with and without payloads (pg_total_relation_size)
//   execute   executions/s and added latency with payload logging on and off (autocannon, BENCH_CONNECTIONS)
//   database  beside each query's time over HTTP, the time the database takes for the service's own statement
//             (EXPLAIN ANALYZE of the SQL the repository sends, a prepared statement as one, SAMPLES times), and one plan of each
//   cpu       the executions' CPU per execution: the service's process and, on a PostgreSQL server on this machine,
//             its backends for the database (on a shared machine a fairer figure than executions/s)
// Settings (environment): EXECUTIONS (20,000,000 on PostgreSQL, 2,000,000 embedded), TENANTS (1000), DAYS (30),
// PAYLOAD_DAYS (7), SAMPLES (200), BENCH_DURATION_S (10), BENCH_CONNECTIONS (20), EXECUTE_PAIRS (3), EXECUTE_RATE
// (executions/s of the execute part; 0: as many as the service takes), DATABASE_URL, BENCH_NODE_ARGS (extra node
// options for the service, e.g. `--trace-gc`; with BENCH_OUTPUT_DIR its output is kept),
// QUERY_ORDER (interleaved: the queries' samples in turn; blocks: each query's samples together),
// QUERIES (';'-separated parts of query names: only the queries whose name holds one, e.g. `stats;limit=100`),
// PARTS (comma list of queries, execute, retention, delete, and database: the database's times alone; all but
// database by default), REUSE (1: on PostgreSQL, a database a
// run seeded already is measured again without seeding; its secrets and tenants are kept in table log_scale_seed.
// The retention part then has nothing left to drop: the service's upkeep dropped it at the first run's start).
// Output: a table on stderr, JSON on stdout and in bench/results/log-scale-<mode>-<timestamp>.json.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { Pool } from 'undici';
import { cpuMs, databaseCpu, freePort, killAllChildren, machineInfo, percentile, ROOT, round, sourceVersion, stopChild } from './lib/common.mjs';
import { GATEWAY, startService } from './lib/service.mjs';

const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const MODE = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
const CONFIG = {
  executions: num('EXECUTIONS', MODE === 'postgresql' ? 20_000_000 : 2_000_000),
  tenants: num('TENANTS', 1_000),
  actionsPerTenant: 10,
  days: num('DAYS', 30),
  payloadDays: num('PAYLOAD_DAYS', 7),
  samples: num('SAMPLES', 200),
  durationS: num('BENCH_DURATION_S', 10),
  connections: num('BENCH_CONNECTIONS', 20),
  executePairs: num('EXECUTE_PAIRS', 3),
  executeRate: num('EXECUTE_RATE', 0),
  parts: (process.env.PARTS ?? 'queries,execute,retention,delete').split(',').map((part) => part.trim()),
  reuse: process.env.REUSE === '1' && MODE === 'postgresql',
  queries: (process.env.QUERIES ?? '').split(';').map((part) => part.trim()).filter(Boolean),
  queryOrder: process.env.QUERY_ORDER === 'blocks' ? 'blocks' : 'interleaved',
};
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const RETENTION_DAYS = CONFIG.days - 2;
/** Ids the service could have made (UUID v7), to look up: a database seeded before the seed made them has a few. */
const V7 = `substr(id::text, 15, 1) = '7'`;
const DAY_MS = 86_400_000;
const log = (text) => console.error(`[log-scale ${new Date().toISOString().slice(11, 19)}] ${text}`);
const work = mkdtempSync(join(tmpdir(), 'agw-log-scale-'));
process.on('exit', () => {
  killAllChildren();
  rmSync(work, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
/** When the service was spawned (performance.now()), for the slowest samples' times. */
let serviceStartedAt = 0;
let secrets = { JWT_SECRET: randomBytes(48).toString('base64'), ADMIN_API_KEY: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };
/** A seeded database's secrets and tenants (REUSE), or undefined. */
async function seeded() {
  if (!CONFIG.reuse) return undefined;
  return withClient(async (client) => {
    const [{ exists }] = (await client.query(`SELECT to_regclass('log_scale_seed') IS NOT NULL AS exists`)).rows;
    return exists ? (await client.query(`SELECT secrets, tenants, seed_ms FROM log_scale_seed`)).rows[0] : undefined;
  });
}
const dataDir = join(work, 'data');
mkdirSync(dataDir);

function databaseUrl() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const { host, port, password } = JSON.parse(readFileSync(join(dataDir, 'embedded-postgres.json'), 'utf8'));
  return `postgres://postgres:${encodeURIComponent(password)}@${host}:${port}/postgres`;
}

async function withClient(work) {
  const client = new pg.Client({ connectionString: databaseUrl(), statement_timeout: 0 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A receiver answering every call at once: the executions' webhook. */
async function startReceiver() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok","error":""}'));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/hook` };
}

/** Tenants, tokens, keys (through the admin API for the two that execute) and actions; the log itself in SQL. */
async function seed(service, receiverUrl) {
  const tenants = Array.from({ length: CONFIG.tenants }, () => ({ id: randomUUID(), token: randomUUID(), actions: Array.from({ length: CONFIG.actionsPerTenant }, () => randomUUID()) }));
  const started = performance.now();
  await withClient(async (client) => {
    // A fresh database: the first partition (the log before partitioning) is empty; the log is laid out by day, as
    // a deployment that has run for DAYS days has it.
    const [{ n }] = (await client.query(`SELECT count(*)::int AS n FROM executions_legacy`)).rows;
    if (n === 0) {
      await client.query(`ALTER TABLE executions DETACH PARTITION executions_legacy`);
      await client.query(`DROP TABLE executions_legacy`);
    }
    for (const table of ['executions', 'execution_payloads', 'execution_stats_hourly', 'execution_stats_daily']) {
      await client.query(`
        DO $$
        DECLARE day timestamptz; name text;
        BEGIN
          FOR back IN -7..${CONFIG.days + 1} LOOP
            day := date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - back * interval '1 day';
            name := '${table}_p' || to_char(day AT TIME ZONE 'UTC', 'YYYYMMDD');
            CONTINUE WHEN EXISTS (SELECT 1 FROM pg_class WHERE relname = name);
            EXECUTE format('CREATE TABLE %I (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name);
            EXECUTE format('ALTER TABLE ${table} ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, day, day + interval '1 day');
          END LOOP;
        END $$`);
    }
    const ids = (key) => tenants.map((tenant) => tenant[key]);
    await client.query(`INSERT INTO tenants (id, name, status, created_at, updated_at) SELECT unnest($1::uuid[]), 'bench', 'active', now(), now()`, [ids('id')]);
    await client.query(
      `INSERT INTO api_tokens (id, tenant_id, name, prefix, token_hash, created_at) SELECT unnest($1::uuid[]), unnest($2::uuid[]), 'bench', 'agw_b', md5(random()::text) || md5(random()::text), now()`,
      [ids('token'), ids('id')],
    );
    const actionIds = tenants.flatMap((tenant) => tenant.actions);
    const actionTenants = tenants.flatMap((tenant) => tenant.actions.map(() => tenant.id));
    const actionNames = tenants.flatMap((tenant) => tenant.actions.map((_, index) => `action_${index}`));
    await client.query(
      `INSERT INTO actions (id, tenant_id, name, description, json_schema, webhook_url, created_at, updated_at)
       SELECT unnest($1::uuid[]), unnest($2::uuid[]), unnest($3::text[]), 'bench', '{"type":"object"}', $4, now(), now()`,
      [actionIds, actionTenants, actionNames, receiverUrl],
    );
    // Executions n = 0 .. N-1, newest first, evenly over DAYS days: even n are tenant 0's action 0 (never failed);
    // odd n spread over the other tenants' actions, 2 % failed. Ids are UUID v7 of their time, as the service makes
    // them (IdGenerator), which a lookup by id uses.
    const chunk = 1_000_000;
    for (let from = 0; from < CONFIG.executions; from += chunk) {
      const to = Math.min(CONFIG.executions, from + chunk);
      await client.query(
        `INSERT INTO executions (id, tenant_id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, created_at, payload)
         SELECT (lpad(to_hex(floor(extract(epoch FROM c.t) * 1000)::bigint), 12, '0') || '7' || substr(c.h, 1, 3) || '8' || substr(c.h, 4, 15))::uuid,
                CASE WHEN n % 2 = 0 THEN $1::uuid ELSE ($2::uuid[])[1 + ((n / 2) % ($4 - 1))] END,
                CASE WHEN n % 2 = 0 THEN $3::uuid ELSE ($5::uuid[])[1 + ((n / 2) % (($4 - 1) * ${CONFIG.actionsPerTenant}))] END,
                'action_' || CASE WHEN n % 2 = 0 THEN 0 ELSE ((n / 2) % (($4 - 1) * ${CONFIG.actionsPerTenant})) % ${CONFIG.actionsPerTenant} END,
                CASE WHEN n % 2 = 1 AND n % 97 = 1 THEN 'failed' ELSE 'succeeded' END, 200, 'Sunny, 21 °C', '',
                20 + (n % 180), 1, '[{"attempt":1,"started_at":"2026-01-01T00:00:00.000Z","duration_ms":20,"http_status":200,"error":""}]',
                c.t,
                CASE WHEN (n::float8 / $6) * $7 < $8 THEN 'kept' ELSE 'none' END
         FROM generate_series($9::bigint, $10::bigint - 1) AS n,
              LATERAL (SELECT now() - (n::float8 / $6) * ($7 * interval '1 day') AS t, md5(n::text || random()::text) AS h) AS c`,
        [tenants[0].id, tenants.slice(1).map((tenant) => tenant.id), tenants[0].actions[0], CONFIG.tenants, tenants.slice(1).flatMap((tenant) => tenant.actions), CONFIG.executions, CONFIG.days, CONFIG.payloadDays, from, to],
      );
      log(`seeded ${to} executions`);
    }
    await client.query(
      `INSERT INTO execution_payloads (execution_id, tenant_id, created_at, request, attempts)
       SELECT id, tenant_id, created_at, json_build_object('body', '{"action_name":"' || action_name || '","parameters":{"city":"Oslo","days":3},"timestamp":1795000000,"signature":"' || md5(id::text) || md5(id::text) || '"}',
         'body_encoding', 'utf8', 'body_bytes', 150, 'body_truncated', false, 'headers', json_build_object('content-type', 'application/json', 'webhook-id', id)),
         json_build_array(json_build_object('attempt', 1, 'request_headers', json_build_object('webhook-id', id), 'response', json_build_object('status', 200, 'headers', json_build_object('content-type', 'application/json'), 'body', repeat('{"result":"Sunny, 21 °C","error":""}', 20), 'body_encoding', 'utf8', 'body_bytes', 700, 'body_truncated', false)))
       FROM executions WHERE payload = 'kept'`,
    );
    log('seeded payloads');
    // The rollups, as the service keeps them: per action and per tenant total, hourly for 48 hours, daily.
    for (const [table, unit, since] of [['execution_stats_hourly', 'hour', '49 hours'], ['execution_stats_daily', 'day', `${CONFIG.days + 1} days`]]) {
      await client.query(
        `INSERT INTO ${table} (tenant_id, action_id, period_start, executions, succeeded, failed, duration_histogram)
         SELECT tenant_id, COALESCE(action_id, '00000000-0000-0000-0000-000000000000'), date_trunc('${unit}', created_at), count(*), count(*) FILTER (WHERE status = 'succeeded'),
                count(*) FILTER (WHERE status = 'failed'), array_fill(0, ARRAY[17]) || ARRAY[count(*)::int] || array_fill(0, ARRAY[29])
         FROM executions WHERE created_at >= now() - interval '${since}'
         GROUP BY GROUPING SETS ((tenant_id, action_id, date_trunc('${unit}', created_at)), (tenant_id, date_trunc('${unit}', created_at)))`,
      );
    }
    await client.query('ANALYZE');
    const seedMs = round(performance.now() - started, 0);
    await client.query(`CREATE TABLE log_scale_seed AS SELECT $1::jsonb AS secrets, $2::jsonb AS tenants, $3::int AS seed_ms`, [JSON.stringify(secrets), JSON.stringify(tenants), seedMs]);
  });
  return { tenants, seedMs: round(performance.now() - started, 0) };
}

function bearer(tenant) {
  return jwt.sign({ sub: tenant.token, tenant_id: tenant.id, jti: randomUUID() }, secrets.JWT_SECRET, { algorithm: 'HS256', issuer: 'action-gateway', audience: 'action-gateway', expiresIn: 3600 });
}

/**
 * `SAMPLES` sequential GETs of each case's path (a function of the sample number), after 5 not counted, one
 * request at a time: p50/p99 of the 200s, and the three slowest with their sample numbers (0 is the first counted),
 * to tell a one-off from a pattern, and when each started after the service was spawned (the clock of its
 * `--trace-gc` lines, BENCH_NODE_ARGS). QUERY_ORDER `interleaved` (the default) takes the cases in turn, sample by
 * sample, so that a one-off stall of the service (its first full garbage collection after start) falls on one
 * sample of a few cases instead of on consecutive samples of whichever case ran then; `blocks` runs each case's
 * samples one after another (as before 2026-11-27 20:40 UTC).
 */
async function latencies(url, cases) {
  const runs = cases.map(([name, token, path]) => ({ name, token, path, pool: new Pool(url, { connections: 1 }), times: [] }));
  const sample = async (run, i) => {
    const started = performance.now();
    const response = await run.pool.request({ method: 'GET', path: run.path(i), headers: { authorization: `Bearer ${run.token}` } });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`GET ${run.path(i)}: ${response.statusCode} ${text}`);
    if (i >= 5) run.times.push({ ms: performance.now() - started, at: started });
  };
  try {
    if (CONFIG.queryOrder === 'blocks') {
      for (const run of runs) for (let i = 0; i < CONFIG.samples + 5; i++) await sample(run, i);
    } else {
      for (let i = 0; i < CONFIG.samples + 5; i++) for (const run of runs) await sample(run, i);
    }
  } finally {
    await Promise.all(runs.map((run) => run.pool.close()));
  }
  return Object.fromEntries(
    runs.map(({ name, times }) => {
      const slowest = times
        .map(({ ms, at }, index) => ({ sample: index, ms: round(ms, 2), since_service_start_ms: round(at - serviceStartedAt, 0) }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 3);
      const sorted = times.map(({ ms }) => ms).sort((a, b) => a - b);
      return [name, { p50_ms: round(percentile(sorted, 0.5), 2), p99_ms: round(percentile(sorted, 0.99), 2), slowest }];
    }),
  );
}

async function getJson(url, token, path) {
  const pool = new Pool(url, { connections: 1 });
  try {
    const response = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } });
    return JSON.parse(await response.body.text());
  } finally {
    await pool.close();
  }
}

async function queries(service, big, small) {
  const bigToken = bearer(big);
  const smallToken = bearer(small);
  const mid = new Date(Date.now() - (CONFIG.days / 2) * DAY_MS);
  const window = `since=${new Date(mid.getTime() - 3_600_000).toISOString()}&until=${mid.toISOString()}`;
  // A cursor 20 pages (2,000 executions) deep, and ids to look up.
  let cursor = null;
  for (let page = 0; page < 20; page++) cursor = (await getJson(service.url, bigToken, `${GATEWAY}/actions/action_0/executions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).next_cursor;
  const ids = await withClient(async (client) =>
    (await client.query(`SELECT id FROM executions WHERE action_id = $1 AND created_at > now() - interval '${CONFIG.payloadDays} days' AND ${V7} LIMIT 500`, [big.actions[0]])).rows.map((row) => row.id),
  );
  const cases = {
    'action list, newest 20 (big action)': [bigToken, () => `${GATEWAY}/actions/action_0/executions`],
    'action list, ?limit=100': [bigToken, () => `${GATEWAY}/actions/action_0/executions?limit=100`],
    'action list, status=failed (big action, none failed)': [bigToken, () => `${GATEWAY}/actions/action_0/executions?status=failed`],
    'action list, since/until an hour 15 days back': [bigToken, () => `${GATEWAY}/actions/action_0/executions?${window}`],
    'action list, page 21 (cursor)': [bigToken, () => `${GATEWAY}/actions/action_0/executions?limit=100&cursor=${encodeURIComponent(cursor)}`],
    'tenant-wide list (big tenant)': [bigToken, () => `${GATEWAY}/executions`],
    'tenant-wide list, status=failed (big tenant, none failed)': [bigToken, () => `${GATEWAY}/executions?status=failed`],
    'tenant-wide list, status=failed (small tenant)': [smallToken, () => `${GATEWAY}/executions?status=failed`],
    'tenant-wide list, action=action_3 (small tenant)': [smallToken, () => `${GATEWAY}/executions?action=action_3`],
    'lookup by id, with payload (big action)': [bigToken, (i) => `${GATEWAY}/actions/action_0/executions/${ids[i % ids.length]}`],
    'stats, tenant-wide (big tenant)': [bigToken, () => `${GATEWAY}/stats`],
    'stats, one action (big action)': [bigToken, () => `${GATEWAY}/stats?action=action_0`],
  };
  const chosen = Object.entries(cases)
    .filter(([name]) => CONFIG.queries.length === 0 || CONFIG.queries.some((part) => name.includes(part)))
    .map(([name, [token, path]]) => [name, token, path]);
  const results = await latencies(service.url, chosen);
  for (const [name, { p50_ms, p99_ms }] of Object.entries(results)) log(`${name}: p50 ${p50_ms} ms, p99 ${p99_ms} ms`);
  return results;
}

/**
 * The database's own time for each query, apart from HTTP and the service: the statements the service's
 * repository sends (captured from dist/, with the same parameters) run under EXPLAIN ANALYZE, SAMPLES times each;
 * p50/p99 of planning + execution, and one plan of each. A case the service answers with several statements
 * (a lookup: the execution, then its payload; the stats: the hourly and daily series, one statement, and, tenant-wide, the
 * per-action sums, which the service runs concurrently) counts their sum.
 */
async function databaseTimes(big, small) {
  const { ExecutionLogPools } = await import(join(ROOT, 'dist/src/executions/execution-log-pools.js'));
  const { ExecutionReadsRepository } = await import(join(ROOT, 'dist/src/executions/execution-reads.repository.js'));
  const { ExecutionRollupsRepository } = await import(join(ROOT, 'dist/src/executions/execution-rollups.repository.js'));
  const { DatabaseSettings } = await import(join(ROOT, 'dist/src/database/database-settings.js'));
  const now = Date.now();
  const keptSince = new Date(now - RETENTION_DAYS * DAY_MS);
  const mid = new Date(now - (CONFIG.days / 2) * DAY_MS);
  const bigAction = big.actions[0];
  return withClient(async (client) => {
    // The repository's statements run for real (so a lookup takes the path a found execution takes) and are kept.
    let captured = [];
    const pool = {
      query: async (statement, parameters) => {
        captured.push({ text: statement.text, name: statement.name, parameters });
        return (await client.query(statement.text, parameters)).rows;
      },
    };
    // As the embedded database's settings, so that the log opens no pool of its own: nothing is written.
    const pools = new ExecutionLogPools(new DatabaseSettings(databaseUrl(), true, 1, 600_000), pool, undefined);
    const [reads, rollups] = [new ExecutionReadsRepository(pool, pools), new ExecutionRollupsRepository(pools)];
    const repository = {
      list: (...args) => reads.list(...args),
      find: (...args) => reads.find(...args),
      findPayload: (...args) => reads.findPayload(...args),
      stats: (...args) => rollups.stats(...args),
      statsPerAction: (...args) => rollups.statsPerAction(...args),
    };
    const statements = async (call) => {
      captured = [];
      await call(repository);
      return captured;
    };
    const [after] = (
      await client.query(`SELECT created_at::text AS "createdAt", id FROM executions WHERE action_id = $1 AND tenant_id = $2 AND created_at >= $3 ORDER BY created_at DESC, id DESC OFFSET 1999 LIMIT 1`, [bigAction, big.id, keptSince])
    ).rows;
    const ids = (await client.query(`SELECT id, created_at FROM executions WHERE action_id = $1 AND created_at > now() - interval '${CONFIG.payloadDays} days' AND ${V7} LIMIT 200`, [bigAction])).rows;
    const cases = {
      'action list, newest 20 (big action)': () => statements((r) => r.list(big.id, { actionId: bigAction }, keptSince, 21)),
      'action list, ?limit=100': () => statements((r) => r.list(big.id, { actionId: bigAction }, keptSince, 101)),
      'action list, status=failed (big action, none failed)': () => statements((r) => r.list(big.id, { actionId: bigAction, status: 'failed' }, keptSince, 21)),
      'action list, since/until an hour 15 days back': () => statements((r) => r.list(big.id, { actionId: bigAction, since: new Date(mid.getTime() - 3_600_000), until: mid }, keptSince, 21)),
      'action list, page 21 (cursor)': () => statements((r) => r.list(big.id, { actionId: bigAction, after }, keptSince, 101)),
      'tenant-wide list (big tenant)': () => statements((r) => r.list(big.id, {}, keptSince, 21)),
      'tenant-wide list, status=failed (big tenant, none failed)': () => statements((r) => r.list(big.id, { status: 'failed' }, keptSince, 21)),
      'tenant-wide list, status=failed (small tenant)': () => statements((r) => r.list(small.id, { status: 'failed' }, keptSince, 21)),
      'tenant-wide list, action=action_3 (small tenant)': () => statements((r) => r.list(small.id, { actionId: small.actions[3] }, keptSince, 21)),
      'lookup by id, with payload (big action)': (i) =>
        statements(async (r) => {
          await r.find(big.id, ids[i % ids.length].id, keptSince, bigAction);
          await r.findPayload(big.id, { id: ids[i % ids.length].id, createdAt: ids[i % ids.length].created_at }, new Date(0));
        }),
      'stats, tenant-wide (big tenant)': () =>
        statements(async (r) => {
          await r.stats(big.id, new Date(now - 48 * 3_600_000), new Date(now - RETENTION_DAYS * DAY_MS));
          await r.statsPerAction(big.id, new Date(now - 24 * 3_600_000));
        }),
      'stats, one action (big action)': () =>
        statements(async (r) => {
          await r.stats(big.id, new Date(now - 48 * 3_600_000), new Date(now - RETENTION_DAYS * DAY_MS), bigAction);
        }),
    };
    const results = {};
    for (const [name, make] of Object.entries(cases)) {
      const times = [];
      let plans;
      let lastPlans;
      for (let i = 0; i < CONFIG.samples + 5; i++) {
        let total = 0;
        const texts = [];
        for (const { text, name, parameters } of await make(i)) {
          const [on, ...statement] = await explained(client, text, name, parameters);
          const plan = (await on.query(...statement)).rows.map((row) => row['QUERY PLAN']);
          const time = (label) => Number(plan.find((line) => line.startsWith(label))?.slice(label.length).replace(' ms', '') ?? NaN);
          total += time('Planning Time: ') + time('Execution Time: ');
          texts.push(plan);
        }
        if (i >= 5) times.push(total);
        plans ??= texts;
        lastPlans = texts;
      }
      times.sort((a, b) => a - b);
      results[name] = { db_p50_ms: round(percentile(times, 0.5), 2), db_p99_ms: round(percentile(times, 0.99), 2), plans, last_plans: lastPlans };
      log(`${name}: database p50 ${results[name].db_p50_ms} ms, p99 ${results[name].db_p99_ms} ms`);
    }
    await client.lists?.end();
    return results;
  });
}

/**
 * The EXPLAIN ANALYZE of a statement as the service runs it: a statement the repository names (a list of the log,
 * prepared on the service's connections for the log's reads, whose plans are generic: `plan_cache_mode =
 * force_generic_plan`) is prepared once on such a connection here too and EXECUTEd there; EXPLAIN takes no bind
 * parameters, so an EXECUTE's are written as literals. Answers the client to run it on, and the statement.
 */
async function explained(client, text, name, parameters) {
  if (!name) return [client, `EXPLAIN (ANALYZE, BUFFERS) ${text}`, parameters];
  if (!client.lists) {
    client.lists = new pg.Client({ connectionString: databaseUrl(), statement_timeout: 0, options: '-c plan_cache_mode=force_generic_plan' });
    client.lists.prepared = new Set();
    await client.lists.connect();
  }
  const lists = client.lists;
  if (!lists.prepared.has(name)) {
    await lists.query(`PREPARE ${name} AS ${text}`);
    lists.prepared.add(name);
  }
  const literal = (value) =>
    value === null || value === undefined ? 'NULL' : typeof value === 'number' ? String(value) : lists.escapeLiteral(value instanceof Date ? value.toISOString() : String(value));
  return [lists, `EXPLAIN (ANALYZE, BUFFERS) EXECUTE ${name}(${parameters.map(literal).join(', ')})`];
}

/**
 * autocannon on one tenant's execute for `durationS`: executions/s, latency percentiles, and the CPU per execution of
 * the service's process and of the database's backends (on a PostgreSQL server on this machine).
 */
async function executeLoad(service, token, durationS, connections = CONFIG.connections, rate = 0) {
  const database = await databaseCpu(process.env.DATABASE_URL);
  const cpuBefore = cpuMs(service.child.pid);
  const result = await new Promise((resolve, reject) => {
    autocannon(
      { url: `${service.url}${GATEWAY}/actions/action_1/execute`, method: 'POST', connections, duration: durationS, ...(rate > 0 ? { overallRate: rate } : {}), headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{"parameters":{"city":"Oslo"}}' },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  const serviceMs = cpuMs(service.child.pid) - cpuBefore;
  const databaseMs = database.stop();
  const ok = result['2xx'];
  return {
    rps: round(ok / result.duration, 0),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    failures: result.non2xx + result.errors,
    service_cpu_us: ok ? round((serviceMs * 1000) / ok, 0) : null,
    database_cpu_us: ok && databaseMs !== null ? round((databaseMs * 1000) / ok, 0) : null,
    load_average: loadAverage(),
  };
}

async function retention(service, neighbour) {
  const token = bearer(neighbour);
  const idle = await executeLoad(service, token, CONFIG.durationS, 2);
  const { LogPartitionsRepository } = await import(join(ROOT, 'dist/src/executions/log-partitions.repository.js'));
  const { DatabaseSettings } = await import(join(ROOT, 'dist/src/database/database-settings.js'));
  const partitions = new LogPartitionsRepository(new DatabaseSettings(databaseUrl(), MODE === 'embedded', 1, 600_000));
  const cutoff = new Date(Date.now() - RETENTION_DAYS * DAY_MS);
  let runMs;
  let dropped = [];
  const during = executeLoad(service, token, CONFIG.durationS, 2);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const started = performance.now();
  await partitions.withConnection(async (session) => {
    for (const table of ['executions', 'execution_payloads', 'execution_stats_daily']) dropped.push(...(await partitions.dropBefore(table, cutoff, MODE === 'postgresql', session)));
  });
  runMs = round(performance.now() - started, 0);
  const loaded = await during;
  log(`retention: dropped ${dropped.length} partitions in ${runMs} ms; neighbour p99 idle ${idle.p99_ms} ms, during ${loaded.p99_ms} ms`);
  return { run_ms: runMs, dropped, neighbour_idle: idle, neighbour_during: loaded };
}

async function disk() {
  return withClient(async (client) => {
    const size = async (table) => Number((await client.query(`SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`, [table])).rows[0].bytes ?? 0);
    const [{ executions, kept }] = (await client.query(`SELECT count(*)::bigint AS executions, count(*) FILTER (WHERE payload = 'kept')::bigint AS kept FROM executions`)).rows;
    const logBytes = await size('executions');
    const payloadBytes = await size('execution_payloads');
    const perMillion = (bytes, count) => round((bytes / Number(count)) * 1_000_000 / 1_048_576, 0);
    return { executions: Number(executions), payloads: Number(kept), log_mb_per_million: perMillion(logBytes, executions), payload_mb_per_million: Number(kept) > 0 ? perMillion(payloadBytes, kept) : null };
  });
}

async function main() {
  const previous = await seeded();
  if (previous) secrets = previous.secrets;
  log(`${MODE}, ${CONFIG.executions} executions, ${CONFIG.tenants} tenants, parts ${CONFIG.parts.join(',')}${previous ? ' (reusing the seeded database)' : ''}, load average ${loadAverage()}`);
  const receiver = await startReceiver();
  const port = await freePort();
  serviceStartedAt = performance.now();
  const service = await startService({ port, dataDir, secrets, nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), env: { EXECUTION_RETENTION_DAYS: String(RETENTION_DAYS), EXECUTION_PAYLOAD_RETENTION_DAYS: String(Math.min(CONFIG.payloadDays, RETENTION_DAYS)) } });
  const results = { mode: MODE, config: CONFIG, load_average_at_start: loadAverage(), machine: machineInfo(), source: sourceVersion(), load_average: {} };
  const part = async (name, work) => {
    if (!CONFIG.parts.includes(name)) return;
    const before = loadAverage();
    const started = performance.now();
    await work();
    results.load_average[name] = { start: before, end: loadAverage(), seconds: round((performance.now() - started) / 1000, 0) };
  };
  try {
    let tenants;
    if (previous) {
      ({ tenants } = previous);
      results.seed_ms = previous.seed_ms;
      results.reused = true;
    } else {
      log('seeding');
      const before = loadAverage();
      const seed1 = await seed(service, receiver.url);
      tenants = seed1.tenants;
      results.seed_ms = seed1.seedMs;
      results.load_average.seed = { start: before, end: loadAverage(), seconds: round(seed1.seedMs / 1000, 0) };
      log(`seeded in ${seed1.seedMs} ms`);
    }
    // The two executing tenants need an HMAC key: through the admin API, as the service encrypts it.
    for (const tenant of [tenants[1], tenants[2]]) {
      const response = await fetch(`${service.url}/api/v1/admin/tenants/${tenant.id}/hmac-keys`, { method: 'POST', headers: { authorization: `Bearer ${secrets.ADMIN_API_KEY}` } });
      // A reused database's tenants have the keys earlier runs made, up to the 10 a tenant may have.
      if (response.status !== 201 && !(previous && response.status === 403)) throw new Error(`hmac key: ${response.status}`);
    }
    results.disk = await disk();
    log(`disk: ${JSON.stringify(results.disk)}`);
    await part('queries', async () => {
      results.queries = await queries(service, tenants[0], tenants[1]);
      results.database_times = await databaseTimes(tenants[0], tenants[1]);
    });
    // The database's time alone (also after the delete part: the big action's rows stay until the upkeep purges them).
    await part('database', async () => {
      results.database_times = await databaseTimes(tenants[0], tenants[1]);
    });
    await part('execute', async () => {
      // Executions/s with payload logging on (the default) and off, one tenant, the same action, alternating
      // EXECUTE_PAIRS times (on, off, on, off, ...) so that a change of the machine's load meanwhile falls on both;
      // the better of each, and the median CPU per execution of each. With EXECUTE_RATE, at that many
      // executions/s in both modes: CPU per execution then compares like with like (at a lower rate, a process's
      // fixed work, timers and collections, falls on fewer executions).
      const executor = bearer(tenants[2]);
      const setLogging = (on) =>
        fetch(`${service.url}${GATEWAY}/actions/action_1/log-settings`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${executor}` }, body: JSON.stringify({ payload_logging: on }) });
      await executeLoad(service, executor, 3);
      const runs = { on: [], off: [] };
      for (const on of Array.from({ length: CONFIG.executePairs * 2 }, (_, index) => index % 2 === 0)) {
        await setLogging(on);
        runs[on ? 'on' : 'off'].push(await executeLoad(service, executor, CONFIG.durationS, CONFIG.connections, CONFIG.executeRate));
      }
      await setLogging(true);
      const best = (list) => list.reduce((a, b) => (b.rps > a.rps ? b : a));
      const medianOf = (list, key) => list.map((run) => run[key]).sort((a, b) => a - b)[list.length >> 1];
      const summary = (list) => ({ ...best(list), service_cpu_us: medianOf(list, 'service_cpu_us'), database_cpu_us: medianOf(list, 'database_cpu_us'), runs: list });
      results.execute_payload_on = summary(runs.on);
      results.execute_payload_off = summary(runs.off);
      results.execute_on_to_off = round(results.execute_payload_on.rps / results.execute_payload_off.rps, 2);
      const cpu = (run) => run.service_cpu_us + (run.database_cpu_us ?? 0);
      results.execute_cpu_off_to_on = round(cpu(results.execute_payload_off) / cpu(results.execute_payload_on), 2);
      log(
        `execute: payload on ${results.execute_payload_on.rps}/s p99 ${results.execute_payload_on.p99_ms} ms, CPU ${results.execute_payload_on.service_cpu_us} + ${results.execute_payload_on.database_cpu_us} µs; ` +
          `off ${results.execute_payload_off.rps}/s p99 ${results.execute_payload_off.p99_ms} ms, CPU ${results.execute_payload_off.service_cpu_us} + ${results.execute_payload_off.database_cpu_us} µs`,
      );
    });
    await part('retention', async () => {
      results.retention = await retention(service, tenants[1]);
    });
    await part('delete', async () => {
      const [{ count }] = await withClient(async (client) => (await client.query(`SELECT count(*)::int AS count FROM executions WHERE action_id = $1`, [tenants[0].actions[0]])).rows);
      const started = performance.now();
      const deleted = await fetch(`${service.url}${GATEWAY}/actions/action_0`, { method: 'DELETE', headers: { authorization: `Bearer ${bearer(tenants[0])}` } });
      results.delete_big_action_ms = round(performance.now() - started, 1);
      results.delete_big_action_executions = count;
      if (deleted.status !== 204) throw new Error(`delete: ${deleted.status}`);
      log(`deleted an action with ${count} executions in ${results.delete_big_action_ms} ms`);
    });
  } finally {
    await stopChild(service.child);
    receiver.server.close();
  }
  results.load_average_at_end = loadAverage();
  const file = join(ROOT, 'bench/results', `log-scale-${MODE}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
  log(`written to ${file}`);
}

await main();
