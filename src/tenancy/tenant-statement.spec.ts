import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadModule, parseSync } from 'libpg-query';
import { declaredTenantStatements, tenantStatement } from './tenant-statement';

describe('a tenant statement', () => {
  it('is refused when its module loads if its text never constrains tenant_id by $1', () => {
    expect(() => tenantStatement('SELECT * FROM executions WHERE id = $2')).toThrow("A tenant's statement constrains tenant_id by $1");
    expect(() => tenantStatement('SELECT * FROM executions WHERE tenant_id = $12')).toThrow("A tenant's statement constrains tenant_id by $1");
  });

  describe('on the parse tree', () => {
    it.each([
      ['SELECT * FROM executions WHERE tenant_id = $1 AND id = $2'],
      ['SELECT * FROM executions e WHERE (e.id = $2 AND (e.tenant_id = $1::uuid)) AND (e.status = $3 OR e.status = $4)'],
      ['UPDATE actions SET description = $3 WHERE name = $2 AND tenant_id = $1 RETURNING id'],
      ['DELETE FROM hmac_keys WHERE tenant_id = $1 AND id IN (SELECT id FROM hmac_keys WHERE tenant_id = $1 AND revoked_at IS NOT NULL)'],
      ['INSERT INTO actions (tenant_id, id, name) VALUES ($1, $2, $3), ($1, $4, $5)'],
      ['WITH e AS (UPDATE executions SET status = $2 WHERE tenant_id = $1 RETURNING id) INSERT INTO execution_payloads (execution_id, tenant_id) SELECT id, $1 FROM e'],
      ['SELECT count(*) FROM (SELECT 1 FROM executions WHERE tenant_id = $1 LIMIT $2) AS counted'],
      ['SELECT e.id FROM executions e JOIN actions a ON a.tenant_id = $1 AND a.id = e.action_id WHERE e.tenant_id = $1'],
      ['SELECT e.id FROM executions e LEFT JOIN actions a ON a.tenant_id = $1 AND a.id = e.action_id WHERE e.tenant_id = $1'],
      ['WITH x AS (SELECT id FROM executions WHERE tenant_id = $1 UNION SELECT id FROM execution_replays WHERE tenant_id = $1) SELECT * FROM x'],
      ['WITH RECURSIVE chain AS (SELECT id, replay_of FROM executions WHERE tenant_id = $1 AND id = $2 UNION ALL SELECT e.id, e.replay_of FROM executions e JOIN chain c ON e.id = c.replay_of WHERE e.tenant_id = $1) SELECT * FROM chain'],
      ['UPDATE actions a SET description = e.error FROM executions e WHERE a.tenant_id = $1 AND e.tenant_id = $1 AND e.action_id = a.id'],
      ['DELETE FROM execution_payloads p USING executions e WHERE p.tenant_id = $1 AND e.tenant_id = $1 AND p.execution_id = e.id'],
      ['INSERT INTO execution_payloads (tenant_id, execution_id) SELECT $1, id FROM executions WHERE tenant_id = $1 AND status = $2'],
      ['INSERT INTO actions (tenant_id, id, name) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, name) DO UPDATE SET id = EXCLUDED.id'],
      ['INSERT INTO actions AS a (tenant_id, id, name) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name WHERE a.tenant_id = $1'],
      ['INSERT INTO actions (tenant_id, id, name) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING'],
    ])('passes a statement that constrains every table it reads: %s', async (text) => {
      expect(await tenantScopeProblems(text)).toEqual([]);
    });

    it.each([
      ['SELECT * FROM executions WHERE (tenant_id = $1 OR true)', 'a tenant_id = $1 that constrains nothing: under an OR, a NOT, a CASE or a function'],
      ['SELECT * FROM executions WHERE id = $2 AND (tenant_id = $1 OR id IS NOT NULL)', 'a SELECT of executions whose WHERE does not AND tenant_id = $1'],
      ['SELECT * FROM executions WHERE tenant_id = $1 OR id = $2', 'a SELECT of executions whose WHERE does not AND tenant_id = $1'],
      ['DELETE FROM executions WHERE NOT (tenant_id = $1)', 'a DELETE of executions whose WHERE does not AND tenant_id = $1'],
      ['UPDATE actions SET name = $2 WHERE id = $3 AND coalesce(tenant_id = $1, true)', 'a UPDATE of actions whose WHERE does not AND tenant_id = $1'],
      ['SELECT * FROM executions WHERE tenant_id = $1 UNION ALL SELECT * FROM executions', 'a SELECT of executions whose WHERE does not AND tenant_id = $1'],
      ['SELECT * FROM actions WHERE tenant_id = $1 AND id IN (SELECT action_id FROM executions WHERE status = $2)', 'a SELECT of executions whose WHERE does not AND tenant_id = $1'],
      ['INSERT INTO actions (id, tenant_id) VALUES ($2, $1), ($3, $4)', 'an INSERT into actions that does not write $1 into tenant_id'],
      ['INSERT INTO actions (id, name) SELECT id, name FROM actions WHERE tenant_id = $1', 'an INSERT into actions that does not write $1 into tenant_id'],
      // A WITH query is checked on its own: what the outer query does with its rows does not excuse it.
      ['WITH x AS (SELECT * FROM executions) SELECT * FROM x', 'a SELECT of executions whose WHERE does not AND tenant_id = $1'],
      ['WITH x AS (SELECT * FROM executions) SELECT * FROM x WHERE tenant_id = $1', 'a SELECT of executions whose WHERE does not AND tenant_id = $1'],
      ['WITH gone AS (DELETE FROM executions WHERE id = $2 RETURNING *) SELECT * FROM gone WHERE tenant_id = $1', 'a DELETE of executions whose WHERE does not AND tenant_id = $1'],
      ['WITH x AS (SELECT id FROM executions WHERE tenant_id = $1 UNION SELECT id FROM executions) SELECT * FROM x', 'a SELECT of executions whose WHERE does not AND tenant_id = $1'],
      ['WITH e AS (SELECT id FROM executions) INSERT INTO execution_payloads (tenant_id, execution_id) SELECT $1, id FROM e', 'a SELECT of executions whose WHERE does not AND tenant_id = $1'],
      // A name is a WITH query only where PostgreSQL resolves it to one.
      ['WITH executions AS (SELECT * FROM executions) SELECT * FROM executions WHERE tenant_id = $1', 'a SELECT of executions whose WHERE does not AND tenant_id = $1'],
      ['WITH executions AS (SELECT * FROM executions WHERE tenant_id = $1) SELECT * FROM public.executions', 'a SELECT of executions whose WHERE does not AND tenant_id = $1'],
      ['SELECT * FROM (WITH actions AS (SELECT * FROM actions WHERE tenant_id = $1) SELECT * FROM actions) a JOIN actions b ON b.id = a.id', 'a SELECT of actions whose WHERE does not AND tenant_id = $1'],
      // Each table a query reads is constrained by a condition that names it.
      ['SELECT * FROM executions e JOIN actions a ON a.id = e.action_id WHERE a.tenant_id = $1', 'a SELECT of executions whose WHERE does not AND e.tenant_id = $1'],
      ['SELECT * FROM executions e, actions a WHERE tenant_id = $1 AND a.id = e.action_id', 'a SELECT of actions whose WHERE does not AND a.tenant_id = $1'],
      ['SELECT * FROM executions e LEFT JOIN actions a ON e.tenant_id = $1 AND a.tenant_id = $1 AND a.id = e.action_id', 'a SELECT of executions whose WHERE does not AND e.tenant_id = $1'],
      ['SELECT * FROM (SELECT * FROM executions) s WHERE s.tenant_id = $1', 'a SELECT of executions whose WHERE does not AND tenant_id = $1'],
      ['INSERT INTO execution_payloads (tenant_id, execution_id) SELECT $1, id FROM executions', 'a SELECT of executions whose WHERE does not AND tenant_id = $1'],
      ['UPDATE actions a SET description = e.error FROM executions e WHERE a.tenant_id = $1 AND e.action_id = a.id', 'a UPDATE of executions whose WHERE does not AND e.tenant_id = $1'],
      ['DELETE FROM execution_payloads p USING executions e WHERE p.tenant_id = $1 AND p.execution_id = e.id', 'a DELETE of executions whose WHERE does not AND e.tenant_id = $1'],
      // An upsert changes the row already there, whichever tenant's it is, unless tenant_id is part of the conflict.
      ['INSERT INTO actions (tenant_id, id, name) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name', "an INSERT into actions whose ON CONFLICT … DO UPDATE may change another tenant's row: its conflict leaves out tenant_id"],
      ['MERGE INTO actions a USING (SELECT id FROM actions WHERE tenant_id = $1) s ON a.id = s.id WHEN MATCHED THEN DELETE', 'a MERGE statement, which this check does not read'],
    ])('refuses %s', async (text, problem) => {
      expect(await tenantScopeProblems(text)).toContain(problem);
    });
  });

  it('holds for every tenant statement the service declares', async () => {
    // Each module declares its statements when it loads: load every one that declares some.
    const src = join(__dirname, '..');
    const modules = (readdirSync(src, { recursive: true }) as string[]).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && readFileSync(join(src, file), 'utf8').includes('tenantStatement'),
    );
    await Promise.all(modules.map((file) => import(join(src, file))));
    const declared = declaredTenantStatements();
    expect(declared.length).toBeGreaterThanOrEqual(50);
    const problems = await Promise.all(declared.map(async (text) => ({ text, problems: await tenantScopeProblems(text) })));
    expect(problems.filter((statement) => statement.problems.length > 0)).toEqual([]);
  });
});

