const WINDOW_MS = 60_000;

/** One owner's worker time in the last minute: when each job ended and how long it ran. */
interface Spent {
  ends: number[];
  ms: number[];
  head: number;
  total: number;
}

/**
 * How much schema-worker time each owner (a tenant) has had in the last minute, sliding, against a budget per
 * minute: once an owner has spent it, its jobs are refused (429 with Retry-After) until enough of it is older than
 * a minute. Each job is charged what it ran (its deadline, when it was stopped). Idle owners are forgotten.
 */
export class WorkerTime {
  private readonly owners = new Map<string, Spent>();
  private lastSweep: number;

  constructor(
    private readonly budgetMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.lastSweep = now();
  }

  charge(owner: string, ms: number): void {
    const now = this.now();
    let spent = this.owners.get(owner);
    if (!spent) {
      spent = { ends: [], ms: [], head: 0, total: 0 };
      this.owners.set(owner, spent);
    }
    spent.ends.push(now);
    spent.ms.push(ms);
    spent.total += ms;
    if (now - this.lastSweep >= WINDOW_MS) this.sweep(now);
  }

  /** 0 when `owner` may start a job now; else the seconds until enough of its spent time is a minute old. */
  retryAfterSeconds(owner: string): number {
    const spent = this.owners.get(owner);
    if (!spent) return 0;
    const now = this.now();
    expire(spent, now);
    if (spent.total < this.budgetMs) return 0;
    let left = spent.total;
    for (let i = spent.head; i < spent.ends.length; i++) {
      left -= spent.ms[i];
      if (left < this.budgetMs) return Math.max(1, Math.ceil((spent.ends[i] + WINDOW_MS - now) / 1000));
    }
    return 1;
  }

  /** Owners with time counted: what this grows with. */
  get size(): number {
    return this.owners.size;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [owner, spent] of this.owners) {
      expire(spent, now);
      if (spent.head === spent.ends.length) this.owners.delete(owner);
    }
  }
}

function expire(spent: Spent, now: number): void {
  while (spent.head < spent.ends.length && spent.ends[spent.head] <= now - WINDOW_MS) {
    spent.total -= spent.ms[spent.head];
    spent.head++;
  }
  if (spent.head === spent.ends.length) spent.total = 0; // no rounding drift is carried past an empty window
  // Compact once the expired prefix is most of the arrays, so each entry is moved O(1) times.
  if (spent.head > 64 && spent.head * 2 >= spent.ends.length) {
    spent.ends.splice(0, spent.head);
    spent.ms.splice(0, spent.head);
    spent.head = 0;
  }
}
