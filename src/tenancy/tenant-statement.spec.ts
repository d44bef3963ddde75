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
    expect(declared.length).toBeGreaterThanOrEqual(30);
    const problems = await Promise.all(declared.map(async (text) => ({ text, problems: await tenantScopeProblems(text) })));
    expect(problems.filter((statement) => statement.problems.length > 0)).toEqual([]);
  });
});

/**
 * What a tenant's statement (src/tenancy/tenant-statement.ts) must do with its `$1`, checked on PostgreSQL's own
 * parse tree (libpg-query, the server's parser compiled to WebAssembly), where the pattern checked at load time
 * sees only text:
 * - every SELECT, UPDATE and DELETE that reads a table (not a WITH query of the same statement) has
 *   `tenant_id = $1` as one of the conditions its WHERE ANDs together;
 * - every INSERT writes `$1` into `tenant_id`, in each row of its VALUES or in its SELECT's list;
 * - `tenant_id = $1` appears nowhere else: not under an OR (`(tenant_id = $1 OR true)`), a NOT, a CASE or a
 *   function, where it would not constrain the rows.
 * Gives what is wrong, or nothing.
 */
async function tenantScopeProblems(text: string): Promise<string[]> {
  await loadModule();
  const tree = parseSync(text) as unknown as Node;
  const withQueries = new Set<string>();
  visit(tree, (node) => {
    const cte = node.CommonTableExpr as Node | undefined;
    if (cte && typeof cte.ctename === 'string') withQueries.add(cte.ctename);
  });
  const problems: string[] = [];
  const constraining = new Set<Node>();
  const checkQuery = (query: Node, kind: string): void => {
    // The branches of a UNION, INTERSECT or EXCEPT are queries of their own (without the wrapper a node has).
    if (query.larg) [query.larg, query.rarg].forEach((branch) => checkQuery(branch as Node, kind));
    const tables = [...((query.fromClause as Node[] | undefined) ?? []), ...(query.relation ? [{ RangeVar: query.relation }] : [])].flatMap(tablesIn);
    const conjuncts = conjunctsOf(query.whereClause as Node | undefined);
    conjuncts.filter(isTenantCondition).forEach((condition) => constraining.add(condition));
    const read = tables.filter((table) => !withQueries.has(table));
    if (read.length > 0 && !conjuncts.some(isTenantCondition)) problems.push(`a ${kind} of ${read.join(', ')} whose WHERE does not AND tenant_id = $1`);
  };
  visit(tree, (node) => {
    const query = (node.SelectStmt ?? node.UpdateStmt ?? node.DeleteStmt) as Node | undefined;
    if (query) checkQuery(query, node.SelectStmt ? 'SELECT' : node.UpdateStmt ? 'UPDATE' : 'DELETE');
    const join = node.JoinExpr as Node | undefined;
    if (join) conjunctsOf(join.quals as Node | undefined).filter(isTenantCondition).forEach((condition) => constraining.add(condition));
    const insert = node.InsertStmt as Node | undefined;
    if (insert) {
      const relation = (insert.relation as Node).relname as string;
      const column = ((insert.cols as Node[] | undefined) ?? []).findIndex((target) => (target.ResTarget as Node).name === 'tenant_id');
      const source = ((insert.selectStmt as Node | undefined)?.SelectStmt ?? {}) as Node;
      const rows = source.valuesLists
        ? (source.valuesLists as Node[]).map((list) => ((list.List as Node).items as Node[])[column])
        : [((((source.targetList as Node[] | undefined) ?? [])[column]?.ResTarget as Node | undefined)?.val as Node | undefined)];
      if (column < 0 || rows.some((value) => !value || !isFirstParameter(value))) problems.push(`an INSERT into ${relation} that does not write $1 into tenant_id`);
    }
  });
  visit(tree, (node) => {
    if (isTenantCondition(node) && !constraining.has(node)) problems.push('a tenant_id = $1 that constrains nothing: under an OR, a NOT, a CASE or a function');
  });
  return [...new Set(problems)];
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

/** The tables a FROM names (joins included), not the subqueries and functions it reads. */
function tablesIn(item: Node): string[] {
  if (item.RangeVar) return [(item.RangeVar as Node).relname as string];
  const join = item.JoinExpr as Node | undefined;
  return join ? [...tablesIn(join.larg as Node), ...tablesIn(join.rarg as Node)] : [];
}

function isFirstParameter(value: Node): boolean {
  if (value.TypeCast) return isFirstParameter((value.TypeCast as Node).arg as Node);
  return (value.ParamRef as Node | undefined)?.number === 1;
}

function isTenantColumn(value: Node): boolean {
  const fields = (value.ColumnRef as Node | undefined)?.fields as Node[] | undefined;
  return ((fields?.at(-1)?.String as Node | undefined)?.sval ?? undefined) === 'tenant_id';
}

/** `tenant_id = $1` (or `e.tenant_id = $1::uuid`, or the other way round): the node itself, an A_Expr. */
function isTenantCondition(node: Node): boolean {
  const expression = node.A_Expr as Node | undefined;
  if (!expression || expression.kind !== 'AEXPR_OP' || ((expression.name as Node[])[0].String as Node).sval !== '=') return false;
  const [left, right] = [expression.lexpr as Node, expression.rexpr as Node];
  return (isTenantColumn(left) && isFirstParameter(right)) || (isFirstParameter(left) && isTenantColumn(right));
}
