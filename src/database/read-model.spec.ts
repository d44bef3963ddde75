import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { DatabasePool } from './database-pool';
import { EmbeddedDatabaseService } from './embedded-database.service';
import { ReadModel } from './read-model';
import { JsonRow } from './read-through-cache';
import { globalStatement } from './statement';
import { tracingSettings } from '../config/tracing-config';
import { Tracing } from '../tracing/tracing';

/** Tracing as an environment without OTEL_* variables configures it: off. */
const tracingOff = (metrics = new Metrics()) =>
  new Tracing(
    {
      tracing: tracingSettings({}, () => undefined, () => undefined),
    } as AppConfig,
    metrics,
  );


interface Entry {
  position: number;
  previous: number;
  table_name: string;
  keys: string[] | null;
}

/**
 * The database as the read model sees it: a change log, and rows each load reads. Statements are answered when
 * the test says so (`answer`), in any order, as a pool of several connections would.
 */
class FakeDatabase {
  log: Entry[] = [];
  readonly rows = new Map<string, JsonRow[]>();
  readonly statements: { sql: string; parameters: unknown[]; sentAt: number; answer: (log?: Entry[]) => void }[] = [];
  failNext?: Error;
  /** The parameters of every statement sent. */
  readonly sent: unknown[][] = [];
  /**
   * An embedded database this process runs counts the jobs it runs (EmbeddedDatabaseService.jobsRun): here a
   * statement's job runs when it is answered, and a commit is a job. Off: a PostgreSQL server (undefined).
   */
  embedded = false;
  jobs = 0;
  readonly service = { jobsRun: () => (this.embedded ? this.jobs : undefined) } as unknown as EmbeddedDatabaseService;

  readonly pool = {
    query: ({ text: sql }: { text: string }, parameters: unknown[]) =>
      new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const failure = this.failNext;
        this.failNext = undefined;
        this.sent.push(parameters);
        this.statements.push({
          sql,
          parameters,
          sentAt: performance.now(),
          // The snapshot is taken when answered (what is committed by then), or is the log given.
          answer: (log = this.log) => {
            this.jobs++;
            if (failure) reject(failure);
            else resolve([this.row(sql, parameters, log)]);
          },
        });
      }),
  } as unknown as DatabasePool;

  get latest(): number {
    return latestOf(this.log);
  }

  /** A committed change of `table`: `keys` null for "everything". */
  commit(table: string, keys: string[] | null): number {
    const previous = this.latest;
    this.jobs++;
    this.log.push({ position: previous + 1, previous, table_name: table, keys });
    return previous + 1;
  }

  /** Deletes every entry but the newest. */
  prune(): void {
    this.log = this.log.slice(-1);
  }

  /** Answers every statement sent so far, oldest first. */
  async answerAll(): Promise<void> {
    while (this.statements.length > 0) this.statements.shift()!.answer();
    await settled();
  }

  private row(sql: string, parameters: unknown[], log: Entry[]): Record<string, unknown> {
    const from = parameters[0] as number;
    const changes = log.filter((entry) => entry.position > from).slice(0, 100);
    const row: Record<string, unknown> = { latest: String(latestOf(log)), changes: changes.length > 0 ? changes : null };
    // One column per kind of load: its statement's table, and the keys of the array parameter.
    const kinds = sql.split('(SELECT json_agg(json_build_array(k.key, (SELECT json_agg(r) FROM (').slice(1);
    kinds.forEach((kind, index) => {
      const table = /FROM (\w+)/.exec(kind)![1];
      const keys = parameters[index + 1] as string[];
      row[`k${index}`] = keys.map((key) => [key, this.rows.get(`${table}:${key}`) ?? null]);
    });
    return row;
  }
}

const latestOf = (log: Entry[]) => (log.length > 0 ? log[log.length - 1].position : 0);
const settled = () => new Promise((resolve) => setImmediate(resolve));
const tenant = '00000000-0000-4000-8000-000000000001';
const other = '00000000-0000-4000-8000-000000000002';
const token = '00000000-0000-4000-8000-000000000003';

