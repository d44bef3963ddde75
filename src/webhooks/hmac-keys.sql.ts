// The signing keys' lookup the read model makes, written by hand like the other hot reads (see actions.sql.ts).
import { tenantStatement } from '../tenancy/tenant-statement';

export const SIGNING_KEY_COLUMNS = ['id', 'key_ciphertext'] as const;

/**
 * A tenant's active keys, newest first, each row with `read_version`, the read model's version as this same
 * statement saw it (one row of NULLs besides it when the tenant has no active key).
 */
export const ACTIVE_KEYS_SNAPSHOT_SQL = tenantStatement<[], { read_version: string; id: string | null; key_ciphertext: string }>(
  `SELECT v.version AS read_version, ${SIGNING_KEY_COLUMNS.map((column) => `k.${column}`).join(', ')} ` +
    `FROM read_model_version v LEFT JOIN hmac_keys k ON k.tenant_id = $1 AND k.revoked_at IS NULL ORDER BY k.created_at DESC, k.id DESC`,
);
