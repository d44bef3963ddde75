import { LRUCache } from 'lru-cache';
import { AsOf } from './read-scope';
import { Statement } from './statement';
import type { DeepReadonly } from './deep-readonly';

/** The tables whose changes are logged (migration 1764316800000-read-model-change-log). */
export type ChangedTable = 'tenants' | 'api_tokens' | 'hmac_keys' | 'actions';

/** A row of a load's statement, as the read model's statement returns it: a JSON object (timestamps as text). */
export type JsonRow = Record<string, unknown>;

/**
 * A read the read model makes: a declared statement (statement.ts) whose one parameter, `$1`, is the key (a
 * tenant's statement takes its TenantId), and how to make a value of its rows, which come back as JSON objects
 * (timestamps as ISO 8601 text). It runs inside the read model's own statement, beside other loads and the
 * change log (ReadModel).
 */
export interface ReadModelQuery<V, K extends string = string> {
  statement: Statement<readonly [K], unknown> | Statement<[K], unknown>;
  decode: (rows: JsonRow[], key: K) => V;
}

/** What a cache in memory does when the data it keeps changes. */
export interface ChangeSubscriber {
  /** The entry under `key` may be stale: drop it. */
  changed(key: string): void;
  /** Anything may be stale: drop everything. */
  reset(): void;
}

/** What a load read, and the newest change-log position the same statement saw. */
export interface LoadResult {
  latest: number;
  rows: JsonRow[];
  /** When the statement was sent (performance.now()). */
  startedAt: number;
}

/** What a cache needs of the read model that keeps it exact (ReadModel). */
export interface ChangeFeed {
  subscribe(table: ChangedTable, subscriber: ChangeSubscriber): void;
  /** Resolves once a statement that started after `asOf` has returned, its changes applied. */
  synced(asOf?: AsOf): Promise<void>;
  /** Runs `sql` ($1: `key`) in the read model's next statement (see ReadModel). */
  load(sql: string, key: string): { startedAt: () => number | undefined; result: Promise<LoadResult> };
  /** Whether a load whose statement saw `latest` may be kept. */
  mayKeep(latest: number): boolean;
}

/**
 * The memory every cache of the read model shares (ReadModel): entries by cache and key, least recently used
 * first out, each counted at its estimated size in bytes.
 */
export type SharedMemory = LRUCache<string, { value: unknown; size: number }>;

export interface ReadThroughCacheOptions<K extends string, V> {
  /** For the `read_model_reads_total` metric, and what `loadsWith` names. */
  name: string;
  /** The table whose logged changes (keyed like this cache) make an entry stale. */
  table: ChangedTable;
  /**
   * What an entry costs in memory, in bytes, key and bookkeeping included: measured, see docs/decisions.md
   * ("Memory is bounded").
   */
  sizeOf: (value: V) => number;
  /** What reads the value under a key. */
  query: ReadModelQuery<V, K>;
  /**
   * Another cache of the same keys whose every load from the database loads this one's missing entry too, in the
   * same statement (a tenant's actions with its status: a bearer request's cold reads are one round trip).
   */
  loadsWith?: string;
  reads: { memory: { inc(): void }; database: { inc(): void } };
  /** A span for a read made for a request, when tracing records (ReadModel); undefined: not traced. */
  traced?: (asOf: AsOf | undefined) => ReadTrace | undefined;
}

/** A read's span: told where the value came from (memory, or the database) and when the read settled. */
export interface ReadTrace {
  from(source: 'memory' | 'database'): void;
  settled<V>(read: Promise<V>): Promise<V>;
}

interface Loading<V> {
  /** When its statement was sent; undefined while it waits for the next one (so any request may share it). */
  startedAt: () => number | undefined;
  promise: Promise<V>;
}

/**
 * Part of the read model: values loaded from the database on demand and kept, least recently used first out,
 * until a logged change drops them (ReadModel). A value in memory is served only after a statement that started
 * after the request arrived has brought the read model up to date (`synced`); a missing one is loaded in the
 * read model's next statement, which is just as fresh. A load keeps what it read only if no change it missed was
 * applied meanwhile (`mayKeep`), and concurrent requests share a load only if it started after they arrived.
 * Values are shared between requests: `get` gives them deeply read-only (DeepReadonly), so a caller that would
 * change what other requests read does not compile.
 */
export class ReadThroughCache<K extends string, V> implements ChangeSubscriber {
  private readonly loading = new Map<K, Loading<V>>();
  /** This cache's entries in the shared memory are keyed `<prefix><key>`. */
  private readonly prefix: string;

  constructor(
    private readonly feed: ChangeFeed,
    readonly options: ReadThroughCacheOptions<K, V>,
    private readonly memory: SharedMemory,
    /** Told of each load, so that caches loaded along with this one join it (ReadModel). */
    private readonly onLoad: (key: K) => void = () => undefined,
  ) {
    this.prefix = `${options.name}:`;
    feed.subscribe(options.table, this);
  }

  /** The value under `key`, holding everything acknowledged before `asOf` (see AsOf; by default, the call). */
  get(key: K, asOf?: AsOf): Promise<DeepReadonly<V>> {
    const trace = this.options.traced?.(asOf);
    const read = trace ? trace.settled(this.read(key, asOf, trace)) : this.read(key, asOf);
    // The one place a value becomes shared: from here on its type forbids changing it.
    return read as Promise<DeepReadonly<V>>;
  }

  private async read(key: K, asOf: AsOf | undefined, trace?: ReadTrace): Promise<V> {
    const entry = this.prefix + key;
    if (this.memory.has(entry)) {
      await this.feed.synced(asOf);
      const kept = this.memory.get(entry);
      if (kept) {
        this.options.reads.memory.inc();
        trace?.from('memory');
        return kept.value as V;
      }
    }
    trace?.from('database');
    return this.load(key, asOf);
  }

  /** Loads `key` in the read model's next statement unless it is kept or already on its way. */
  loadAlong(key: K): void {
    if (!this.memory.has(this.prefix + key) && !this.loading.has(key)) this.load(key, undefined).catch(() => undefined);
  }

  changed(key: string): void {
    // Logged keys are this cache's keys (a tenant or token id), as the database spells them.
    this.memory.delete(this.prefix + key);
  }

  reset(): void {
    for (const entry of [...this.memory.keys()]) if (entry.startsWith(this.prefix)) this.memory.delete(entry);
  }

  private load(key: K, asOf: AsOf | undefined): Promise<V> {
    const pending = this.loading.get(key);
    if (pending) {
      const startedAt = pending.startedAt();
      if (startedAt === undefined || (asOf !== undefined && asOf > 0 && startedAt >= asOf)) return pending.promise;
    }
    this.options.reads.database.inc();
    const { startedAt, result } = this.feed.load(this.options.query.statement.text, key);
    const loading: Loading<V> = {
      startedAt,
      promise: result.then(
        ({ latest, rows }) => {
          if (this.loading.get(key) === loading) this.loading.delete(key);
          const value = this.options.query.decode(rows, key);
          if (this.feed.mayKeep(latest)) this.memory.set(this.prefix + key, { value, size: this.options.sizeOf(value) });
          return value;
        },
        (error: unknown) => {
          if (this.loading.get(key) === loading) this.loading.delete(key);
          throw error;
        },
      ),
    };
    this.loading.set(key, loading);
    this.onLoad(key);
    return loading.promise;
  }
}
