// The tenant lookup the read model makes, written by hand like the other hot reads (see actions.sql.ts).
export const TENANT_STATUS_COLUMNS = ['status'] as const;

/** A tenant's status (NULL when there is no such tenant), with the read model's version as this statement saw it. */
export const TENANT_STATUS_SNAPSHOT_SQL = 'SELECT v.version AS read_version, t.status FROM read_model_version v LEFT JOIN tenants t ON t.id = $1';
