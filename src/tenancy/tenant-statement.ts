import type { TenantId } from '../common/tenant-id';
import type { Statement } from '../database/statement';

/** A statement about one tenant's rows: its first parameter is the tenant. */
export type TenantStatement<Params extends readonly unknown[] = [], Row = unknown> = Statement<readonly [TenantId, ...Params], Row>;

/** `tenant_id = $1`, `tenant_id IN ($1)` is not used, so the one spelling a tenant's statement must contain. */
const TENANT_PREDICATE = /\btenant_id = \$1(?!\d)/;
/** An INSERT whose first column is `tenant_id` and whose rows all take it from `$1`. */
const TENANT_INSERT = /^INSERT INTO \w+ \(tenant_id, [^)]*\) VALUES \(\$1, /;

/** The text of every tenant statement declared so far (each module declares its own when it loads). */
const DECLARED = new Set<string>();

/**
 * The texts of the tenant statements declared so far: tenant-statement.spec.ts loads every module that declares
 * some and parses each text with PostgreSQL's own parser, to check what the pattern above cannot see (where the
 * condition sits: never under an OR or a NOT).
 */
export function declaredTenantStatements(): readonly string[] {
  return [...DECLARED];
}

/**
 * Declares a hand-written statement about tenant `$1`'s rows (see `Statement`): it runs only with a `TenantId`
 * first, and its text must constrain `tenant_id` by `$1` (or, for an INSERT, write `$1` into `tenant_id`).
 * A statement that lost its predicate fails here, when its module loads, in every test. Where the predicate sits
 * is checked on PostgreSQL's own parse tree by tenant-statement.spec.ts, for every statement declared: each read
 * of a table (WITH queries, subqueries, UNION branches, UPDATE … FROM and DELETE … USING included) ANDs
 * `tenant_id = $1` into its own query's WHERE, never under an OR or a NOT (`(tenant_id = $1 OR true)` matches the
 * pattern and constrains nothing); docs/architecture.md, "Tenant-scoped queries", has the rule. What else it
 * does is in its SQL snapshot (src/queries/).
 */
export function tenantStatement<Params extends readonly unknown[] = [], Row = unknown>(text: string): TenantStatement<Params, Row> {
  if (!TENANT_PREDICATE.test(text) && !TENANT_INSERT.test(text)) {
    throw new Error(`A tenant's statement constrains tenant_id by $1: ${text}`);
  }
  DECLARED.add(text);
  // eslint-disable-next-line no-restricted-syntax -- one of the two places a statement is made
  return { text } as TenantStatement<Params, Row>;
}
