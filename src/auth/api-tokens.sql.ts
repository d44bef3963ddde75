// The token lookups of the exchange and of bearer checks, written by hand like the other hot-path reads (see
// actions.sql.ts) and kept free of framework imports so the benchmark's bare baseline runs the very same SQL.
const SELECT_WITH_TENANT_STATUS = `SELECT t.id, t.tenant_id, t.name, t.prefix, t.token_hash, t.created_at, t.expires_at,
  t.last_used_at, t.revoked_at, tenant.status AS tenant_status FROM api_tokens t JOIN tenants tenant ON tenant.id = t.tenant_id`;
export const TOKEN_BY_HASH_SQL = `${SELECT_WITH_TENANT_STATUS} WHERE t.token_hash = $1`;
export const TOKEN_BY_ID_SQL = `${SELECT_WITH_TENANT_STATUS} WHERE t.id = $1`;
