import type { DataSource } from 'typeorm';
import type { DatabasePool } from '../database/database-pool';
import { globalStatement, Reason } from '../database/statement';
import { TenantScopedRepository } from './tenant-scoped-repository';
import { tenantStatement } from './tenant-statement';
import { Tenant } from './tenant.entity';

/**
 * The ways around tenant scoping that the compiler now refuses (each `@ts-expect-error` fails `npm run typecheck`
 * the day the line compiles) and what is refused at run time. Lint's share is in tenant-scoping-lint.spec.ts.
 */
describe('tenant scoping', () => {
  const table = () => TenantScopedRepository.of({ getRepository: () => ({}) } as unknown as DataSource, Tenant as never);

  it('refuses a query across tenants without a reason: an empty one does not compile, an empty or blank one throws', () => {
    // @ts-expect-error: '' is no reason
    expect(() => table().acrossTenants('')).toThrow('A query about no one tenant says why: the reason is empty');
    // @ts-expect-error: nor is a blank one
    expect(() => table().acrossTenants('   ')).toThrow('the reason is empty');
    const unknownReason: string = '';
    // @ts-expect-error: nor a string the compiler cannot see
    expect(() => table().acrossTenants(unknownReason)).toThrow('the reason is empty');
    // Declared a reason, it still throws when it runs.
    expect(() => table().acrossTenants(unknownReason as Reason)).toThrow('the reason is empty');
    expect(table().acrossTenants('pruning ends every tenant\'s expired rows')).toEqual({});
  });

  it('gives a whole table without the members that run SQL of the caller\'s or reach past the table', () => {
    const whole = table().acrossTenants('a row found by its own unguessable id');
    // @ts-expect-error: no `query` on a whole table
    expect(whole.query).toBeUndefined();
    // @ts-expect-error: no `manager` either (nor createQueryBuilder, queryRunner)
    expect(whole.manager).toBeUndefined();
  });

  it('refuses a statement across tenants without a reason, at compile time and when its module loads', () => {
    // @ts-expect-error: '' is no reason
    expect(() => globalStatement('', 'SELECT 1')).toThrow('the reason is empty');
    // @ts-expect-error: nor with the statement's types given explicitly
    expect(() => globalStatement<[id: string], { id: string }>('', 'SELECT id FROM tenants WHERE id = $1')).toThrow('the reason is empty');
    // @ts-expect-error: nor a blank one
    expect(() => globalStatement<[]>(' ', 'SELECT 1')).toThrow('the reason is empty');
    expect(() => globalStatement<[]>(' ' as Reason, 'SELECT 1')).toThrow('the reason is empty');
    expect(globalStatement('the read model\'s counter', 'SELECT 1')).toEqual({ text: 'SELECT 1', acrossTenants: 'the read model\'s counter' });
  });

  it('runs only declared statements: an object with a `text` is not one', async () => {
    const calls: unknown[] = [];
    const query = (async (statement: unknown) => {
      calls.push(statement);
      return [];
    }) as unknown as DatabasePool['query'];
    // @ts-expect-error: not declared through tenantStatement or globalStatement
    await query({ text: 'SELECT * FROM executions' }, []);
    // @ts-expect-error: nor with the fields a declared one has
    await query({ text: 'SELECT * FROM executions', acrossTenants: 'all of them' }, []);
    await query(tenantStatement('SELECT * FROM executions WHERE tenant_id = $1'), [undefined as never]);
    expect(calls).toHaveLength(3);
  });
});
