// The token lookups written by hand, like the actions' (see actions.sql.ts), and kept free of framework imports
// so the benchmark's bare baseline runs the very same SQL. Every column of `api_tokens` is listed once, here; a
// test holds the list to the entity's (test/hand-written-sql.e2e-spec.ts). None is one tenant's: a bearer
// presents a token, and the tenant is what the token's row says (the caller compares it with the one claimed).
import { globalStatement } from '../database/statement';
import { tenantStatement } from '../tenancy/tenant-statement';
import type { TenantStatus } from '../tenancy/tenant.entity';

/** A row of `api_tokens`. */
export interface StoredApiTokenRow {
  id: string;
  tenant_id: string;
  name: string;
  prefix: string;
  token_hash: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** A row of `api_tokens`, with its tenant's status. */
interface ApiTokenRow extends StoredApiTokenRow {
  tenant_status: TenantStatus;
}

export const API_TOKEN_COLUMNS = ['id', 'tenant_id', 'name', 'prefix', 'token_hash', 'created_at', 'expires_at', 'last_used_at', 'revoked_at'] as const;

const SELECT_WITH_TENANT_STATUS =
  `SELECT ${API_TOKEN_COLUMNS.map((column) => `t.${column}`).join(', ')}, tenant.status AS tenant_status ` +
  `FROM api_tokens t JOIN tenants tenant ON tenant.id = t.tenant_id`;
/** The token exchange's lookup. */
export const TOKEN_BY_HASH_SQL = globalStatement<[tokenHash: string], ApiTokenRow>(
  'the token exchange finds the token by its hash; the token names its tenant',
  `${SELECT_WITH_TENANT_STATUS} WHERE t.token_hash = $1`,
);
/** The bearer check's lookup before the read model (the benchmark's same-query baseline still runs it). */
export const TOKEN_BY_ID_SQL = globalStatement<[id: string], ApiTokenRow>(
  'a bearer names its token by id; the token names its tenant',
  `${SELECT_WITH_TENANT_STATUS} WHERE t.id = $1`,
);

/** What a bearer check needs of a token (no row when there is no such token), for the read model. */
export const TOKEN_STANDING_COLUMNS = ['tenant_id', 'expires_at', 'revoked_at'] as const;
export const TOKEN_STANDING_SQL = globalStatement<[id: string], { tenant_id: string; expires_at: string | null; revoked_at: string | null }>(
  'a bearer names its token by id; the token names its tenant, which the bearer check compares with the claimed one',
  `SELECT ${TOKEN_STANDING_COLUMNS.join(', ')} FROM api_tokens WHERE id = $1`,
);

/**
 * Keeps the tenant's `$3` most recently made revoked or expired (at `$2`) tokens and deletes the older ones: what
 * a tenant that makes and revokes in a loop leaves is bounded (ApiTokensService).
 */
export const TRIM_DEAD_TOKENS_SQL = tenantStatement<[now: Date, kept: number]>(
  'DELETE FROM api_tokens WHERE tenant_id = $1 AND id IN (' +
    'SELECT id FROM api_tokens WHERE tenant_id = $1 AND (revoked_at IS NOT NULL OR expires_at <= $2) ' +
    'ORDER BY created_at DESC, id DESC OFFSET $3)',
);

const LISTED_TOKEN = `SELECT ${API_TOKEN_COLUMNS.join(', ')}, created_at::text AS position FROM api_tokens WHERE tenant_id = $1`;
/** The tenant's newest tokens, with their `created_at` as PostgreSQL spells it (`position`, TimePosition). */
export const TOKENS_FIRST_PAGE_SQL = tenantStatement<[limit: number], StoredApiTokenRow & { position: string }>(`${LISTED_TOKEN} ORDER BY created_at DESC, id DESC LIMIT $2`);
/** The tenant's tokens after a position, exact to the microsecond. */
export const TOKENS_PAGE_AFTER_SQL = tenantStatement<[createdAt: string, id: string, limit: number], StoredApiTokenRow & { position: string }>(
  `${LISTED_TOKEN} AND (created_at, id) < ($2::timestamptz, $3::uuid) ORDER BY created_at DESC, id DESC LIMIT $4`,
);