/**
 * What a tenant's statement (src/tenancy/tenant-statement.ts) must do with its `$1`, checked on PostgreSQL's own
 * parse tree (libpg-query, the server's parser compiled to WebAssembly), where the pattern checked at load time
 * sees only text (docs/architecture.md, "Tenant-scoped queries"):
 * - every read of a table, wherever it sits (the FROM and JOINs of a SELECT, each branch of a UNION, a subquery in
 *   FROM or WHERE, a WITH query's body, the target and the FROM of an UPDATE, the target and the USING of a DELETE,
 *   the SELECT of an INSERT), is constrained in its own query by `tenant_id = $1` ANDed into that query's WHERE,
 *   or into the ON of an inner join around it (of a LEFT JOIN, only its right side). When the query reads more
 *   than one table, the condition names the table it constrains (`e.tenant_id = $1`);
 * - a reference to a WITH query is not a table read: the WITH query's own body is checked like any query, so a
 *   WITH query that reads a table without the condition is refused, whatever the outer query does with it (a
 *   data-modifying one runs in full whether or not its rows are read, and a WITH query's `tenant_id` column need
 *   not be the table's). A name is a WITH query only where PostgreSQL resolves it to one: in the statement that
 *   declares it and below, after its declaration (or anywhere in it, WITH RECURSIVE), and never schema-qualified;
 * - every INSERT writes `$1` into `tenant_id`, in each row of its VALUES or in its SELECT's list, and an
 *   ON CONFLICT … DO UPDATE names `tenant_id` in its conflict (or ANDs `tenant_id = $1` into its WHERE);
 * - no other kind of statement (a MERGE, say) appears;
 * - `tenant_id = $1` appears nowhere else: not under an OR (`(tenant_id = $1 OR true)`), a NOT, a CASE or a
 *   function, where it would not constrain the rows.
 * Gives what is wrong, or nothing.
 */
