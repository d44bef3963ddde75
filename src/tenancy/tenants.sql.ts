// The tenant lookup the read model makes, written by hand like the other hot reads (see actions.sql.ts).
import { globalStatement } from '../database/statement';
import type { TenantStatus } from './tenant.entity';

export const TENANT_STATUS_COLUMNS = ['status'] as const;

/** A tenant's status (no row when there is no such tenant), for the read model. */
export const TENANT_STATUS_SQL = globalStatement<[id: string], { status: TenantStatus }>(
  'it reads the tenant itself, by its id, before anyone knows whether it stands',
  'SELECT status FROM tenants WHERE id = $1',
);
