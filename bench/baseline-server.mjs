// The bare baselines of the benchmark: `node bench/baseline-server.mjs`, configured by the environment
// (PORT, JWT_SECRET, ENCRYPTION_KEY, DATABASE_URL or DATA_DIR, DATABASE_POOL_SIZE, BASELINE_MODE). Plain
// node:http, no framework, only what the measured scenarios need, answering the same JSON as the service.
//
// BASELINE_MODE=memory, the no-database baseline: reads every action and API token once at start, closes the
// database, then answers the two reads from memory after the same bearer check (HS256 JWT, iss/aud, exp, the
// token's standing, its expiry against the clock):
//   GET  /api/v1/gateway/actions/{name}, GET /api/v1/gateway/actions, GET /readyz; anything else is 501.
//
// BASELINE_MODE=nest, the framework floor: the no-database baseline's memory and bearer check inside a minimal
// NestJS application on Fastify with the service's guard chain (the bearer guard, then @nestjs/throttler keyed by
// tenant), each answer's JSON made once at start (bench/lib/nest-floor.mjs):
//   GET  /api/v1/gateway/actions/{name}, GET /api/v1/gateway/actions, GET /readyz.
//
// BASELINE_MODE=relay, the bare relay: the no-database baseline's memory (and the tenants' decrypted HMAC keys),
// plus the one execution path, doing the least any gateway must: the bearer check, the action from memory, the
// parameters checked by the project's own compiled schema, the call signed with the project's own signer and
// POSTed with undici over keep-alive, the same execution INSERT (asynchronous commit on a PostgreSQL server; on
// the embedded database, the in-process connection the service uses), then the same answer:
//   POST /api/v1/gateway/actions/{name}/execute, GET /readyz; anything else is 501.
// With an Idempotency-Key header, the key is claimed first (one prepared INSERT ... ON CONFLICT DO NOTHING into
// idempotency_keys on the same connection, 409 when taken): the floor of what a key costs (bench/idempotency.mjs).
// It is the floor of the added latency on the machine at hand: what one POST and one INSERT cost with the
// processes pinned as the benchmark pins them, before any framework.
//
// BASELINE_MODE=query (the default), the same-query baseline, doing the same work as the service did before it
// kept its reads in memory, one round trip per request:
//   GET  /api/v1/gateway/actions/{name}  bearer JWT (HS256, iss/aud action-gateway, exp), the API token's
//                                         standing (cached 30 s like the service's PrincipalCache), one SELECT
//   GET  /api/v1/gateway/actions          the same, the tenant's actions ordered by name
//   POST /api/v1/gateway/token/exchange   SHA-256 lookup of the API token joined to its tenant, the same
//                                         checks, the last_used_at UPDATE, a JWT with the same claims
//   POST /api/v1/gateway/actions          the write path: the same checks in the same order (the schema compiled by
//                                         the project's own JsonSchemaCompiler), the registration test signed with
//                                         the project's own signer and the tenant's decrypted HMAC keys, POSTed with
//                                         undici over keep-alive, then the same locked insert transaction
//   DELETE /api/v1/gateway/actions/{name} the same DELETE
//   GET  /readyz                          200 once the database answers
// The SQL is the text TypeORM sends for the service's repositories (checked by logging TypeORM's queries),
// through the same driver (pg) with the same pool size. Without DATABASE_URL it opens the embedded database in DATA_DIR itself, with the project's own
// EmbeddedPostgres (PGlite in this process, served on a loopback socket) and one connection, as the service does;
// so it must not run while the service holds that directory.
import { createDecipheriv, createHash, createSecretKey, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { Agent, request } from 'undici';
import { HOST, ROOT } from './lib/common.mjs';

const env = process.env;
const RELAY = env.BASELINE_MODE === 'relay';
const NEST = env.BASELINE_MODE === 'nest';
const MEMORY = env.BASELINE_MODE === 'memory' || RELAY || NEST;
const ISSUER = 'action-gateway';
const AUDIENCE = 'action-gateway';
const LIFETIME_S = 86_400;
const PRINCIPAL_TTL_MS = 30_000;
const PREFIX = '/api/v1/gateway';
// A KeyObject, as the service uses: jsonwebtoken would otherwise try to read a string secret as a PEM key.
const secret = createSecretKey(Buffer.from(env.JWT_SECRET, 'utf8'));
const encryptionKey = Buffer.from(env.ENCRYPTION_KEY, 'base64');
const ACTIONS_PER_TENANT = 100;
const project = createRequire(import.meta.url);
const { JsonSchemaCompiler } = project(join(ROOT, 'dist/src/actions/json-schema-compiler.js'));
const { SchemaSandbox } = project(join(ROOT, 'dist/src/actions/schema/schema-sandbox.js'));
const { buildWebhookBody, standardWebhookHeaders } = project(join(ROOT, 'dist/src/webhooks/webhook-signer.js'));
const { runCheck } = project(join(ROOT, 'dist/src/actions/schema/schema-compilation.js'));
const { COLUMNS } = project(join(ROOT, 'dist/src/executions/executions.sql.js'));
const schemas = new JsonSchemaCompiler(new SchemaSandbox());
const outbound = new Agent({ keepAliveTimeout: 10_000 });

// The reads are the service's own statements, imported from its build; the write path's are the text TypeORM
// sends for the repositories the service still uses there (taken from TypeORM's query log).
const { ACTION_BY_NAME_SQL, ACTIONS_OF_TENANT_SQL } = project(join(ROOT, 'dist/src/actions/actions.sql.js'));
const { TOKEN_BY_HASH_SQL, TOKEN_BY_ID_SQL } = project(join(ROOT, 'dist/src/auth/api-tokens.sql.js'));
const SQL = {
  action: ACTION_BY_NAME_SQL.text,
  actions: ACTIONS_OF_TENANT_SQL.text,
  tokenById: TOKEN_BY_ID_SQL.text,
  tokenByHash: TOKEN_BY_HASH_SQL.text,
  touch: `UPDATE "api_tokens" SET "last_used_at" = $1 WHERE "id" = $2`,
  count: `SELECT COUNT(1) AS "cnt" FROM "actions" "Action" WHERE (("Action"."tenant_id" = $1))`,
  exists:
    `SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS ` +
    `(SELECT 1 FROM "actions" "Action" WHERE (("Action"."tenant_id" = $1) AND ("Action"."name" = $2))) LIMIT 1`,
  lockTenant:
    `SELECT "tenant"."id" AS "tenant_id", "tenant"."name" AS "tenant_name", "tenant"."status" AS "tenant_status", ` +
    `"tenant"."created_at" AS "tenant_created_at", "tenant"."updated_at" AS "tenant_updated_at" FROM "tenants" "tenant" ` +
    `WHERE "tenant"."id" = $1 FOR UPDATE`,
  insert:
    `INSERT INTO "actions"("id", "tenant_id", "name", "description", "json_schema", "webhook_url", "created_at", "updated_at") ` +
    `VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  delete: `DELETE FROM "actions" WHERE ("tenant_id" = $1 AND "name" = $2)`,
  activeKeys:
    `SELECT "HmacKey"."id" AS "HmacKey_id", "HmacKey"."tenant_id" AS "HmacKey_tenant_id", "HmacKey"."key_ciphertext" AS "HmacKey_key_ciphertext", ` +
    `"HmacKey"."created_at" AS "HmacKey_created_at", "HmacKey"."revoked_at" AS "HmacKey_revoked_at" FROM "hmac_keys" "HmacKey" ` +
    `WHERE (("HmacKey"."tenant_id" = $1) AND ("HmacKey"."revoked_at" IS NULL)) ORDER BY "HmacKey"."created_at" DESC, "HmacKey"."id" DESC`,
};

// ---------- database ----------
let embedded;
let pool;
async function connect() {
  let url = env.DATABASE_URL;
  if (!url) {
    const { EmbeddedPostgres } = createRequire(import.meta.url)(join(ROOT, 'dist/src/database/embedded-postgres.js'));
    embedded = await EmbeddedPostgres.start(env.DATA_DIR);
    url = embedded.url;
  }
  pool = new pg.Pool({ connectionString: url, max: url === env.DATABASE_URL ? Number(env.DATABASE_POOL_SIZE ?? 10) : 1 });
  await pool.query('SELECT 1');
}

/** The relay's connections for execution records, as the service's: asynchronous commits, or in process. */
function executionPool() {
  if (embedded) return new pg.Pool({ connectionString: embedded.url, max: 1, stream: () => embedded.connectInProcess() });
  return new pg.Pool({ connectionString: env.DATABASE_URL, max: 2, options: '-c synchronous_commit=off' });
}

// ---------- BASELINE_MODE=memory ----------
const memory = { actions: new Map(), tokens: new Map(), keys: new Map() }; // tenant id -> { list, byName }; token id -> standing; tenant id -> signing keys
let executionsPool; // BASELINE_MODE=relay

/** Everything the two reads need, read once; then no database at all. */
async function loadIntoMemory() {
  const { rows } = await pool.query('SELECT * FROM actions ORDER BY tenant_id, name');
  for (const row of rows) {
    const tenant = memory.actions.get(row.tenant_id) ?? { list: [], byName: new Map() };
    const action = mapAction(row);
    tenant.list.push(action);
    tenant.byName.set(action.name, action);
    memory.actions.set(row.tenant_id, tenant);
  }
  // The answers' JSON is made once, here: the floor serializes nothing per request.
  for (const tenant of memory.actions.values()) {
    tenant.listJson = JSON.stringify({ actions: tenant.list });
    tenant.jsonByName = new Map(tenant.list.map((action) => [action.name, JSON.stringify({ action })]));
  }
  const tokens = await pool.query(`SELECT t.id, t.tenant_id, t.expires_at, t.revoked_at, tenant.status AS tenant_status FROM api_tokens t JOIN tenants tenant ON tenant.id = t.tenant_id`);
  for (const row of tokens.rows) memory.tokens.set(row.id, row);
  if (RELAY) {
    for (const tenantId of memory.actions.keys()) memory.keys.set(tenantId, await activeKeys(tenantId));
    await pool.end();
    pool = undefined;
    executionsPool = executionPool();
    await executionsPool.query('SELECT 1');
    return;
  }
  await pool.end();
  pool = undefined;
  await embedded?.stop();
  embedded = undefined;
}

async function routeFromMemory(req, body) {
  const path = req.url.split('?')[0];
  if (req.method === 'GET' && path === '/readyz') return [200, { status: 'ok' }];
  if (RELAY) return req.method === 'POST' && /^\/[^/]+\/execute$/.test(path.slice(`${PREFIX}/actions`.length)) ? relay(req, body) : [501, { error: 'not in the bare relay' }];
  if (req.method !== 'GET' || !path.startsWith(`${PREFIX}/actions`)) return [501, { error: 'not in the no-database baseline' }];
  const rest = path.slice(`${PREFIX}/actions`.length);
  if (rest !== '' && !/^\/[^/]+$/.test(rest)) return [404, { error: 'Not found' }];
  const tenantId = await authenticate(req);
  if (!tenantId) return [401, { error: 'Invalid token' }];
  const actions = memory.actions.get(tenantId);
  if (rest === '') return [200, undefined, actions?.listJson ?? '{"actions":[]}'];
  const json = actions?.jsonByName.get(decodeURIComponent(rest.slice(1)));
  return json ? [200, undefined, json] : [404, { error: 'Action not found' }];
}

// ---------- BASELINE_MODE=relay ----------
const prepared = new Map(); // action id -> the compiled check

async function relay(req, body) {
  const tenantId = await authenticate(req);
  if (!tenantId) return [401, { error: 'Invalid token' }];
  const name = decodeURIComponent(req.url.split('?')[0].slice(`${PREFIX}/actions/`.length, -'/execute'.length));
  const action = memory.actions.get(tenantId)?.byName.get(name);
  if (!action) return [404, { error: 'Action not found' }];
  const parameters = body?.parameters ?? {};
  if (!prepared.has(action.id)) prepared.set(action.id, schemas.prepare(action.json_schema));
  const check = prepared.get(action.id);
  if (check.kind !== 'inline') throw new Error('the bare relay checks inline schemas only');
  if (!runCheck(check.validate, parameters).valid) return [400, { error: 'Invalid parameters' }];
  const keys = memory.keys.get(tenantId);
  const id = randomUUID();
  const createdAt = new Date();
  const key = req.headers['idempotency-key'];
  if (key !== undefined && !(await claim(tenantId, key, action.name, parameters, id, createdAt))) return [409, { error: 'Conflict' }];
  const payload = { action_name: action.name, parameters, timestamp: Math.floor(createdAt.getTime() / 1000) };
  const signed = buildWebhookBody(payload, keys);
  const started = performance.now();
  const res = await request(action.webhook_url, {
    method: 'POST',
    dispatcher: outbound,
    headers: { 'content-type': 'application/json', 'user-agent': 'action-gateway/1.0', ...standardWebhookHeaders(id, payload.timestamp, signed, keys) },
    body: signed,
    signal: AbortSignal.timeout(30_000),
  });
  const answer = JSON.parse(await res.body.text());
  const durationMs = Math.round(performance.now() - started);
  const succeeded = res.statusCode >= 200 && res.statusCode < 300 && !answer.error;
  const execution = {
    id,
    action_name: action.name,
    status: succeeded ? 'succeeded' : 'failed',
    http_status: res.statusCode,
    result: answer.result ?? null,
    error: answer.error ?? '',
    duration_ms: durationMs,
    attempts: 1,
    created_at: createdAt.toISOString(),
  };
  const attemptLog = [{ attempt: 1, started_at: execution.created_at, duration_ms: durationMs, http_status: res.statusCode, error: execution.error }];
  // By the service's column names, so the relay runs on the log of any commit (since issue 29 it has `replay_of`
  // and `payload`: the relay keeps no payload, the floor).
  const row = {
    id,
    tenant_id: tenantId,
    action_id: action.id,
    action_name: action.name,
    status: execution.status,
    http_status: res.statusCode,
    result: execution.result,
    error: execution.error,
    duration_ms: durationMs,
    attempts: 1,
    attempt_log: JSON.stringify(attemptLog),
    created_at: createdAt,
    replay_of: null,
    payload: 'off',
  };
  const values = COLUMNS.split(',').map((column) => {
    const name = column.trim();
    if (!Object.hasOwn(row, name)) throw new Error(`the bare relay does not know the column ${name} of executions`);
    return row[name];
  });
  const placeholders = values.map((_, index) => `$${index + 1}`).join(', ');
  await executionsPool.query(`INSERT INTO executions (${COLUMNS}) VALUES (${placeholders})`, values);
  return [200, { execution }];
}

/**
 * An idempotency key claimed as the least any implementation must: one prepared INSERT of the key, the request's
 * fingerprint and the execution it stands for, before the call, on the execution records' connection (as the
 * service's). False when the key is taken; the floor answers no stored execution (bench/idempotency.mjs sends
 * each key once).
 */
async function claim(tenantId, key, actionName, parameters, executionId, now) {
  const fingerprint = createHash('sha256').update(actionName).update('\n').update(JSON.stringify(parameters)).digest();
  const leasedUntil = new Date(now.getTime() + 60_000);
  const { rows } = await executionsPool.query({ name: 'claim', text: CLAIM_SQL, values: [tenantId, key, fingerprint, executionId, now, false, now, leasedUntil] });
  return rows.length === 1;
}

const CLAIM_SQL =
  `INSERT INTO idempotency_keys (tenant_id, idempotency_key, fingerprint, execution_id, execution_created_at, respond_async, created_at, leased_until) ` +
  `VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (tenant_id, idempotency_key) DO NOTHING RETURNING execution_id`;

const mapAction = (row) => ({
  id: row.id,
  tenant_id: row.tenant_id,
  name: row.name,
  description: row.description,
  // The service's statements read `json_schema` as text (actions.sql.ts); `SELECT *` has pg parse the `json`.
  json_schema: typeof row.json_schema === 'string' ? JSON.parse(row.json_schema) : row.json_schema,
  webhook_url: row.webhook_url,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const stands = (row) =>
  row.revoked_at === null && row.tenant_status === 'active' && (row.expires_at === null || row.expires_at.getTime() > Date.now());

// ---------- authentication ----------
const principals = new Map(); // api token id -> { tenantId, valid, checkedUntil }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function isUsable(apiTokenId, tenantId) {
  if (MEMORY) {
    const token = memory.tokens.get(apiTokenId);
    return token !== undefined && token.tenant_id === tenantId && stands(token);
  }
  const cached = principals.get(apiTokenId);
  if (cached && cached.checkedUntil > Date.now()) return cached.valid && cached.tenantId === tenantId;
  const { rows } = UUID.test(apiTokenId) ? await pool.query(SQL.tokenById, [apiTokenId]) : { rows: [] };
  const valid = rows.length > 0 && rows[0].tenant_id === tenantId && stands(rows[0]);
  principals.set(apiTokenId, { tenantId: rows[0]?.tenant_id ?? tenantId, valid, checkedUntil: Date.now() + PRINCIPAL_TTL_MS });
  return valid;
}

/** The caller's tenant id, or undefined when the bearer token does not stand. */
async function authenticate(req) {
  const match = /^Bearer ([^\s]+)$/i.exec(req.headers.authorization ?? '');
  if (!match) return undefined;
  let claims;
  try {
    claims = jwt.verify(match[1], secret, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
  } catch {
    return undefined;
  }
  if (typeof claims.sub !== 'string' || typeof claims.tenant_id !== 'string' || typeof claims.exp !== 'number') return undefined;
  return (await isUsable(claims.sub, claims.tenant_id)) ? claims.tenant_id : undefined;
}

async function exchange(body) {
  const apiToken = body?.api_token;
  if (typeof apiToken !== 'string') return [400, { error: 'Invalid request', details: 'api_token: must be a string' }];
  const hash = createHash('sha256').update(apiToken, 'utf8').digest('hex');
  const { rows } = await pool.query(SQL.tokenByHash, [hash]);
  const row = rows[0];
  const same = row && timingSafeEqual(Buffer.from(row.token_hash, 'hex'), Buffer.from(hash, 'hex'));
  if (!same || !stands(row)) return [401, { error: 'Invalid API token' }];
  await pool.query(SQL.touch, [new Date(), row.id]);
  const claims = { sub: row.id, tenant_id: row.tenant_id, jti: randomUUID() };
  const token = jwt.sign(claims, secret, { algorithm: 'HS256', issuer: ISSUER, audience: AUDIENCE, expiresIn: LIFETIME_S });
  return [200, { jwt_token: token, token_type: 'Bearer', expires_in: LIFETIME_S }];
}

// ---------- the write path ----------
/** AES-256-GCM `v1.<iv>.<tag>.<ciphertext>` under ENCRYPTION_KEY, the row id as associated data (KeyCipher). */
function decrypt(sealed, associatedData) {
  const [, iv, tag, ciphertext] = sealed.split('.');
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** The registration test: the signed `{action_name, parameters: {}, timestamp, test: true}`; a 2xx passes. */
/** The tenant's signing keys as the service's HmacKeysService gives them: the newest is primary. */
async function activeKeys(tenantId) {
  const { rows } = await pool.query(SQL.activeKeys, [tenantId]);
  const all = rows.map((row) => decrypt(row.HmacKey_key_ciphertext, row.HmacKey_id));
  return all.length ? { primary: all[0], all } : undefined;
}

async function registrationTest(tenantId, name, url) {
  const keys = await activeKeys(tenantId);
  const payload = { action_name: name, parameters: {}, timestamp: Math.floor(Date.now() / 1000), test: true };
  const body = buildWebhookBody(payload, keys);
  const headers = standardWebhookHeaders(randomUUID(), payload.timestamp, body, keys);
  const res = await request(url, {
    method: 'POST',
    dispatcher: outbound,
    headers: { 'content-type': 'application/json', 'user-agent': 'action-gateway/1.0', ...headers },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  res.body.on('error', () => undefined).destroy();
  return res.statusCode >= 200 && res.statusCode < 300 ? undefined : `webhook endpoint returned status ${res.statusCode}`;
}

async function create(tenantId, body) {
  const { name, description, webhook_url: url, json_schema: schema } = body ?? {};
  if (typeof name !== 'string' || !/^[a-z0-9_]{1,100}$/.test(name) || typeof description !== 'string' || description.length < 1 || description.length > 500) {
    return [400, { error: 'Invalid request', details: 'name, description' }];
  }
  if (typeof url !== 'string' || url.length > 2048 || !/^https?:$/.test(URL.parse(url)?.protocol ?? '')) return [400, { error: 'Invalid request', details: 'webhook_url' }];
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || (await schemas.problemWith(tenantId, schema))) return [400, { error: 'Invalid request', details: 'json_schema' }];
  if ((await pool.query(SQL.action, [tenantId, name])).rows.length) return [409, { error: `action with name '${name}' already exists` }];
  const limitReached = [403, { error: `action limit reached: a tenant may have at most ${ACTIONS_PER_TENANT} actions` }];
  if (Number((await pool.query(SQL.count, [tenantId])).rows[0].cnt) >= ACTIONS_PER_TENANT) return limitReached;
  const problem = await registrationTest(tenantId, name, url);
  if (problem) return [400, { error: `action validation failed: ${problem}` }];
  const now = new Date();
  const action = { id: randomUUID(), tenant_id: tenantId, name, description, json_schema: schema, webhook_url: url, created_at: now, updated_at: now };
  const client = await pool.connect();
  let outcome = 'created';
  try {
    await client.query('START TRANSACTION');
    await client.query(SQL.lockTenant, [tenantId]);
    if ((await client.query(SQL.exists, [tenantId, name])).rows.length) outcome = 'name_taken';
    else if (Number((await client.query(SQL.count, [tenantId])).rows[0].cnt) >= ACTIONS_PER_TENANT) outcome = 'limit_reached';
    else await client.query(SQL.insert, [action.id, tenantId, name, description, JSON.stringify(schema), url, now, now]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    if (error.code !== '23505') throw error;
    outcome = 'name_taken';
  } finally {
    client.release();
  }
  if (outcome === 'name_taken') return [409, { error: `action with name '${name}' already exists` }];
  if (outcome === 'limit_reached') return limitReached;
  return [201, { action: { ...action, created_at: now.toISOString(), updated_at: now.toISOString() } }];
}

// ---------- HTTP ----------
async function route(req, body) {
  const path = req.url.split('?')[0];
  if (req.method === 'GET' && path === '/readyz') return [200, { status: 'ok' }];
  if (req.method === 'POST' && path === `${PREFIX}/token/exchange`) return exchange(body);
  if (!path.startsWith(`${PREFIX}/actions`)) return [404, { error: 'Not found' }];
  const rest = path.slice(`${PREFIX}/actions`.length);
  if (rest !== '' && !/^\/[^/]+$/.test(rest)) return [404, { error: 'Not found' }];
  const tenantId = await authenticate(req);
  if (!tenantId) return [401, { error: 'Invalid token' }];
  if (rest === '' && req.method === 'POST') return create(tenantId, body);
  if (rest === '' && req.method === 'GET') return [200, { actions: (await pool.query(SQL.actions, [tenantId])).rows.map(mapAction) }];
  const name = decodeURIComponent(rest.slice(1));
  if (req.method === 'DELETE') {
    const { rowCount } = /^[a-z0-9_]{1,100}$/.test(name) ? await pool.query(SQL.delete, [tenantId, name]) : { rowCount: 0 };
    return rowCount ? [204, undefined] : [404, { error: 'Action not found' }];
  }
  if (req.method !== 'GET') return [405, { error: 'Method not allowed' }];
  const { rows } = /^[a-z0-9_]{1,100}$/.test(name) ? await pool.query(SQL.action, [tenantId, name]) : { rows: [] };
  return rows.length ? [200, { action: mapAction(rows[0]) }] : [404, { error: 'Action not found' }];
}

const server = createServer({ keepAliveTimeout: 72_000 }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    let status;
    let payload;
    let json; // an answer made before the request came (the no-database baseline's reads)
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? JSON.parse(text) : undefined;
      [status, payload, json] = MEMORY ? await routeFromMemory(req, body) : await route(req, body);
    } catch (error) {
      console.error(error);
      [status, payload] = [500, { error: 'Internal server error' }];
    }
    if (json === undefined && payload === undefined) return void res.writeHead(status).end();
    json ??= JSON.stringify(payload);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) }).end(json);
  });
});

let nestApp; // BASELINE_MODE=nest

async function stop() {
  await nestApp?.close();
  server.close();
  server.closeAllConnections();
  await pool?.end();
  await executionsPool?.end();
  await outbound.close();
  await embedded?.stop();
  process.exit(0);
}

await connect();
if (MEMORY) await loadIntoMemory();
if (NEST) {
  const { startNestFloor } = await import('./lib/nest-floor.mjs');
  nestApp = await startNestFloor({ host: HOST, port: Number(env.PORT), authenticate, actions: memory.actions, prefix: PREFIX });
} else server.listen(Number(env.PORT), HOST);
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => void stop());