function setUp(entryBytes = 100, { embedded = false } = {}) {
  const database = new FakeDatabase();
  database.embedded = embedded;
  const metrics = new Metrics();
  const model = new ReadModel(database.pool, metrics, { readModelCacheMb: 1 } as AppConfig, tracingOff(metrics), database.service);
  const statuses = model.cache<string, string | null>({
    name: 'tenants',
    table: 'tenants',
    sizeOf: () => entryBytes,
    query: { statement: globalStatement<[key: string]>('a test', 'SELECT status FROM tenants WHERE id = $1'), decode: (rows) => (rows[0]?.status as string | undefined) ?? null },
  });
  const actions = model.cache<string, string[]>({
    name: 'actions',
    table: 'actions',
    sizeOf: () => entryBytes,
    query: { statement: globalStatement<[key: string]>('a test', 'SELECT name FROM actions WHERE tenant_id = $1'), decode: (rows) => rows.map((row) => row.name as string) },
    loadsWith: 'tenants',
  });
  const standings = model.cache<string, string | null>({
    name: 'api_tokens',
    table: 'api_tokens',
    sizeOf: () => entryBytes,
    query: { statement: globalStatement<[key: string]>('a test', 'SELECT tenant_id FROM api_tokens WHERE id = $1'), decode: (rows) => (rows[0]?.tenant_id as string | undefined) ?? null },
  });
  const resets = async () => (await metrics.registry.getSingleMetric('read_model_resets_total')!.get()).values[0]?.value ?? 0;
  return { database, model, statuses, actions, standings, resets };
}

/** What `read` resolves to once every statement it sends has been answered. */
async function answered<T>(database: FakeDatabase, read: Promise<T>): Promise<T> {
  let done = false;
  read.then(
    () => (done = true),
    () => (done = true),
  );
  for (let round = 0; round < 10 && !done; round++) {
    await settled();
    await database.answerAll();
  }
  return read;
}

