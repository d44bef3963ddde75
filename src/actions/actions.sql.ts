// The statements of the hot-path reads, in a module of their own (no framework imports) so the benchmark's bare
// baseline (bench/baseline-server.mjs) runs the very same SQL as the service.
const SELECT_ACTION = `SELECT id, tenant_id, name, description, json_schema, webhook_url, created_at, updated_at FROM actions`;
export const ACTION_BY_NAME_SQL = `${SELECT_ACTION} WHERE tenant_id = $1 AND name = $2`;
export const ACTIONS_OF_TENANT_SQL = `${SELECT_ACTION} WHERE tenant_id = $1 ORDER BY name`;
