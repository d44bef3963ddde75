// The signing keys' lookup the read model makes, written by hand like the other hot reads (see actions.sql.ts).
import { tenantStatement } from '../tenancy/tenant-statement';

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
