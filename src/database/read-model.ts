import { performance } from 'node:perf_hooks';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { ATTRIBUTE } from '../tracing/span-attributes';
import { markFailed, Tracing } from '../tracing/tracing';
import { DatabasePool } from './database-pool';
import { EmbeddedDatabaseService } from './embedded-database.service';
import { AsOf, asOfCall } from './read-scope';
import { globalStatement } from './statement';
import { ChangedTable, ChangeFeed, ChangeSubscriber, JsonRow, LoadResult, ReadModelQuery, ReadThroughCache, ReadThroughCacheOptions, ReadTrace, SharedMemory } from './read-through-cache';

/** The most log entries one statement reads; more pending than that and everything is forgotten instead. */
const CHANGES_READ = 100;
/**
 * The most loads one statement carries; more go in the next, which starts at once: a turn's cold requests run on
 * several of the pool's connections, so on several of the server's cores (docs/decisions.md).
 */
const LOADS_PER_STATEMENT = 24;
/** How long entries stay in the change log, and how often each replica prunes it. */
const KEPT_MS = 5 * 60_000;
const PRUNE_EVERY_MS = 60_000;
/** A key as the database spells a uuid (the log's keys are compared with the cache's as text). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const PRUNE_SQL = globalStatement<[keptSeconds: number]>(
  'the change log is every tenant\'s',
  'DELETE FROM read_model_changes WHERE changed_at < now() - make_interval(secs => $1) AND position < (SELECT max(position) FROM read_model_changes)',
);
/**
 * The read model's statement: the change log after `$1`; then, for each kind of load it carries (each load
 * statement's text), that statement run for every key of the array `$2`, `$3`..., its `$1` the key: one column per
 * kind, `[[key, rows], ...]`. However many loads, the server plans a handful of sub-selects.
 */
const statementOf = (kinds: readonly string[]) =>
  globalStatement<[from: number, ...keys: string[][]], Record<string, unknown>>(
    'the change log is every tenant\'s; each load it carries is its own statement, tenant-scoped where it reads a tenant\'s rows',
    'SELECT (SELECT coalesce(max(position), 0) FROM read_model_changes) AS latest, ' +
      `(SELECT json_agg(c) FROM (SELECT position, previous, table_name, keys FROM read_model_changes WHERE position > $1 ORDER BY position LIMIT ${CHANGES_READ}) c) AS changes` +
      kinds
        .map((sql, index) => `, (SELECT json_agg(json_build_array(k.key, (SELECT json_agg(r) FROM (${sql.replace(/\$1(?!\d)/g, 'k.key')}) r))) FROM unnest($${index + 2}::uuid[]) AS k(key)) AS k${index}`)
        .join(''),
  );

/** A change-log entry as the read model's statement returns it. */
interface Change {
  position: number;
  previous: number;
  table_name: ChangedTable;
  keys: string[] | null;
}

interface Load {
  sql: string;
  key: string;
  resolve: (result: LoadResult) => void;
  reject: (error: unknown) => void;
}

/** One statement of the read model: the change log after `applied`, and the loads it carries. */
interface Statement {
  loads: Load[];
  startedAt?: number;
  done: Promise<void>;
  settle: (error?: unknown) => void;
}

/**
 * What this process keeps in memory of the database (tenants' status, API tokens' standing, HMAC keys,
 * actions), each kind in a ReadThroughCache made by `cache()`, and how that memory stays exact:
 *
 * - Every change to the tables the read model keeps is logged, in the writing transaction, as an entry of
 *   `read_model_changes` (see the migration): positions follow commit order, each entry names the one before it.
 * - The read model talks to the database in statements of its own, each reading the entries after the last one
 *   applied (`applied`) and the newest position (`latest`), and carrying the loads of values missing from memory
 *   that wait for it. Applying the entries drops what they name; a missing entry (pruned before this process read
 *   it) or too many pending forget everything.
 * - A request may be answered from memory only after a statement that started after the request arrived has
 *   been applied (`synced`): a change acknowledged to anyone before the request arrived was committed before that
 *   statement, so it is applied. Statements are shared: the next one serves every request waiting when it starts.
 *   A request whose value is missing loads it in that same statement: one round trip either way.
 * - A load keeps what it read only if its statement's `latest` is no older than `applied`: every change applied
 *   so far is in it, and every later one will drop it (`mayKeep`).
 * - Nothing LISTENs: a notification, forged or real, changes nothing (docs/decisions.md, "Reads from memory").
 */
