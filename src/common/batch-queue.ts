/** What `write` answers for an item that failed on its own: that item is rejected with `error`, the rest not. */
export class ItemFailed {
  constructor(readonly error: unknown) {}
}

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items added while a write is in flight go out together in the next one, so under load many
 * rows cost one statement and one round trip, and a lone item goes out at once with no added wait. At most
 * `concurrency` writes run at a time, each with at most `maxBatch` items. `write` answers one result (or ItemFailed) per
 * item, in order; when it throws, every item of that batch is rejected with the error.
 */
export class BatchQueue<T, R> {
  private readonly waiting: Waiting<T, R>[] = [];
  private running = 0;

  constructor(
    private readonly write: (items: T[]) => Promise<Array<R | ItemFailed>>,
    private readonly maxBatch = 100,
    private readonly concurrency = 2,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      this.running++;
      this.write(batch.map(({ item }) => item))
        .then(
          (results) =>
            batch.forEach(({ resolve, reject }, index) => {
              const result = results[index];
              if (result instanceof ItemFailed) reject(result.error);
              else resolve(result);
            }),
          (error: unknown) => batch.forEach(({ reject }) => reject(error)),
        )
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}
