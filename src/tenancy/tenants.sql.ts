// The tenant lookup the read model makes, written by hand like the other hot reads (see actions.sql.ts).
import { globalStatement } from '../database/statement';
import type { TenantStatus } from './tenant.entity';

export const TENANT_STATUS_COLUMNS = ['status'] as const;

/** A tenant's status (NULL when there is no such tenant), with the read model's version as this statement saw it. */
export const TENANT_STATUS_SNAPSHOT_SQL = globalStatement<[id: string], { read_version: string; status: TenantStatus | null }>(
  'it reads the tenant itself, by its id, before anyone knows whether it stands',
  'SELECT v.version AS read_version, t.status FROM read_model_version v LEFT JOIN tenants t ON t.id = $1',
);