async function tenantScopeProblems(text: string): Promise<string[]> {
  await loadModule();
  const tree = parseSync(text) as unknown as Node;
  const problems: string[] = [];
  const constraining = new Set<Node>();

  /** Every statement in `value`, each checked with the WITH queries visible where it sits. */
  const walk = (value: unknown, withQueries: ReadonlySet<string>): void => {
    if (Array.isArray(value)) return value.forEach((item) => walk(item, withQueries));
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    const kind = STATEMENTS.find((name) => node[name]);
    if (kind) return checkStatement(node[kind] as Node, kind, withQueries);
    Object.values(node).forEach((item) => walk(item, withQueries));
  };

  const checkStatement = (statement: Node, kind: StatementKind, outer: ReadonlySet<string>): void => {
    const withClause = statement.withClause as Node | undefined;
    const ctes = ((withClause?.ctes as Node[] | undefined) ?? []).map((cte) => cte.CommonTableExpr as Node);
    const names = ctes.map((cte) => cte.ctename as string);
    // A WITH query sees those declared before it (all of them, WITH RECURSIVE); its own name otherwise means the table.
    ctes.forEach((cte, index) => walk(cte.ctequery, new Set([...outer, ...(withClause?.recursive ? names : names.slice(0, index))])));
    const withQueries = new Set([...outer, ...names]);
    const rest = Object.entries(statement).filter(([key]) => key !== 'withClause' && key !== 'larg' && key !== 'rarg');
    // The branches of a UNION, INTERSECT or EXCEPT are queries of their own (without the wrapper a node has).
    if (statement.larg) [statement.larg, statement.rarg].forEach((branch) => checkStatement(branch as Node, kind, withQueries));
    if (kind === 'InsertStmt') checkInsert(statement);
    else checkReads(statement, kind, withQueries);
    rest.forEach(([, item]) => walk(item, withQueries));
  };

  const checkReads = (query: Node, kind: StatementKind, withQueries: ReadonlySet<string>): void => {
    const where = conjunctsOf(query.whereClause as Node | undefined);
    const target = query.relation ? [{ RangeVar: query.relation } as Node] : [];
    const from = [...target, ...((query.fromClause as Node[] | undefined) ?? []), ...((query.usingClause as Node[] | undefined) ?? [])];
    const reads = from.flatMap((item) => readsIn(item, where)).filter((read) => read.schema !== undefined || !withQueries.has(read.table));
    [where, ...reads.map((read) => read.conditions)].flat().filter(isTenantCondition).forEach((condition) => constraining.add(condition));
    for (const read of reads) {
      const qualifiers = read.conditions.filter(isTenantCondition).map(tenantConditionQualifier);
      if (!qualifiers.some((qualifier) => qualifier === read.name || (qualifier === undefined && reads.length === 1))) {
        const named = reads.length === 1 ? 'tenant_id' : `${read.name}.tenant_id`;
        problems.push(`a ${VERB[kind]} of ${read.table} whose WHERE does not AND ${named} = $1`);
      }
    }
  };

  const checkInsert = (insert: Node): void => {
    const relation = (insert.relation as Node).relname as string;
    const column = ((insert.cols as Node[] | undefined) ?? []).findIndex((target) => (target.ResTarget as Node).name === 'tenant_id');
    const source = ((insert.selectStmt as Node | undefined)?.SelectStmt ?? {}) as Node;
    const rows = source.valuesLists
      ? (source.valuesLists as Node[]).map((list) => ((list.List as Node).items as Node[])[column])
      : [((((source.targetList as Node[] | undefined) ?? [])[column]?.ResTarget as Node | undefined)?.val as Node | undefined)];
    if (column < 0 || rows.some((value) => !value || !isFirstParameter(value))) problems.push(`an INSERT into ${relation} that does not write $1 into tenant_id`);
    // The row an ON CONFLICT … DO UPDATE changes is the one already there: of the same tenant only if tenant_id is
    // part of the conflict, or if its WHERE says so.
    const conflict = insert.onConflictClause as Node | undefined;
    if (conflict?.action !== 'ONCONFLICT_UPDATE') return;
    const target = ((conflict.infer as Node | undefined)?.indexElems as Node[] | undefined) ?? [];
    const where = conjunctsOf(conflict.whereClause as Node | undefined).filter(isTenantCondition);
    where.forEach((condition) => constraining.add(condition));
    const name = (((insert.relation as Node).alias as Node | undefined)?.aliasname as string | undefined) ?? relation;
    const tenantOnly = target.some((element) => (element.IndexElem as Node).name === 'tenant_id') || where.some((condition) => [undefined, name].includes(tenantConditionQualifier(condition)));
    if (!tenantOnly) problems.push(`an INSERT into ${relation} whose ON CONFLICT … DO UPDATE may change another tenant's row: its conflict leaves out tenant_id`);
  };

  walk(tree, new Set());
  visit(tree, (node) => {
    const other = Object.keys(node).find((key) => /^[A-Z]\w*Stmt$/.test(key) && !(STATEMENTS as readonly string[]).includes(key));
    if (other) problems.push(`a ${other.slice(0, -'Stmt'.length).toUpperCase()} statement, which this check does not read`);
  });
  // A condition ANDed into an ON is not nested under anything, whatever side of the join it constrains.
  visit(tree, (node) => conjunctsOf((node.JoinExpr as Node | undefined)?.quals as Node | undefined).forEach((condition) => constraining.add(condition)));
  visit(tree, (node) => {
    if (isTenantCondition(node) && !constraining.has(node)) problems.push('a tenant_id = $1 that constrains nothing: under an OR, a NOT, a CASE or a function');
  });
  return [...new Set(problems)];
}

