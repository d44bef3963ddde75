import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/**
 * Lints `snippets` with the project's own eslint.config.mjs, each as if it were the file at its path, and gives the
 * rules each one breaks. ESLint loads that ES module config with import(), which jest's CommonJS runtime cannot
 * do, so the ESLint API runs in a child Node.js (one for all the snippets).
 */
function rulesBroken(snippets: Record<string, { path: string; code: string }>): Record<string, string[]> {
  const script = `
    const { ESLint } = require('eslint');
    (async () => {
      const snippets = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
      const eslint = new ESLint({ cwd: ${JSON.stringify(root)} });
      const broken = {};
      for (const [name, { path, code }] of Object.entries(snippets)) {
        const [result] = await eslint.lintText(code, { filePath: path });
        broken[name] = [...new Set(result.messages.map((message) => message.ruleId ?? message.message))].sort();
      }
      process.stdout.write(JSON.stringify(broken));
    })();`;
  const run = spawnSync(process.execPath, ['-e', script], { cwd: root, input: JSON.stringify(snippets), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, string[]>;
}

const feature = 'src/executions/new-feature.repository.ts';
const injected = (imports: string, body: string) => `
import { Injectable } from '@nestjs/common';
${imports}
import { TenantId } from '../common/tenant-id';
import { Execution } from './execution.entity';

export const ENTITY = Execution;

@Injectable()
export class NewFeatureRepository {
  constructor(private readonly dataSource: DataSource) {}

  run(tenantId: TenantId, id: string): Promise<unknown> {
    ${body}
  }
}
`;

describe('lint refuses the ways around tenant scoping that compile', () => {
  let broken: Record<string, string[]>;
  beforeAll(() => {
    broken = rulesBroken({
      dataSourceQuery: { path: feature, code: injected("import { DataSource } from 'typeorm';", "return this.dataSource.query('SELECT * FROM executions WHERE id = $1', [id]);") },
      managerFindOneBy: { path: feature, code: injected("import { DataSource } from 'typeorm';", 'return this.dataSource.manager.findOneBy(Execution, { id });') },
      createQueryBuilder: {
        path: feature,
        code: injected("import { DataSource } from 'typeorm';", "return this.dataSource.createQueryBuilder(Execution, 'e').where('e.id = :id', { id }).getOne();"),
      },
      typeOnlyImport: { path: feature, code: injected("import type { DataSource } from 'typeorm';", 'return Promise.resolve([tenantId, id]);') },
      injectedDataSource: {
        path: feature,
        code: injected("import { InjectDataSource } from '@nestjs/typeorm';\nimport { DataSource } from 'typeorm';", 'return Promise.resolve([tenantId, id, InjectDataSource]);'),
      },
      injectedRepository: {
        path: feature,
        code: injected("import { InjectRepository } from '@nestjs/typeorm';\nimport { DataSource, Repository } from 'typeorm';", 'return Promise.resolve([tenantId, id, InjectRepository, {} as Repository<Execution>]);'),
      },
      entityManager: { path: feature, code: "import { EntityManager } from 'typeorm';\nexport const find = (manager: EntityManager, id: string) => manager.query('SELECT 1', [id]);\n" },
      untypedQuery: { path: feature, code: "export const find = (dataSource: { query(text: string): Promise<unknown> }) => dataSource.query('SELECT * FROM executions');\n" },
      castStatement: {
        path: 'src/executions/new-feature.sql.ts',
        code: "import { Statement } from '../database/statement';\nexport const ALL_SQL = { text: 'SELECT * FROM executions' } as unknown as Statement<[]>;\n",
      },
      // What feature code does write: a table through TenantTables, a declared statement through DatabasePool.
      scoped: {
        path: feature,
        code: `
import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { DatabasePool } from '../database/database-pool';
import { tenantStatement } from '../tenancy/tenant-statement';
import { TenantTables } from '../tenancy/tenant-tables';
import { Execution } from './execution.entity';

const COUNT_SQL = tenantStatement<[], { count: number }>('SELECT count(*)::int AS count FROM executions WHERE tenant_id = $1');

@Injectable()
export class NewFeatureRepository {
  constructor(private readonly tables: TenantTables, private readonly pool: DatabasePool) {}

  async run(tenantId: TenantId, id: string): Promise<unknown> {
    return [await this.tables.of(Execution).for(tenantId).findOneBy({ id, error: IsNull() }), await this.pool.query(COUNT_SQL, [tenantId])];
  }
}
`,
      },
      // The one module that holds the data source for everyone else.
      tenantTables: { path: 'src/tenancy/tenant-tables.ts', code: injected("import { DataSource } from 'typeorm';", 'return this.dataSource.transaction(async () => [tenantId, id]);') },
    });
  });

  it('refuses a data source, an entity manager or a repository in feature code, and what reaches SQL through them', () => {
    expect(broken.dataSourceQuery).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(broken.managerFindOneBy).toEqual(['@typescript-eslint/no-restricted-imports', 'no-restricted-properties']);
    expect(broken.createQueryBuilder).toEqual(['@typescript-eslint/no-restricted-imports', 'no-restricted-properties']);
    expect(broken.typeOnlyImport).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(broken.injectedDataSource).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(broken.injectedRepository).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(broken.entityManager).toEqual(['@typescript-eslint/no-restricted-imports', 'no-restricted-properties']);
    expect(broken.untypedQuery).toEqual(['no-restricted-properties']);
  });

  it('refuses a statement made by a cast', () => {
    expect(broken.castStatement).toEqual(['no-restricted-syntax']);
  });

  it('passes a repository that reaches its rows through TenantTables and DatabasePool, and the module that holds the data source', () => {
    expect(broken.scoped).toEqual([]);
    expect(broken.tenantTables).toEqual([]);
  });
});
