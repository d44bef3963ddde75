// The signing keys' lookup the read model makes, written by hand like the other hot reads (see actions.sql.ts), and
// the key list's pages, written by hand for their exact positions (TimePosition). Every column of `hmac_keys` is
// listed once, here; a test holds the list to the entity's (test/hand-written-sql.e2e-spec.ts).
import { tenantStatement } from '../tenancy/tenant-statement';

export const HMAC_KEY_COLUMNS = ['id', 'tenant_id', 'key_ciphertext', 'created_at', 'revoked_at'] as const;

/** A row of `hmac_keys`, with its `created_at` as PostgreSQL spells it (`position`, TimePosition). */
export interface ListedHmacKeyRow {
  id: string;
  tenant_id: string;
  key_ciphertext: string;
  created_at: Date;
  revoked_at: Date | null;
  position: string;
}

export const SIGNING_KEY_COLUMNS = ['id', 'key_ciphertext'] as const;

/** A tenant's active keys, newest first, for the read model. */
export const ACTIVE_KEYS_SQL = tenantStatement<[], { id: string; key_ciphertext: string }>(
  `SELECT ${SIGNING_KEY_COLUMNS.join(', ')} FROM hmac_keys WHERE tenant_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id DESC`,
);

/** Keeps the tenant's `$2` most recently made revoked keys and deletes the older ones (HmacKeysService). */
export const TRIM_REVOKED_KEYS_SQL = tenantStatement<[kept: number]>(
  'DELETE FROM hmac_keys WHERE tenant_id = $1 AND id IN (' +
    'SELECT id FROM hmac_keys WHERE tenant_id = $1 AND revoked_at IS NOT NULL ORDER BY created_at DESC, id DESC OFFSET $2)',
);

const LISTED_KEY = `SELECT ${HMAC_KEY_COLUMNS.join(', ')}, created_at::text AS position FROM hmac_keys WHERE tenant_id = $1`;
/** The tenant's newest keys. */
export const KEYS_FIRST_PAGE_SQL = tenantStatement<[limit: number], ListedHmacKeyRow>(`${LISTED_KEY} ORDER BY created_at DESC, id DESC LIMIT $2`);
/** The tenant's keys after a position, exact to the microsecond. */
export const KEYS_PAGE_AFTER_SQL = tenantStatement<[createdAt: string, id: string, limit: number], ListedHmacKeyRow>(
  `${LISTED_KEY} AND (created_at, id) < ($2::timestamptz, $3::uuid) ORDER BY created_at DESC, id DESC LIMIT $4`,
);