@Injectable()
export class ReadModel implements ChangeFeed, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ReadModel');
  private readonly subscribers = new Map<ChangedTable, ChangeSubscriber[]>();
  private readonly followers = new Map<string, ReadThroughCache<string, unknown>[]>();
  /** The newest position applied; -1 until the first statement. */
  private applied = -1;
  /** When `applied` was last set: a statement sent after that which sees less means the log went back. */
  private appliedAt = 0;
  /** The latest-started statement that has been applied. */
  private lastSynced = -Infinity;
  /**
   * The embedded database this process runs: its count of jobs run (EmbeddedDatabaseService.jobsRun) when the
   * last statement applied was the only job between its start and its answer, so memory was exact as of its
   * answer. While the count still stands there, nothing has run since, so nothing was committed: a request is
   * answered from memory with no statement (docs/decisions.md, "Reads from memory"). Undefined otherwise.
   */
  private quietAt?: number;
  private readonly inFlight = new Set<Statement>();
  private next?: Statement;
  private pruneTimer?: NodeJS.Timeout;
  /** What every cache holds, READ_MODEL_CACHE_MB in all, least recently used first out (docs/decisions.md). */
  private readonly memory: SharedMemory;

  constructor(
    private readonly pool: DatabasePool,
    private readonly metrics: Metrics,
    config: AppConfig,
    private readonly tracing: Tracing,
    private readonly embedded: EmbeddedDatabaseService,
  ) {
    // Bounded by size only (no `max`), so lru-cache does not allocate room for every entry up front.
    this.memory = new LRUCache({ maxSize: config.readModelCacheMb * 1024 * 1024, sizeCalculation: (entry) => Math.max(1, entry.size) });
    metrics.observeReadModelMemory(() => ({ bytes: this.memory.calculatedSize, entries: this.memory.size }));
  }

  onApplicationBootstrap(): void {
    this.pruneTimer = setInterval(() => void this.prune().catch((error: unknown) => this.logger.debug({ err: error }, 'pruning the change log failed')), PRUNE_EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.pruneTimer);
  }

  /**
   * A span "read <cache>" under the request that arrived at `asOf` (the request's arrival is what a read carries,
   * so the tracer finds the request by it); none for a read made outside a traced request.
   */
  private readSpan(cache: string, asOf: AsOf | undefined): ReadTrace | undefined {
    const parent = this.tracing.ofArrival(asOf);
    if (!parent) return undefined;
    const { span } = this.tracing.start(parent, `read ${cache}`, { [ATTRIBUTE.readModelCache]: cache });
    if (!span) return undefined;
    return {
      from: (source) => {
        span.setAttribute(ATTRIBUTE.readModelSource, source);
        if (source === 'database') span.setAttribute(ATTRIBUTE.dbSystem, 'postgresql');
      },
      settled: (read) =>
        read.then(
          (value) => {
            span.end();
            return value;
          },
          (error: unknown) => {
            markFailed(span, error);
            span.end();
            throw error;
          },
        ),
    };
  }

  /** A cache of this read model, in its shared memory; what it holds is dropped as changes are logged. */
  cache<K extends string, V>(options: Omit<ReadThroughCacheOptions<K, V>, 'reads'>): ReadThroughCache<K, V> {
    const reads = { memory: this.metrics.readModelReads.labels(options.name, 'memory'), database: this.metrics.readModelReads.labels(options.name, 'database') };
    // Both series from the start (at 0), so that the first reads count in rate() and the miss ratio.
    reads.memory.inc(0);
    reads.database.inc(0);
    const traced = this.tracing.recording ? (asOf: AsOf | undefined) => this.readSpan(options.name, asOf) : undefined;
    const cache = new ReadThroughCache<K, V>(this, { ...options, reads, traced }, this.memory, (key) => {
      for (const follower of this.followers.get(options.name) ?? []) follower.loadAlong(key);
    });
    if (options.loadsWith) {
      this.followers.set(options.loadsWith, [...(this.followers.get(options.loadsWith) ?? []), cache as unknown as ReadThroughCache<string, unknown>]);
    }
    return cache;
  }

  subscribe(table: ChangedTable, subscriber: ChangeSubscriber): void {
    this.subscribers.set(table, [...(this.subscribers.get(table) ?? []), subscriber]);
  }

  async synced(asOf?: AsOf): Promise<void> {
    const since = asOfCall(asOf);
    if (this.lastSynced >= since) return;
    if (this.quietAt !== undefined && this.quietAt === this.embedded.jobsRun()) return;
    for (const statement of this.inFlight) {
      if (statement.startedAt !== undefined && statement.startedAt >= since) return statement.done;
    }
    return this.nextStatement().done;
  }

  load(sql: string, key: string): { startedAt: () => number | undefined; result: Promise<LoadResult> } {
    if (!UUID.test(key)) {
      // Every key the read model keeps is a uuid in lower case (else a logged change would not name it); a
      // statement must not fail for every load it carries.
      return { startedAt: () => undefined, result: Promise.reject(new Error(`read model key ${JSON.stringify(key)} is not a lower-case uuid`)) };
    }
    const statement = this.nextStatement();
    const result = new Promise<LoadResult>((resolve, reject) => statement.loads.push({ sql, key, resolve, reject }));
    if (statement.loads.length >= LOADS_PER_STATEMENT) this.start(statement);
    return { startedAt: () => statement.startedAt, result };
  }

  /** Runs `query` for `key` in the next statement, outside any cache (repositories' own reads): the value as of now. */
  async read<V, K extends string>(query: ReadModelQuery<V, K>, key: K): Promise<V> {
    return query.decode((await this.load(query.statement.text, key).result).rows, key);
  }

  mayKeep(latest: number): boolean {
    return latest >= this.applied;
  }

  /** Deletes the log's entries older than KEPT_MS, the newest always kept (every replica does, every minute). */
  async prune(keptMs = KEPT_MS): Promise<void> {
    await this.pool.query(PRUNE_SQL, [keptMs / 1000]);
  }

  /** The statement that has not started yet (it starts at the next turn of the event loop), made if need be. */
  private nextStatement(): Statement {
    if (this.next) return this.next;
    let settle!: (error?: unknown) => void;
    const done = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
    done.catch(() => undefined); // a failure reaches whoever waits on it; no one may
    const statement: Statement = { loads: [], done, settle };
    this.next = statement;
    // Requests that arrive while this turn of the event loop reads its sockets all share it.
    setImmediate(() => this.start(statement));
    return statement;
  }

  private start(statement: Statement): void {
    if (statement.startedAt !== undefined) return;
    if (this.next === statement) this.next = undefined;
    statement.startedAt = performance.now();
    this.inFlight.add(statement);
    const from = this.applied;
    const loads = statement.loads;
    const byKind = new Map<string, Load[]>();
    for (const load of loads) byKind.set(load.sql, [...(byKind.get(load.sql) ?? []), load]);
    const kinds = [...byKind.keys()];
    const jobsBefore = this.embedded.jobsRun();
    this.pool.query(statementOf(kinds), [from, ...kinds.map((kind) => [...new Set(byKind.get(kind)!.map((load) => load.key))])]).then(
      ([row]) => {
        this.inFlight.delete(statement);
        const latest = Number(row.latest);
        this.catchUp(statement.startedAt!, latest, (row.changes as Change[] | null) ?? []);
        if (statement.startedAt! > this.lastSynced) this.lastSynced = statement.startedAt!;
        // Its own job only, between its start and now: it read everything committed so far.
        const jobsAfter = this.embedded.jobsRun();
        this.quietAt = jobsBefore !== undefined && jobsAfter === jobsBefore + 1 ? jobsAfter : undefined;
        kinds.forEach((kind, index) => {
          const read = new Map((row[`k${index}`] as [string, JsonRow[] | null][] | null ?? []).map(([key, rows]) => [key, rows ?? []]));
          for (const load of byKind.get(kind)!) load.resolve({ latest, rows: read.get(load.key) ?? [], startedAt: statement.startedAt! });
        });
        statement.settle();
      },
      (error: unknown) => {
        this.inFlight.delete(statement);
        for (const load of loads) load.reject(error);
        statement.settle(error);
      },
    );
  }

  /** Applies what a statement that started at `startedAt` read: the entries after `applied`, up to `latest`. */
  private catchUp(startedAt: number, latest: number, changes: Change[]): void {
    if (latest < this.applied) {
      // A statement that ran before the one that applied more: nothing to learn. But one sent after `applied` was
      // known to be committed must see it: the log went back (a restored database), and nothing kept is exact.
      if (startedAt > this.appliedAt) this.forgetAt(latest, `the change log went back from ${this.applied} to ${latest}`);
      return;
    }
    if (this.applied < 0) {
      this.forgetAt(latest); // the first statement: nothing is kept yet, and this is where it starts
      return;
    }
    for (const change of changes) {
      if (change.position <= this.applied) continue;
      if (change.previous !== this.applied) {
        // An entry this process never read (pruned meanwhile), or more pending than one statement reads.
        this.forgetAt(latest, `change log entries between ${this.applied} and ${change.position} were not read`);
        return;
      }
      this.apply(change);
      this.applied = change.position;
    }
    if (this.applied < latest) {
      this.forgetAt(latest, `more than ${CHANGES_READ} changes pending`);
      return;
    }
    this.appliedAt = performance.now();
  }

  private apply(change: Change): void {
    for (const subscriber of this.subscribers.get(change.table_name) ?? []) {
      if (change.keys === null) subscriber.reset();
      else for (const key of change.keys) subscriber.changed(key);
    }
  }

  private forgetAt(position: number, why?: string): void {
    if (why) this.logger.log(`${why}: forgetting everything held in memory`);
    this.metrics.readModelResets.inc();
    for (const subscribers of this.subscribers.values()) for (const subscriber of subscribers) subscriber.reset();
    this.applied = position;
    this.appliedAt = performance.now();
  }
}
