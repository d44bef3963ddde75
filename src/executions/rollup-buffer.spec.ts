import { durationBucket, DURATION_BUCKETS } from './duration-histogram';
import { RollupBuffer, RollupRows, TENANT_TOTAL } from './rollup-buffer';

const TENANT = '5a1d0000-0000-4000-8000-000000000001';
const ACTION = '5a1d0000-0000-4000-8000-000000000002';
const HOUR = Date.parse('2026-11-27T10:00:00Z');

function stored(status: 'succeeded' | 'failed', durationMs: number, at = HOUR + 60_000, actionId = ACTION) {
  return { tenantId: TENANT, actionId, createdAt: new Date(at), status, durationMs };
}

/** A histogram with `counts` of each duration's bucket. */
function histogram(...durations: number[]): number[] {
  const buckets = new Array<number>(DURATION_BUCKETS).fill(0);
  for (const duration of durations) buckets[durationBucket(duration)] += 1;
  return buckets;
}

/** What each write was given, and a way to make the next writes fail or wait. */
function writer() {
  const writes: RollupRows[] = [];
  let failing: Error | undefined;
  let gate: Promise<void> | undefined;
  const write = async (rows: RollupRows) => {
    if (gate) await gate;
    if (failing) throw failing;
    writes.push(structuredClone(rows));
  };
  return {
    writes,
    write,
    fail: (error?: Error) => (failing = error),
    hold: () => {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return () => {
        gate = undefined;
        open();
      };
    },
  };
}

describe('RollupBuffer', () => {
  it("sums executions into their action's and their tenant's hour and day, written in one write", async () => {
    const { writes, write } = writer();
    const buffer = new RollupBuffer(write, () => undefined);
    buffer.add([stored('succeeded', 3), stored('failed', 250)]);
    buffer.add([stored('succeeded', 3, HOUR + 3_600_000)]);
    expect(writes).toEqual([]);
    await buffer.flush();
    const day = Date.parse('2026-11-27T00:00:00Z');
    const row = (actionId: string, start: number, executions: number, succeeded: number, durations: number[]) => ({ tenantId: TENANT, actionId, start, executions, succeeded, histogram: histogram(...durations) });
    expect(writes).toEqual([
      {
        // Sorted by tenant, action, period: the order every writer locks rows in.
        hourly: [row(TENANT_TOTAL, HOUR, 2, 1, [3, 250]), row(TENANT_TOTAL, HOUR + 3_600_000, 1, 1, [3]), row(ACTION, HOUR, 2, 1, [3, 250]), row(ACTION, HOUR + 3_600_000, 1, 1, [3])],
        daily: [row(TENANT_TOTAL, day, 3, 2, [3, 250, 3]), row(ACTION, day, 3, 2, [3, 250, 3])],
      },
    ]);
    expect(buffer.size).toBe(0);
    await buffer.flush();
    expect(writes).toHaveLength(1);
    buffer.stop();
  });

  it('writes by itself within its interval', async () => {
    const { writes, write } = writer();
    const buffer = new RollupBuffer(write, () => undefined, 20);
    buffer.add([stored('succeeded', 3)]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(writes).toHaveLength(1);
    expect(writes[0].hourly[0]).toMatchObject({ executions: 1 });
    buffer.stop();
  });

  it('writes one at a time: a flush during a write waits for it, then writes what came meanwhile', async () => {
    const { writes, write, hold } = writer();
    const buffer = new RollupBuffer(write, () => undefined);
    buffer.add([stored('succeeded', 3)]);
    const open = hold();
    const first = buffer.flush();
    buffer.add([stored('failed', 3)]);
    const second = buffer.flush();
    expect(writes).toEqual([]);
    open();
    await Promise.all([first, second]);
    expect(writes.map((rows) => rows.daily.map((row) => [row.executions, row.succeeded]))).toEqual([
      [
        [1, 1],
        [1, 1],
      ],
      [
        [1, 0],
        [1, 0],
      ],
    ]);
    buffer.stop();
  });

  it('keeps the counts of a failed write and writes them with the next, added to what came meanwhile', async () => {
    const { writes, write, fail } = writer();
    const errors: unknown[] = [];
    const buffer = new RollupBuffer(write, (error) => errors.push(error), 20);
    buffer.add([stored('succeeded', 3)]);
    fail(new Error('connection refused'));
    await expect(buffer.flush()).rejects.toThrow('connection refused');
    expect(buffer.size).toBe(4);
    buffer.add([stored('failed', 250)]);
    fail(undefined);
    await buffer.flush();
    expect(writes).toHaveLength(1);
    expect(writes[0].daily.map((row) => [row.executions, row.succeeded, row.histogram])).toEqual([
      [2, 1, histogram(3, 250)],
      [2, 1, histogram(3, 250)],
    ]);
    // A failed timed write is reported and tried again a moment later.
    buffer.add([stored('succeeded', 3)]);
    fail(new Error('still down'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(errors.length).toBeGreaterThan(0);
    fail(undefined);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(writes).toHaveLength(2);
    expect(writes[1].daily[0]).toMatchObject({ executions: 1 });
    buffer.stop();
  });
});
