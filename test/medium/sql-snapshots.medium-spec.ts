import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { Client } from 'pg';
import { format } from 'sql-formatter';
import ts from 'typescript';
import { ConsoleAuthModule } from '../../src/console-auth/console-auth.module';
import { DummyValue, sqlExamples } from '../../src/database/generate-sql';
import { LogPartitionsRepository } from '../../src/executions/log-partitions.repository';
import { startServices, Services } from '../support/medium';

/**
 * The SQL each repository method sends, kept in src/queries/ (immich's @GenerateSql): every public method of a
 * `*.repository.ts` class is called with its `@GenerateSql` arguments on the worker's real database, the
 * statements it sends are recorded at the driver (pg's Client, which TypeORM and DatabasePool both use), and
 * the files must be what the code sends now. `npm run sql` (UPDATE_SQL_SNAPSHOTS=1) rewrites them.
 */
const ROOT = join(__dirname, '../..');
const QUERIES = join(ROOT, 'src/queries');
const UPDATE = process.env.UPDATE_SQL_SNAPSHOTS === '1';
const LIFECYCLE = new Set(['onModuleInit', 'onModuleDestroy', 'onApplicationBootstrap', 'beforeApplicationShutdown', 'onApplicationShutdown']);

interface RepositorySource {
  file: string;
  className: string;
  /** Public methods, in the order the class declares them. */
  methods: string[];
}

function repositorySources(dir = join(ROOT, 'src')): RepositorySource[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return repositorySources(path);
    return entry.name.endsWith('.repository.ts') ? classesOf(path) : [];
  });
}

/** The exported classes of a file with their public methods, read from the source (TS `private` is not visible at run time). */
function classesOf(file: string): RepositorySource[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return source.statements.filter(ts.isClassDeclaration).flatMap((declaration) => {
    const exported = ts.getModifiers(declaration)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported || !declaration.name) return [];
    const methods = declaration.members.filter(ts.isMethodDeclaration).flatMap((member) => {
      const hidden = ts.getModifiers(member)?.some((modifier) => [ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword, ts.SyntaxKind.StaticKeyword].includes(modifier.kind));
      const name = member.name.getText(source);
      return hidden || LIFECYCLE.has(name) || ts.isPrivateIdentifier(member.name) ? [] : [name];
    });
    return [{ file, className: declaration.name.text, methods }];
  });
}

/** What `call` sent to the database, statement by statement (queries of anything else running meanwhile are not its). */
const recording = new AsyncLocalStorage<string[]>();
function recordStatements(): jest.SpiedFunction<Client['query']> {
  const original = Client.prototype.query;
  return jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const statement = args[0] as string | { text?: string };
    recording.getStore()?.push(typeof statement === 'string' ? statement : (statement.text ?? ''));
    return (original as (...all: unknown[]) => unknown).apply(this, args);
  } as Client['query']);
}

async function statementsOf(call: () => Promise<unknown>): Promise<{ statements: string[]; failure?: string }> {
  const statements: string[] = [];
  try {
    await recording.run(statements, call);
    return { statements };
  } catch (error) {
    // The SQLSTATE (or the error's kind): a message may carry values, and the file must not change with them.
    const code = (error as { code?: string; driverError?: { code?: string } }).driverError?.code ?? (error as { code?: string }).code;
    return { statements, failure: code ?? (error as Error).constructor.name };
  }
}

function render(repository: RepositorySource, sections: string[]): string {
  const header = [
    `-- The statements each method of ${repository.className} (${relative(ROOT, repository.file)}) sends, in order.`,
    '-- Written by `npm run sql` (test/medium/sql-snapshots.medium-spec.ts, immich\'s @GenerateSql): do not edit.',
  ];
  return `${[header.join('\n'), ...sections].join('\n\n')}\n`;
}

function section(title: string, { statements, failure }: { statements: string[]; failure?: string }): string {
  const lines = [`-- ${title}`, ...statements.map((statement) => `${format(statement, { language: 'postgresql' })};`)];
  if (failure) lines.push(`-- (then failed: ${failure})`);
  return lines.join('\n');
}

