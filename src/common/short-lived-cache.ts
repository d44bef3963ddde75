import { performance } from 'node:perf_hooks';

/**
 * Values read from the database, kept for `ttlMs` so the hot path does not query for them on every request.
 * Concurrent misses of one key share one load; a `forget` wins over a load already in flight (its result is
 * used by the callers that were waiting for it, but not kept). Failed loads and `undefined` are never kept. At
 * most `maxEntries` are kept, the oldest dropped first. A `ttlMs` of 0 turns the cache off.
 */
export class ShortLivedCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private readonly loading = new Map<string, Promise<V>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const entry = this.entries.get(key);
    if (entry) {
      if (entry.until > this.now()) return Promise.resolve(entry.value);
      this.entries.delete(key);
    }
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const loaded = load().then(
      (value) => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
        if (value !== undefined && generation === this.generation) this.keep(key, value);
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, loaded);
    return loaded;
  }

  forget(key: string): void {
    this.generation++;
    this.entries.delete(key);
    this.loading.delete(key);
  }

  /** Forgets every key that starts with `prefix`. */
  forgetPrefix(prefix: string): void {
    this.generation++;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
    for (const key of this.loading.keys()) if (key.startsWith(prefix)) this.loading.delete(key);
  }

  private keep(key: string, value: V): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
  }
}
