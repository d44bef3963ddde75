import type { TenantId } from '../common/tenant-id';
import type { Statement } from '../database/statement';

/** A statement about one tenant's rows: its first parameter is the tenant. */
export type TenantStatement<Params extends readonly unknown[] = [], Row = unknown> = Statement<readonly [TenantId, ...Params], Row>;

/** `tenant_id = $1`, `tenant_id IN ($1)` is not used, so the one spelling a tenant's statement must contain. */
const TENANT_PREDICATE = /\btenant_id = \$1(?!\d)/;
/** An INSERT whose first column is `tenant_id` and whose rows all take it from `$1`. */
const TENANT_INSERT = /^INSERT INTO \w+ \(tenant_id, [^)]*\) VALUES \(\$1, /;

/**
 * Declares a hand-written statement about tenant `$1`'s rows (see `Statement`): it runs only with a `TenantId`
 * first, and its text must constrain `tenant_id` by `$1` (or, for an INSERT, write `$1` into `tenant_id`).
 * A statement that lost its predicate fails here, when its module loads, in every test; what else it does is in
 * its SQL snapshot (src/queries/).
 */
export function tenantStatement<Params extends readonly unknown[] = [], Row = unknown>(text: string): TenantStatement<Params, Row> {
  if (!TENANT_PREDICATE.test(text) && !TENANT_INSERT.test(text)) {
    throw new Error(`A tenant's statement constrains tenant_id by $1: ${text}`);
  }
  // eslint-disable-next-line no-restricted-syntax -- one of the two places a statement is made
  return { text } as TenantStatement<Params, Row>;
}
