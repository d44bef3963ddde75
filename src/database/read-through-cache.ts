import { LRUCache } from 'lru-cache';
import { performance } from 'node:perf_hooks';
import { AsOf } from './read-scope';

/** The tables whose changes are announced (migration 1763870000000-read-model-changes). */
export type ChangedTable = 'tenants' | 'api_tokens' | 'hmac_keys' | 'actions';

/** What a cache in memory does when the data it keeps changes. */
export interface ChangeSubscriber {
  /** The entry under `key` may be stale: drop it. */
  changed(key: string): void;
  /** Anything may be stale: drop everything. */
  reset(): void;
}

/** What a cache needs of the read model that keeps it exact (ReadModel). */
export interface ChangeFeed {
  subscribe(table: ChangedTable, subscriber: ChangeSubscriber): void;
  inSync(asOf?: AsOf): Promise<boolean>;
  mayKeep(version: number): boolean;
  mayShare(loadStartedAt: number, asOf?: AsOf): boolean;
}

/** A value read from the database, with `read_model_version` as the same statement saw it. */
export interface Snapshot<V> {
  version: number;
  value: V;
}

export interface ReadThroughCacheOptions<K extends string, V> {
  /** For the `read_model_reads_total` metric. */
  name: string;
  /** The table whose announced changes (keyed like this cache) make an entry stale. */
  table: ChangedTable;
  /** The most this cache holds, in the units of `sizeOf` (1 per entry when not given). */
  maxSize: number;
  sizeOf?: (value: V) => number;
  load: (key: K) => Promise<Snapshot<V>>;
  reads: { memory: { inc(): void }; database: { inc(): void } };
}

interface Loading<V> {
  startedAt: number;
  promise: Promise<V>;
}

/**
 * Part of the read model: values loaded from the database on demand and kept, least recently used first out,
 * until a change to them is announced (ReadModel). A value is served from memory only when the feed says this
 * request may be (`inSync`); otherwise it is read again. A load keeps what it read only if no change it missed
 * was applied meanwhile (`mayKeep`), and concurrent requests share a load only if it started after they
 * arrived (`mayShare`). Values are shared between requests: callers must not change them.
 */
export class ReadThroughCache<K extends string, V> implements ChangeSubscriber {
  private readonly entries: LRUCache<K, { value: V }>;
  private readonly loading = new Map<K, Loading<V>>();

  constructor(
    private readonly feed: ChangeFeed,
    private readonly options: ReadThroughCacheOptions<K, V>,
  ) {
    const sizeOf = options.sizeOf;
    // Bounded by size only (no `max`), so lru-cache does not allocate room for every entry up front.
    this.entries = new LRUCache({ maxSize: options.maxSize, sizeCalculation: sizeOf ? (entry) => Math.max(1, sizeOf(entry.value)) : () => 1 });
    feed.subscribe(options.table, this);
  }

  /** The value under `key`, holding everything acknowledged before `asOf` (see AsOf; by default, the call). */
  async get(key: K, asOf?: AsOf): Promise<V> {
    if (await this.feed.inSync(asOf)) {
      const entry = this.entries.get(key);
      if (entry) {
        this.options.reads.memory.inc();
        return entry.value;
      }
    }
    return this.load(key, asOf);
  }

  changed(key: string): void {
    // Announced keys are this cache's keys (a tenant or token id), as the database spells them.
    this.entries.delete(key as K);
  }

  reset(): void {
    this.entries.clear();
  }

  private load(key: K, asOf: AsOf | undefined): Promise<V> {
    const pending = this.loading.get(key);
    if (pending && this.feed.mayShare(pending.startedAt, asOf)) return pending.promise;
    this.options.reads.database.inc();
    const loading: Loading<V> = {
      startedAt: performance.now(),
      promise: this.options.load(key).then(
        ({ version, value }) => {
          if (this.loading.get(key) === loading) this.loading.delete(key);
          if (this.feed.mayKeep(version)) this.entries.set(key, { value });
          return value;
        },
        (error: unknown) => {
          if (this.loading.get(key) === loading) this.loading.delete(key);
          throw error;
        },
      ),
    };
    this.loading.set(key, loading);
    return loading.promise;
  }
}