const STATEMENTS = ['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt'] as const;
type StatementKind = (typeof STATEMENTS)[number];
const VERB: Record<StatementKind, string> = { SelectStmt: 'SELECT', InsertStmt: 'INSERT', UpdateStmt: 'UPDATE', DeleteStmt: 'DELETE' };

/** A table a FROM item reads, by the name its query refers to it by, with the conditions that constrain its rows. */
interface Read {
  table: string;
  schema: string | undefined;
  name: string;
  conditions: Node[];
}

/**
 * The tables a FROM item names, joins included (not its subqueries and functions: they are queries of their own),
 * each with the conditions ANDed over it: the query's WHERE, the ON of an inner join around it, the ON of a LEFT
 * JOIN for its right side only (of a RIGHT JOIN, its left), of a FULL JOIN for neither.
 */
function readsIn(item: Node, conditions: Node[]): Read[] {
  const table = item.RangeVar as Node | undefined;
  if (table) {
    const name = ((table.alias as Node | undefined)?.aliasname as string | undefined) ?? (table.relname as string);
    return [{ table: table.relname as string, schema: table.schemaname as string | undefined, name, conditions }];
  }
  const join = item.JoinExpr as Node | undefined;
  if (!join) return [];
  const on = conjunctsOf(join.quals as Node | undefined);
  const [left, right] = [join.jointype === 'JOIN_INNER' || join.jointype === 'JOIN_RIGHT', join.jointype === 'JOIN_INNER' || join.jointype === 'JOIN_LEFT'];
  return [...readsIn(join.larg as Node, left ? [...conditions, ...on] : conditions), ...readsIn(join.rarg as Node, right ? [...conditions, ...on] : conditions)];
}

