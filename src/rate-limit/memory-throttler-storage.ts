import type { ThrottlerStorage } from '@nestjs/throttler';

const SWEEP_EVERY_MS = 60_000;

/** What a storage answers for one hit (the shape @nestjs/throttler expects; the package does not export it). */
export interface ThrottlerStorageRecord {
  totalHits: number;
  timeToExpire: number;
  isBlocked: boolean;
  timeToBlockExpire: number;
}

/** The counted hits of one key, oldest first: `times[head..]` are live, everything before `head` has expired. */
interface SlidingLog {
  times: number[];
  head: number;
  ttl: number;
}

/**
 * Rate-limit counters in this process's memory, by the same rule as the Redis storage: a sliding log in which
 * a hit counts for `ttl` ms, and a hit over the limit is not recorded (no extra penalty).
 *
 * It replaces the library's in-memory storage, which filters a key's whole log on every hit: with a generous
 * limit that is O(hits in the window) per request. Here expired hits are dropped from the front of the log, so
 * a hit costs O(1) amortized, and a log never holds more than `limit` entries.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  private readonly logs = new Map<string, SlidingLog>();
  private lastSweep: number;

  constructor(private readonly now: () => number = Date.now) {
    this.lastSweep = now();
  }

  increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    if (now - this.lastSweep >= SWEEP_EVERY_MS) this.sweep(now);
    let log = this.logs.get(key);
    if (!log) {
      log = { times: [], head: 0, ttl };
      this.logs.set(key, log);
    }
    log.ttl = ttl;
    dropExpired(log, now);
    const count = log.times.length - log.head;
    const blocked = count >= limit;
    if (!blocked) log.times.push(now);
    const oldest = log.times.length > log.head ? log.times[log.head] : now;
    const secondsLeft = Math.max(1, Math.ceil((oldest + ttl - now) / 1000));
    return Promise.resolve({
      totalHits: count + 1,
      timeToExpire: secondsLeft,
      isBlocked: blocked,
      timeToBlockExpire: blocked ? secondsLeft : 0,
    });
  }

  /** How many keys (tenants, addresses) hold counted hits: what this storage's memory grows with. */
  get size(): number {
    return this.logs.size;
  }

  /** Forgets keys whose every hit has expired, so idle tenants and addresses do not accumulate. */
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, log] of this.logs) {
      dropExpired(log, now);
      if (log.times.length === log.head) this.logs.delete(key);
    }
  }
}

function dropExpired(log: SlidingLog, now: number): void {
  const { times } = log;
  while (log.head < times.length && times[log.head] <= now - log.ttl) log.head++;
  // Compact once the expired prefix is both large and most of the array, so each entry is moved O(1) times.
  if (log.head >= 1024 && log.head * 2 >= times.length) {
    times.splice(0, log.head);
    log.head = 0;
  } else if (log.head === times.length) {
    times.length = 0;
    log.head = 0;
  }
}
