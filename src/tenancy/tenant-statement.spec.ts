import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tenantScopeProblems } from '../../test/support/tenant-scope';
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