type Node = Record<string, unknown>;

function visit(value: unknown, each: (node: Node) => void): void {
  if (Array.isArray(value)) value.forEach((item) => visit(item, each));
  else if (value && typeof value === 'object') {
    each(value as Node);
    Object.values(value).forEach((item) => visit(item, each));
  }
}

/** The conditions a WHERE (or ON) ANDs together, nested ANDs and parentheses flattened. */
function conjunctsOf(condition: Node | undefined): Node[] {
  if (!condition) return [];
  const bool = condition.BoolExpr as Node | undefined;
  if (bool?.boolop === 'AND_EXPR') return (bool.args as Node[]).flatMap(conjunctsOf);
  return [condition];
}

function isFirstParameter(value: Node): boolean {
  if (value.TypeCast) return isFirstParameter((value.TypeCast as Node).arg as Node);
  return (value.ParamRef as Node | undefined)?.number === 1;
}

function isTenantColumn(value: Node): boolean {
  const fields = (value.ColumnRef as Node | undefined)?.fields as Node[] | undefined;
  return ((fields?.at(-1)?.String as Node | undefined)?.sval ?? undefined) === 'tenant_id';
}

/** The table a tenant condition names (`e` of `e.tenant_id = $1`), or nothing when it names none. */
function tenantConditionQualifier(condition: Node): string | undefined {
  const expression = condition.A_Expr as Node;
  const column = [expression.lexpr as Node, expression.rexpr as Node].find(isTenantColumn) as Node;
  const fields = (column.ColumnRef as Node).fields as Node[];
  return fields.length > 1 ? ((fields.at(-2)?.String as Node).sval as string) : undefined;
}

/** `tenant_id = $1` (or `e.tenant_id = $1::uuid`, or the other way round): the node itself, an A_Expr. */
function isTenantCondition(node: Node): boolean {
  const expression = node.A_Expr as Node | undefined;
  if (!expression || expression.kind !== 'AEXPR_OP' || ((expression.name as Node[])[0].String as Node).sval !== '=') return false;
  const [left, right] = [expression.lexpr as Node, expression.rexpr as Node];
  return (isTenantColumn(left) && isFirstParameter(right)) || (isFirstParameter(left) && isTenantColumn(right));
}
