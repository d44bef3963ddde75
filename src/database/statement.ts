import { createHash } from 'node:crypto';

declare const declaredOnce: unique symbol;

/**
 * A statement written by hand, with the types of its parameters (`$1`, `$2`, ...) and of the rows it returns. `DatabasePool`,
 * `TenantTransaction` and `DedicatedConnection` run only these, never a bare string, so every statement is declared once, in a `*.sql.ts`
 * module, as one of two kinds:
 * - about one tenant's rows: `tenantStatement` (src/tenancy/tenant-statement.ts), whose `$1` is a `TenantId`, so
 *   it cannot be run without the tenant;
 * - about no one tenant (a lookup by a secret's hash, the read model's counter, retention across tenants):
 *   `globalStatement`, which says why.
 *
 * No framework imports: the benchmark's bare baseline (bench/baseline-server.mjs) runs the same `text`.
 */
export interface Statement<Params extends readonly unknown[], Row = unknown> {
  /** Never set: only `tenantStatement` and `globalStatement` make a statement, so an object with a `text` is none. */
  readonly [declaredOnce]: true;
  readonly text: string;
  /** Why it is not about one tenant; absent for a tenant's statement. */
  readonly acrossTenants?: string;
  /** Its name where it is prepared (`prepared`); absent for a statement parsed and planned anew at each call. */
  readonly name?: string;
  /** Never set: carries the types for the compiler, which checks a statement's parameters where it runs. */
  readonly types?: { parameters: (parameters: Params) => void; row: Row };
}

/** A statement's parameters as the one argument after it, which a statement without parameters may leave out. */
export type ParametersOf<Params extends readonly unknown[]> = Params extends readonly [] ? [] : [parameters: NoInfer<Params>];

/**
 * The same statement, named, for connections that prepare it once (PreparedStatements): a statement whose planning
 * costs more than running it, such as a list over every partition of the delivery log, run on connections that
 * keep its generic plan (genericPlanPool). The name is the text's digest, so a text has one name in every process.
 */
export function prepared<Params extends readonly unknown[], Row>(statement: Statement<Params, Row>): Statement<Params, Row> & { readonly name: string } {
  return { ...statement, name: `agw_${createHash('sha256').update(statement.text).digest('hex').slice(0, 24)}` };
}

type Letter = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h' | 'i' | 'j' | 'k' | 'l' | 'm' | 'n' | 'o' | 'p' | 'q' | 'r' | 's' | 't' | 'u' | 'v' | 'w' | 'x' | 'y' | 'z';
type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';

/**
 * A reason, said where a query is about no one tenant: a string the compiler sees starting with a letter, a digit
 * or a quote, so an empty or blank one (`''`, `' '`) does not compile, whatever type arguments the call is given
 * (a reason typed by an inferred type parameter was `string`, which takes `''`, once the others were given
 * explicitly: `globalStatement<[id: string]>('', ...)`). A reason the compiler cannot see (a `string` from
 * elsewhere) does not compile either, unless declared a Reason; `reasonGiven` refuses an empty or blank one at run
 * time all the same.
 */
export type Reason = `${Letter | Uppercase<Letter> | Digit | "'" | '"' | '`' | '('}${string}`;

/** `why`, if it says something; throws where it is empty or blank (the statement or query is then never made). */
export function reasonGiven(why: string): string {
  if (typeof why !== 'string' || why.trim() === '') throw new Error('A query about no one tenant says why: the reason is empty');
  return why;
}

/** A statement that is not about one tenant's rows; `why` says what it is about instead. */
export function globalStatement<Params extends readonly unknown[] = [], Row = unknown>(why: Reason, text: string): Statement<Params, Row> {
  // eslint-disable-next-line no-restricted-syntax -- one of the two places a statement is made
  return { text, acrossTenants: reasonGiven(why) } as Statement<Params, Row>;
}
