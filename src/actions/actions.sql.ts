// The statements the service writes by hand, in a module of their own (no framework imports) so the
// benchmark's bare baseline (bench/baseline-server.mjs) runs the very same SQL as the service. Every column of
// `actions` is listed once, here; a test holds the list to the entity's (test/hand-written-sql.e2e-spec.ts).
export const ACTION_COLUMNS = ['id', 'tenant_id', 'name', 'description', 'json_schema', 'webhook_url', 'created_at', 'updated_at'] as const;

const SELECT_ACTION = `SELECT ${ACTION_COLUMNS.join(', ')} FROM actions`;
export const ACTION_BY_NAME_SQL = `${SELECT_ACTION} WHERE tenant_id = $1 AND name = $2`;
export const ACTIONS_OF_TENANT_SQL = `${SELECT_ACTION} WHERE tenant_id = $1 ORDER BY name`;

/**
 * A tenant's actions ordered by name, each row with `read_version`, the read model's version as this same
 * statement saw it (one row of NULLs besides it when the tenant has no action).
 */
export const TENANT_ACTIONS_SNAPSHOT_SQL =
  `SELECT v.version AS read_version, ${ACTION_COLUMNS.map((column) => `a.${column}`).join(', ')} ` +
  `FROM read_model_version v LEFT JOIN actions a ON a.tenant_id = $1 ORDER BY a.name`;