describe('ReadModel: one statement, the change log, and what memory may answer', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('answers each load of a statement with its own key’s rows: two tenants’ actions read together stay apart', async () => {
    const { database, actions } = setUp();
    database.rows.set(`actions:${tenant}`, [{ name: 'of the tenant' }]);
    database.rows.set(`actions:${other}`, [{ name: 'of the other' }]);
    expect(await answered(database, Promise.all([actions.get(tenant), actions.get(other)]))).toEqual([['of the tenant'], ['of the other']]);
    expect(database.sent.map((parameters) => parameters.slice(1))).toEqual([[[tenant, other]]]);
  });

  it('loads what is missing in one statement, with what is loaded along with it, and keeps it', async () => {
    const { database, statuses, actions, standings } = setUp();
    database.rows.set(`tenants:${tenant}`, [{ status: 'active' }]);
    database.rows.set(`actions:${tenant}`, [{ name: 'a' }, { name: 'b' }]);
    database.rows.set(`api_tokens:${token}`, [{ tenant_id: tenant }]);
    const [standing, status] = await answered(database, Promise.all([standings.get(token), statuses.get(tenant)]));
    expect([standing, status]).toEqual([tenant, 'active']);
    // One statement: the token's standing, the tenant's status, and its actions along with it.
    expect(database.sent.map((parameters) => parameters.slice(1))).toEqual([[[token], [tenant], [tenant]]]);

    // The tenant's actions came in the same statement; the next request needs one statement, and no load.
    database.rows.clear();
    expect(database.sent).toHaveLength(1);
    expect(await answered(database, actions.get(tenant, performance.now()))).toEqual(['a', 'b']);
    expect(database.sent.slice(1)).toEqual([[0]]); // the change log only
  });

  it('answers from memory only after a statement sent after the request arrived', async () => {
    const { database, statuses } = setUp();
    database.rows.set(`tenants:${tenant}`, [{ status: 'active' }]);
    await answered(database, statuses.get(tenant));
    const arrived = performance.now();
    const read = statuses.get(tenant, arrived);
    await settled();
    expect(database.statements).toHaveLength(1);
    expect(database.statements[0].sentAt).toBeGreaterThanOrEqual(arrived);
    // A change committed meanwhile, before the statement's snapshot: the answer holds it.
    database.commit('tenants', [tenant]);
    database.rows.set(`tenants:${tenant}`, [{ status: 'disabled' }]);
    await database.answerAll();
    await settled();
    await database.answerAll();
    expect(await read).toBe('disabled');
  });

  it('on the embedded database it runs, asks nothing while no job has run since its last statement ran alone', async () => {
    const { database, statuses } = setUp(100, { embedded: true });
    database.rows.set(`tenants:${tenant}`, [{ status: 'active' }]);
    await answered(database, statuses.get(tenant));
    const sent = database.sent.length;
    for (let i = 0; i < 3; i++) expect(await statuses.get(tenant, performance.now())).toBe('active');
    expect(database.sent).toHaveLength(sent);
    // Anything run on the database since (here a commit): the next request's statement reads it.
    database.commit('tenants', [tenant]);
    database.rows.set(`tenants:${tenant}`, [{ status: 'disabled' }]);
    expect(await answered(database, statuses.get(tenant, performance.now()))).toBe('disabled');
    const afterChange = database.sent.length;
    expect(afterChange).toBeGreaterThan(sent);
    expect(await statuses.get(tenant, performance.now())).toBe('disabled');
    expect(database.sent).toHaveLength(afterChange);
  });

  it('on the embedded database, a statement that did not run alone leaves the next request its own statement', async () => {
    const { database, statuses } = setUp(100, { embedded: true });
    database.rows.set(`tenants:${tenant}`, [{ status: 'active' }]);
    await answered(database, statuses.get(tenant));
    database.commit('tenants', []);
    const read = statuses.get(tenant, performance.now());
    await settled();
    database.jobs++; // another connection's job, run while the statement was out: it may have committed after it
    await database.answerAll();
    expect(await read).toBe('active');
    const sent = database.sent.length;
    expect(await answered(database, statuses.get(tenant, performance.now()))).toBe('active');
    expect(database.sent).toHaveLength(sent + 1);
  });

  it('on a PostgreSQL server, every request still has a statement sent after it arrived', async () => {
    const { database, statuses } = setUp();
    database.rows.set(`tenants:${tenant}`, [{ status: 'active' }]);
    await answered(database, statuses.get(tenant));
    const sent = database.sent.length;
    expect(await answered(database, statuses.get(tenant, performance.now()))).toBe('active');
    expect(database.sent).toHaveLength(sent + 1);
  });

  it('shares one statement among requests that arrived before it was sent', async () => {
    const { database, statuses } = setUp();
    database.rows.set(`tenants:${tenant}`, [{ status: 'active' }]);
    await answered(database, statuses.get(tenant));
    const arrived = performance.now();
    const reads = Array.from({ length: 5 }, () => statuses.get(tenant, arrived));
    await settled();
    expect(database.statements).toHaveLength(1);
    await database.answerAll();
    expect(await Promise.all(reads)).toEqual(Array(5).fill('active'));
    // Arrived before that statement was sent: memory, no statement.
    expect(await statuses.get(tenant, arrived)).toBe('active');
    expect(database.statements).toHaveLength(0);
  });

  it('drops what each entry of the log names, and a whole table for an entry without keys', async () => {
    const { database, statuses, actions } = setUp();
    for (const id of [tenant, other]) {
      database.rows.set(`tenants:${id}`, [{ status: 'active' }]);
      database.rows.set(`actions:${id}`, [{ name: 'old' }]);
      await answered(database, statuses.get(id));
    }
    database.commit('actions', [tenant]);
    database.rows.set(`actions:${tenant}`, [{ name: 'new' }]);
    database.rows.set(`actions:${other}`, [{ name: 'also new' }]);
    expect(await answered(database, actions.get(tenant))).toEqual(['new']);
    expect(await answered(database, actions.get(other))).toEqual(['old']); // not named: kept

    database.commit('actions', null);
    expect(await answered(database, actions.get(other))).toEqual(['also new']);
    database.rows.set(`tenants:${other}`, [{ status: 'disabled' }]);
    expect(await answered(database, statuses.get(other))).toBe('active'); // another table: kept
  });

  it('forgets everything when an entry it never read was pruned (a gap), rather than skip it', async () => {
    const { database, statuses, actions, resets } = setUp();
    database.rows.set(`tenants:${tenant}`, [{ status: 'active' }]);
    database.rows.set(`actions:${tenant}`, [{ name: 'old' }]);
    await answered(database, statuses.get(tenant));
    database.commit('actions', [tenant]);
    database.commit('tenants', [other]);
    database.prune(); // only the second is left: its predecessor was never read
    database.rows.set(`actions:${tenant}`, [{ name: 'new' }]);
    const before = await resets();
    expect(await answered(database, actions.get(tenant))).toEqual(['new']);
    expect(await resets()).toBe(before + 1);
    // And from then on, in step again: memory.
    expect(await answered(database, actions.get(tenant))).toEqual(['new']);
    expect(database.statements).toHaveLength(0);
  });

  it('forgets everything when more changes are pending than one statement reads', async () => {
    const { database, statuses } = setUp();
    database.rows.set(`tenants:${tenant}`, [{ status: 'active' }]);
    await answered(database, statuses.get(tenant));
    for (let index = 0; index < 150; index++) database.commit('api_tokens', [token]);
    database.rows.set(`tenants:${tenant}`, [{ status: 'disabled' }]);
    expect(await answered(database, statuses.get(tenant))).toBe('disabled');
  });

  it('keeps a load only if its statement saw every change applied so far', async () => {
    const { database, statuses } = setUp();
    await answered(database, statuses.get(other));
    database.rows.set(`tenants:${tenant}`, [{ status: 'active' }]);
    const before = [...database.log];
    // A load is sent; a change is committed; a later statement applies it and is answered first; then the load
    // comes back with the row as it was before the change.
    const stale = statuses.get(tenant);
    await settled();
    const [load] = database.statements.splice(0);
    database.commit('tenants', [tenant]);
    database.rows.set(`tenants:${tenant}`, [{ status: 'disabled' }]);
    await answered(database, statuses.get(other, performance.now()));
    database.rows.set(`tenants:${tenant}`, [{ status: 'active' }]);
    load.answer(before);
    expect(await stale).toBe('active'); // what that request was answered: fresh for it
    database.rows.set(`tenants:${tenant}`, [{ status: 'disabled' }]);
    expect(await answered(database, statuses.get(tenant))).toBe('disabled'); // but not kept
  });

  it('forgets everything when the log goes back (a restored database), and when a statement fails serves nothing', async () => {
    const { database, statuses } = setUp();
    database.commit('tenants', [other]);
    database.commit('tenants', [other]);
    database.rows.set(`tenants:${tenant}`, [{ status: 'active' }]);
    await answered(database, statuses.get(tenant));
    database.log = [{ position: 1, previous: 0, table_name: 'tenants', keys: [other] }];
    database.rows.set(`tenants:${tenant}`, [{ status: 'disabled' }]);
    expect(await answered(database, statuses.get(tenant))).toBe('disabled');

    database.failNext = new Error('connection terminated');
    await expect(answered(database, statuses.get(tenant))).rejects.toThrow('connection terminated');
  });

  it('holds READ_MODEL_CACHE_MB in all, least recently used first out, whichever cache an entry is in', async () => {
    const { database, actions, standings } = setUp(400 * 1024); // 1 MB: two entries fit, not three
    database.rows.set(`actions:${tenant}`, [{ name: 'a' }]);
    database.rows.set(`actions:${other}`, [{ name: 'b' }]);
    database.rows.set(`api_tokens:${token}`, [{ tenant_id: tenant }]);
    await answered(database, actions.get(tenant));
    await answered(database, standings.get(token));
    await answered(database, actions.get(tenant, performance.now())); // used again: the standing is now the oldest
    await answered(database, actions.get(other));
    const sent = database.sent.length;
    expect(await answered(database, actions.get(tenant, performance.now()))).toEqual(['a']);
    expect(await answered(database, actions.get(other, performance.now()))).toEqual(['b']);
    expect(database.sent.slice(sent)).toEqual([[0], [0]]); // the log only: both from memory
    expect(await answered(database, standings.get(token, performance.now()))).toBe(tenant);
    expect(database.sent.slice(-1)[0]).toEqual([0, [token]]); // read again
  });

  it('refuses a key that is not a uuid without failing the statement others share', async () => {
    const { database, statuses } = setUp();
    database.rows.set(`tenants:${tenant}`, [{ status: 'active' }]);
    const refused = expect(statuses.get('not-a-uuid')).rejects.toThrow('not a lower-case uuid');
    expect(await answered(database, statuses.get(tenant))).toBe('active');
    await refused;
  });
});
