import { MemoryThrottlerStorage } from './memory-throttler-storage';

const HOUR = 3_600_000;

describe('MemoryThrottlerStorage', () => {
  let now: number;
  let storage: MemoryThrottlerStorage;
  const hit = (key = 'tenant:a', limit = 3, ttl = HOUR) => storage.increment(key, ttl, limit);

  beforeEach(() => {
    now = 1_000_000;
    storage = new MemoryThrottlerStorage(() => now);
  });

  it('counts hits up to the limit, then blocks without recording the refused hit', async () => {
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 3600, isBlocked: false, timeToBlockExpire: 0 });
    now += 10_000;
    await hit();
    now += 10_000;
    expect(await hit()).toMatchObject({ totalHits: 3, isBlocked: false });
    now += 10_000;
    // The oldest counted hit expires 3600 - 30 s from now: that is when the budget opens again.
    expect(await hit()).toEqual({ totalHits: 4, timeToExpire: 3570, isBlocked: true, timeToBlockExpire: 3570 });
    expect(await hit()).toMatchObject({ totalHits: 4, isBlocked: true });
  });

  it('slides: a hit stops counting ttl ms after it was made', async () => {
    await hit();
    now += 1_000;
    await hit();
    await hit();
    now += HOUR - 1_000; // the first hit has just expired, the other two have not
    expect(await hit()).toMatchObject({ totalHits: 3, isBlocked: false, timeToExpire: 1 });
    now += 1_000;
    expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: false });
  });

  it('keeps separate budgets per key', async () => {
    await hit('tenant:a', 1);
    expect(await hit('tenant:a', 1)).toMatchObject({ isBlocked: true });
    expect(await hit('tenant:b', 1)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('stays correct across many hits with a generous limit (the expired prefix is compacted)', async () => {
    const limit = 1_000_000;
    for (let i = 0; i < 50_000; i++) {
      now += 1;
      await hit('tenant:a', limit, 10_000);
    }
    // 10,000 ms of hits at one per ms are live.
    now += 1;
    expect(await hit('tenant:a', limit, 10_000)).toMatchObject({ totalHits: 10_000, isBlocked: false });
  });

  it('forgets keys whose hits have all expired', async () => {
    await hit('ip:1', 5, 60_000);
    await hit('ip:3', 5, 3 * HOUR);
    expect(storage.size).toBe(2);
    now += 2 * HOUR;
    await hit('ip:2', 5, 60_000); // triggers the sweep: ip:1 has expired, ip:3 has not
    expect(storage.size).toBe(2);
    expect(await hit('ip:3', 5, 3 * HOUR)).toMatchObject({ totalHits: 2 });
  });
});