describe('SQL snapshots of the repositories (src/queries/)', () => {
  let services: Services;
  /** Calls `method`, inside the log upkeep's `withConnection` when an argument stands for its connection (DummyValue.CONNECTION). */
  const call = (instance: Record<string, (...args: unknown[]) => Promise<unknown>>, method: string, params: readonly unknown[]) =>
    params.includes(DummyValue.CONNECTION)
      ? services.get(LogPartitionsRepository).withConnection((connection) => instance[method](...params.map((param) => (param === DummyValue.CONNECTION ? connection : param))))
      : instance[method](...params);
  const repositories = repositorySources().sort((one, other) => one.file.localeCompare(other.file));
  const fileOf = (repository: RepositorySource) => join(QUERIES, `${basename(repository.file, '.ts')}.sql`);

  beforeAll(async () => {
    // No asynchronous executions run here: their worker's polls, waiting for the one connection of the embedded
    // database, would be sent in the context of whichever recorded method let it go.
    services = await startServices({ ASYNC_EXECUTION_CONCURRENCY: '0' }, [ConsoleAuthModule]);
    // What an earlier run on this database left (a run that stopped half-way, or a server database used again).
    await deleteExampleTenants();
    // now() has microseconds on PostgreSQL: the lists' positions are exact, so other files walking the tenant list
    // meanwhile list it like any other.
    await services.dataSource.query(`INSERT INTO tenants (id, name, status, created_at, updated_at) VALUES ($1, 'sql-snapshots', 'active', now(), now())`, [DummyValue.TENANT_ID]);
  });
  afterAll(async () => {
    if (services) await deleteExampleTenants();
    await services?.close();
  });

  /**
   * The examples' tenants and every row of theirs: deleting a tenant cascades to its actions, keys and sessions,
   * but the delivery log's tables (partitioned, without foreign keys) keep theirs, and an example that inserts
   * with a fixed id (a bulk replay's) would fail the next run on the same database.
   */
  async function deleteExampleTenants(): Promise<void> {
    const tenants = [DummyValue.TENANT_ID, DummyValue.OTHER_TENANT_ID];
    for (const table of ['execution_replays', 'idempotency_keys', 'execution_payloads', 'executions', 'execution_stats_hourly', 'execution_stats_daily']) {
      await services.dataSource.query(`DELETE FROM ${table} WHERE tenant_id = ANY($1)`, [tenants]);
    }
    await services.dataSource.query('DELETE FROM tenants WHERE id = ANY($1)', [tenants]);
  }

  it('finds the repositories', () => {
    expect(repositories.map((repository) => repository.className)).toEqual(expect.arrayContaining(['ActionsRepository', 'ApiTokensRepository', 'HmacKeysRepository']));
  });

  it('has a @GenerateSql example for every public method of every repository', async () => {
    const missing: string[] = [];
    for (const repository of repositories) {
      const type = (await import(repository.file))[repository.className];
      const examples = sqlExamples(type);
      for (const method of repository.methods) if (!examples.has(method)) missing.push(`${repository.className}.${method}`);
    }
    expect(missing).toEqual([]);
  });

  it('keeps src/queries/ what each method sends now (`npm run sql` rewrites it)', async () => {
    const spy = recordStatements();
    const differing: string[] = [];
    try {
      for (const repository of repositories) {
        const type = (await import(repository.file))[repository.className];
        const instance = services.get(type) as Record<string, (...args: unknown[]) => Promise<unknown>>;
        const sections: string[] = [];
        for (const method of repository.methods) {
          for (const example of sqlExamples(type).get(method) ?? []) {
            const title = `${repository.className}.${method}${example.name ? ` (${example.name})` : ''}`;
            sections.push(section(title, await statementsOf(() => call(instance, method, example.params))));
          }
        }
        const text = render(repository, sections);
        const file = fileOf(repository);
        if (UPDATE) {
          mkdirSync(QUERIES, { recursive: true });
          writeFileSync(file, text);
        } else if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
          differing.push(`${relative(ROOT, file)} differs from what the code sends:\n${text}`);
        }
      }
    } finally {
      spy.mockRestore();
    }
    const expected = new Set(repositories.map((repository) => basename(fileOf(repository))));
    const stale = existsSync(QUERIES) ? readdirSync(QUERIES).filter((name) => !expected.has(name)) : [];
    if (UPDATE) for (const name of stale) rmSync(join(QUERIES, name));
    else differing.push(...stale.map((name) => `src/queries/${name} belongs to no repository`));
    // Run `npm run sql` and review the diff of src/queries/.
    expect(differing).toEqual([]);
  });
});
