/**
 * A statement written by hand, with the types of its parameters (`$1`, `$2`, ...) and of the rows it returns. `DatabasePool` and
 * `TenantTransaction` run only these, never a bare string, so every statement is declared once, in a `*.sql.ts`
 * module, as one of two kinds:
 * - about one tenant's rows: `tenantStatement` (src/tenancy/tenant-statement.ts), whose `$1` is a `TenantId`, so
 *   it cannot be run without the tenant;
 * - about no one tenant (a lookup by a secret's hash, the read model's counter, retention across tenants):
 *   `globalStatement`, which says why.
 *
 * No framework imports: the benchmark's bare baseline (bench/baseline-server.mjs) runs the same `text`.
 */
export interface Statement<Params extends readonly unknown[], Row = unknown> {
  readonly text: string;
  /** Why it is not about one tenant; absent for a tenant's statement. */
  readonly acrossTenants?: string;
  /** Never set: carries the types for the compiler, which checks a statement's parameters where it runs. */
  readonly types?: { parameters: (parameters: Params) => void; row: Row };
}

/** A statement that is not about one tenant's rows; `why` says what it is about instead. */
export function globalStatement<Params extends readonly unknown[] = [], Row = unknown>(why: string, text: string): Statement<Params, Row> {
  return { text, acrossTenants: why };
}
