import { BatchQueue, ItemFailed } from './batch-queue';

/** A write that waits until released, recording each batch it was given. */
function controlledWrite() {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  const write = (items: number[]) => {
    batches.push(items);
    return new Promise<number[]>((resolve) => releases.push(() => resolve(items.map((item) => item * 10))));
  };
  return { batches, releases, write };
}

describe('BatchQueue', () => {
  it('writes a lone item at once, then groups what arrives while writes are in flight', async () => {
    const { batches, releases, write } = controlledWrite();
    const queue = new BatchQueue(write, 100, 1);
    const first = queue.add(1);
    expect(batches).toEqual([[1]]);
    const rest = [2, 3, 4].map((item) => queue.add(item));
    expect(batches).toEqual([[1]]);
    releases[0]();
    expect(await first).toBe(10);
    await Promise.resolve();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    releases[1]();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  it('runs up to `concurrency` writes at a time and caps each batch at maxBatch', async () => {
    const { batches, releases, write } = controlledWrite();
    const queue = new BatchQueue(write, 2, 2);
    const all = [1, 2, 3, 4, 5, 6].map((item) => queue.add(item));
    expect(batches).toEqual([[1], [2]]);
    releases[0]();
    await new Promise(setImmediate);
    expect(batches).toEqual([[1], [2], [3, 4]]);
    releases[1]();
    releases[2]();
    await new Promise(setImmediate);
    releases[3]();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50, 60]);
    expect(batches).toEqual([[1], [2], [3, 4], [5, 6]]);
  });

  it('rejects every item of a failed batch and goes on with the next', async () => {
    let calls = 0;
    const queue = new BatchQueue<number, number>(async (items) => {
      calls++;
      if (calls === 1) throw new Error('database gone');
      return items;
    }, 100, 1);
    const failed = queue.add(1);
    const next = queue.add(2);
    await expect(failed).rejects.toThrow('database gone');
    expect(await next).toBe(2);
  });
});

describe('BatchQueue with items that fail on their own', () => {
  it('rejects only the item the write marked as failed', async () => {
    const queue = new BatchQueue<number, number>(async (items) => items.map((item) => (item === 2 ? new ItemFailed(new Error('bad row')) : item)), 100, 1);
    const [one, two, three] = [1, 2, 3].map((item) => queue.add(item));
    await expect(two).rejects.toThrow('bad row');
    expect([await one, await three]).toEqual([1, 3]);
  });
});
