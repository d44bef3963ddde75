import { WorkerTime } from './worker-time';

describe('WorkerTime', () => {
  let now = 0;
  const clock = () => now;

  it('refuses an owner once it has spent its budget in the last minute, until enough of it is a minute old', () => {
    now = 1_000_000;
    const time = new WorkerTime(3_000, clock);
    time.charge('a', 1_000);
    now += 10_000;
    time.charge('a', 1_500);
    expect(time.retryAfterSeconds('a')).toBe(0);
    now += 10_000;
    time.charge('a', 600);
    // 3,100 ms spent: the first 1,000 must age out, 40 s from now.
    expect(time.retryAfterSeconds('a')).toBe(40);
    expect(time.retryAfterSeconds('b')).toBe(0);
    now += 40_000;
    expect(time.retryAfterSeconds('a')).toBe(0);
  });

  it('forgets owners whose time has all aged out', () => {
    now = 0;
    const time = new WorkerTime(1_000, clock);
    time.charge('a', 10);
    now += 61_000;
    time.charge('b', 10);
    expect(time.size).toBe(1);
  });
});
