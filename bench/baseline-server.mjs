// The bare baseline of the benchmark: `node bench/baseline-server.mjs`, configured by the environment
// (PORT, JWT_SECRET, DATABASE_URL or DATA_DIR, DATABASE_POOL_SIZE). Plain node:http, no framework, only what
// the measured scenarios need, doing the same work as the service for them and answering the same JSON:
//   GET  /api/v1/gateway/actions/{name}  bearer JWT (HS256, iss/aud action-gateway, exp), the API token's
//                                         standing (cached 30 s like the service's PrincipalCache), one SELECT
//   GET  /api/v1/gateway/actions          the same, the tenant's actions ordered by name
//   POST /api/v1/gateway/token/exchange   SHA-256 lookup of the API token joined to its tenant, the same
//                                         checks, the last_used_at UPDATE, a JWT with the same claims
//   GET  /readyz                          200 once the database answers
// The SQL is the SQL TypeORM sends for the service's repositories, through the same driver (pg) with the same
// pool size. Without DATABASE_URL it opens the embedded database in DATA_DIR itself, with the project's own
// EmbeddedPostgres (PGlite in this process, served on a loopback socket) and one connection, as the service does;
// so it must not run while the service holds that directory.
import { createHash, createSecretKey, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { HOST, ROOT } from './lib/common.mjs';

const env = process.env;
const ISSUER = 'action-gateway';
const AUDIENCE = 'action-gateway';
const LIFETIME_S = 86_400;
const PRINCIPAL_TTL_MS = 30_000;
const PREFIX = '/api/v1/gateway';
// A KeyObject, as the service uses: jsonwebtoken would otherwise try to read a string secret as a PEM key.
const secret = createSecretKey(Buffer.from(env.JWT_SECRET, 'utf8'));

const ACTION_COLUMNS = ['id', 'tenant_id', 'name', 'description', 'json_schema', 'webhook_url', 'created_at', 'updated_at']
  .map((column) => `"Action"."${column}" AS "Action_${column}"`)
  .join(', ');
const SQL = {
  action: `SELECT ${ACTION_COLUMNS} FROM "actions" "Action" WHERE (("Action"."tenant_id" = $1) AND ("Action"."name" = $2)) LIMIT 1`,
  actions: `SELECT ${ACTION_COLUMNS} FROM "actions" "Action" WHERE (("Action"."tenant_id" = $1)) ORDER BY "Action"."name" ASC`,
  tokenWithTenant: (where) =>
    `SELECT "token"."id" AS "token_id", "token"."tenant_id" AS "token_tenant_id", "token"."name" AS "token_name", ` +
    `"token"."prefix" AS "token_prefix", "token"."token_hash" AS "token_token_hash", "token"."created_at" AS "token_created_at", ` +
    `"token"."expires_at" AS "token_expires_at", "token"."last_used_at" AS "token_last_used_at", ` +
    `"token"."revoked_at" AS "token_revoked_at", "tenant"."status" AS "tenant_status" FROM "api_tokens" "token" ` +
    `INNER JOIN "tenants" "tenant" ON "tenant"."id" = "token"."tenant_id" WHERE ${where}`,
  touch: `UPDATE "api_tokens" SET "last_used_at" = $1 WHERE "id" IN ($2)`,
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

const mapAction = (row) => ({
  id: row.Action_id,
  tenant_id: row.Action_tenant_id,
  name: row.Action_name,
  description: row.Action_description,
  json_schema: row.Action_json_schema, // a `json` column: pg parses it with JSON.parse, keys in stored order
  webhook_url: row.Action_webhook_url,
  created_at: row.Action_created_at.toISOString(),
  updated_at: row.Action_updated_at.toISOString(),
});

const stands = (row) =>
  row.token_revoked_at === null && row.tenant_status === 'active' && (row.token_expires_at === null || row.token_expires_at.getTime() > Date.now());

// ---------- authentication ----------
const principals = new Map(); // api token id -> { tenantId, valid, checkedUntil }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function isUsable(apiTokenId, tenantId) {
  const cached = principals.get(apiTokenId);
  if (cached && cached.checkedUntil > Date.now()) return cached.valid && cached.tenantId === tenantId;
  const { rows } = UUID.test(apiTokenId) ? await pool.query(SQL.tokenWithTenant('token.id = $1'), [apiTokenId]) : { rows: [] };
  const valid = rows.length > 0 && rows[0].token_tenant_id === tenantId && stands(rows[0]);
  principals.set(apiTokenId, { tenantId: rows[0]?.token_tenant_id ?? tenantId, valid, checkedUntil: Date.now() + PRINCIPAL_TTL_MS });
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
  const { rows } = await pool.query(SQL.tokenWithTenant('token.token_hash = $1'), [hash]);
  const row = rows[0];
  const same = row && timingSafeEqual(Buffer.from(row.token_token_hash, 'hex'), Buffer.from(hash, 'hex'));
  if (!same || !stands(row)) return [401, { error: 'Invalid API token' }];
  await pool.query(SQL.touch, [new Date(), row.token_id]);
  const claims = { sub: row.token_id, tenant_id: row.token_tenant_id, jti: randomUUID() };
  const token = jwt.sign(claims, secret, { algorithm: 'HS256', issuer: ISSUER, audience: AUDIENCE, expiresIn: LIFETIME_S });
  return [200, { jwt_token: token, token_type: 'Bearer', expires_in: LIFETIME_S }];
}

// ---------- HTTP ----------
async function route(req, body) {
  const path = req.url.split('?')[0];
  if (req.method === 'GET' && path === '/readyz') return [200, { status: 'ok' }];
  if (req.method === 'POST' && path === `${PREFIX}/token/exchange`) return exchange(body);
  if (req.method !== 'GET' || !path.startsWith(`${PREFIX}/actions`)) return [404, { error: 'Not found' }];
  const rest = path.slice(`${PREFIX}/actions`.length);
  if (rest !== '' && !/^\/[^/]+$/.test(rest)) return [404, { error: 'Not found' }];
  const tenantId = await authenticate(req);
  if (!tenantId) return [401, { error: 'Invalid token' }];
  if (rest === '') return [200, { actions: (await pool.query(SQL.actions, [tenantId])).rows.map(mapAction) }];
  const name = decodeURIComponent(rest.slice(1));
  const { rows } = /^[a-z0-9_]{1,100}$/.test(name) ? await pool.query(SQL.action, [tenantId, name]) : { rows: [] };
  return rows.length ? [200, { action: mapAction(rows[0]) }] : [404, { error: 'Action not found' }];
}

const server = createServer({ keepAliveTimeout: 72_000 }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    let status;
    let payload;
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      [status, payload] = await route(req, text ? JSON.parse(text) : undefined);
    } catch (error) {
      console.error(error);
      [status, payload] = [500, { error: 'Internal server error' }];
    }
    const json = JSON.stringify(payload);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) }).end(json);
  });
});

async function stop() {
  server.close();
  server.closeAllConnections();
  await pool?.end();
  await embedded?.stop();
  process.exit(0);
}

await connect();
server.listen(Number(env.PORT), HOST);
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => void stop());
