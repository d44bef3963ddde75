// The tenant lookup the read model makes, written by hand like the other hot reads (see actions.sql.ts), and the
// tenant list's pages, written by hand for their exact positions (TimePosition). Every column of `tenants` is
// listed once, here; a test holds the list to the entity's (test/hand-written-sql.e2e-spec.ts).
import { globalStatement } from '../database/statement';
import type { TenantStatus } from './tenant.entity';

export const TENANT_STATUS_COLUMNS = ['status'] as const;

/** A tenant's status (no row when there is no such tenant), for the read model. */
export const TENANT_STATUS_SQL = globalStatement<[id: string], { status: TenantStatus }>(
  'it reads the tenant itself, by its id, before anyone knows whether it stands',
  'SELECT status FROM tenants WHERE id = $1',
);

export const TENANT_COLUMNS = ['id', 'name', 'status', 'created_at', 'updated_at'] as const;

/** A row of `tenants`, with its `created_at` as PostgreSQL spells it (`position`, TimePosition). */
export interface ListedTenantRow {
  id: string;
  name: string;
  status: TenantStatus;
  created_at: Date;
  updated_at: Date;
  position: string;
}

const LISTED_TENANT = `SELECT ${TENANT_COLUMNS.join(', ')}, created_at::text AS position FROM tenants`;
const LISTED = 'listing tenants is an operator\'s, over every tenant';
/** The newest tenants: the index on (created_at, id), read backwards. */
export const TENANTS_FIRST_PAGE_SQL = globalStatement<[limit: number], ListedTenantRow>(LISTED, `${LISTED_TENANT} ORDER BY created_at DESC, id DESC LIMIT $1`);
/** The tenants after a position, exact to the microsecond: the same index, from that key on. */
export const TENANTS_PAGE_AFTER_SQL = globalStatement<[createdAt: string, id: string, limit: number], ListedTenantRow>(
  LISTED,
  `${LISTED_TENANT} WHERE (created_at, id) < ($1::timestamptz, $2::uuid) ORDER BY created_at DESC, id DESC LIMIT $3`,
);
