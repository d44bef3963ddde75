import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { MemoryThrottlerStorage, ThrottlerStorageRecord } from './memory-throttler-storage';

// A sliding log in a sorted set, the same rule as the throttler's in-memory storage: a hit counts for `ttl` ms.
// Over the limit, the hit is not recorded (no extra penalty). Returns the count and the oldest counted hit.
const SLIDING_LOG = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - ttl)
local count = redis.call('ZCARD', key)
local blocked = 0
if count < limit then
  redis.call('ZADD', key, now, ARGV[4])
  count = count + 1
else
  blocked = 1
end
redis.call('PEXPIRE', key, ttl)
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return { count, tonumber(oldest[2]) or now, blocked }
`;

/**
 * Rate-limit counters in Redis, shared by every replica. When Redis cannot be reached the request is counted in
 * this process's memory instead (fail open, with a warning at most every 30 s): a lost Redis loosens the limit
 * to one budget per replica for a while, rather than refusing every tenant's traffic.
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  private lastWarning = 0;

  constructor(
    private readonly redis: Redis,
    private readonly onFallback: () => void = () => undefined,
    private readonly fallback: ThrottlerStorage = new MemoryThrottlerStorage(),
    private readonly now: () => number = Date.now,
  ) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    let answer: [number, number, number];
    try {
      answer = (await this.redis.eval(SLIDING_LOG, 1, `agw:rate:${key}`, now, ttl, limit, `${now}-${randomUUID()}`)) as [number, number, number];
    } catch (error) {
      this.onFallback();
      if (now - this.lastWarning > 30_000) {
        this.lastWarning = now;
        this.logger.warn(`rate-limit counters unavailable in Redis (${(error as Error).message}): counting in memory`);
      }
      return this.fallback.increment(key, ttl, limit, blockDuration, throttlerName);
    }
    const [count, oldest, blocked] = answer;
    const secondsLeft = Math.max(1, Math.ceil((Number(oldest) + ttl - now) / 1000));
    return {
      totalHits: blocked ? count + 1 : count,
      timeToExpire: secondsLeft,
      isBlocked: blocked === 1,
      timeToBlockExpire: blocked ? secondsLeft : 0,
    };
  }
}
