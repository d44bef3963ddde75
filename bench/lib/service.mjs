// Starting the built service and the baseline, and the data the benchmark needs in the database.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { freePort, HOST, ROOT, spawnNode, thenStop, waitReady } from './common.mjs';

export const GATEWAY = '/api/v1/gateway';
export const ACTION_COUNT = 10;
export const actionName = (i) => `bench_action_${String(i).padStart(2, '0')}`;
export const EXECUTABLE = 'bench_execute';
export const EXECUTE_BODY = JSON.stringify({ parameters: { city: 'Oslo' } });

/**
 * The service: `node [BENCH_NODE_ARGS] dist/src/main.js` (or `<dist>/src/main.js`, another build) on CPU 0, with
 * `env` over the benchmark's settings; resolves once GET /readyz answers 200.
 */
export async function startService({ port, dataDir, secrets, nodeArgs, env: overrides = {}, dist = join(ROOT, 'dist') }) {
  const env = {
    ...process.env,
    NODE_ENV: 'development', // production refuses plain-http loopback webhooks, which the local receiver is
    HOST,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...secrets,
    // The limits would cut the measurement short; they are not what is measured.
    RATE_LIMIT_PER_HOUR: '1000000000',
    TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE: '100000000',
    OPERATOR_RATE_LIMIT_PER_MINUTE: '100000000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    ...overrides,
  };
  const spawnedAt = performance.now();
  const child = spawnNode([...nodeArgs, join(dist, 'src/main.js')], { cpu: 0, env, name: 'the service' });
  const readyMs = await waitReady(child, port, spawnedAt);
  return { child, readyMs, url: `http://${HOST}:${port}`, databaseUrl: env.DATABASE_URL };
}

/**
 * A bare baseline: `node [BENCH_BASELINE_NODE_ARGS] bench/baseline-server.mjs` on CPU 0, on the same database as
 * the service. `mode` 'query': the same queries as the service made before its read model; 'memory': the data
 * read once at start, no database while measured; 'nest': the same in a minimal NestJS application (the framework
 * floor).
 */
export async function startBaseline({ port, dataDir, secrets, nodeArgs, mode = 'query', env: overrides = {} }) {
  const env = { ...process.env, ...overrides, PORT: String(port), DATA_DIR: dataDir, JWT_SECRET: secrets.JWT_SECRET, ENCRYPTION_KEY: secrets.ENCRYPTION_KEY, BASELINE_MODE: mode };
  const spawnedAt = performance.now();
  const name = { memory: 'the no-database baseline', nest: 'the framework floor' }[mode] ?? 'the baseline';
  const child = spawnNode([...nodeArgs, join(ROOT, 'bench/baseline-server.mjs')], { cpu: 0, env, name });
  const readyMs = await waitReady(child, port, spawnedAt);
  return { child, readyMs, url: `http://${HOST}:${port}` };
}

/** One JSON call; returns { status, text, json }, throws when the status is not `expected` (if given). */
export async function call(url, method, path, { body, token, expected } = {}) {
  const pool = new Pool(url, { connections: 1 });
  try {
    const res = await pool.request({
      method,
      path,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const text = await res.body.text();
    if (expected !== undefined && res.statusCode !== expected) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return { status: res.statusCode, text, json: text ? JSON.parse(text) : undefined };
  } finally {
    await pool.close();
  }
}

/**
 * Through the admin API, once: a tenant, an API token, an HMAC key; a bearer token; ACTION_COUNT actions with a
 * small object schema and the executable action, all on the receiver. The data stay in DATA_DIR / the database.
 */
export async function bootstrap(url, adminKey, receiverUrl) {
  const admin = (path, body) => call(url, 'POST', `/api/v1/admin${path}`, { body, token: adminKey, expected: 201 }).then((r) => r.json);
  const { tenant } = await admin('/tenants', { name: 'bench' });
  const { api_token } = await admin(`/tenants/${tenant.id}/api-tokens`, { name: 'bench' });
  await admin(`/tenants/${tenant.id}/hmac-keys`);
  const { jwt_token } = (await call(url, 'POST', `${GATEWAY}/token/exchange`, { body: { api_token: api_token.token }, expected: 200 })).json;
  const schema = (properties) => ({ type: 'object', properties, required: Object.keys(properties) });
  for (let i = 0; i < ACTION_COUNT; i++) {
    const action = {
      name: actionName(i),
      description: `Benchmark action ${i}`,
      webhook_url: receiverUrl,
      json_schema: schema({ city: { type: 'string', maxLength: 100 }, days: { type: 'integer', minimum: 1, maximum: 14 } }),
    };
    await call(url, 'POST', `${GATEWAY}/actions`, { body: action, token: jwt_token, expected: 201 });
  }
  const executable = { name: EXECUTABLE, description: 'Current weather for a city', webhook_url: receiverUrl, json_schema: schema({ city: { type: 'string' } }) };
  await call(url, 'POST', `${GATEWAY}/actions`, { body: executable, token: jwt_token, expected: 201 });
  return { tenantId: tenant.id, apiToken: api_token.token, jwt: jwt_token };
}

/**
 * A new DATA_DIR (`prefix`) and, through a first start of the service (of `dist`, with `env`), its database and the
 * benchmark's data (bootstrap); resolves to { dataDir, session } once the service has stopped again.
 */
export async function prepareData({ prefix, secrets, receiverUrl, env, dist }) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const server = await startService({ port: await freePort(), dataDir, secrets, nodeArgs: [], env, dist });
  return thenStop(server, async () => ({ dataDir, session: await bootstrap(server.url, secrets.ADMIN_API_KEY, receiverUrl) }));
}
