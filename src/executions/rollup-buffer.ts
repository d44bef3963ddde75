import { addHistogram, durationBucket, DURATION_BUCKETS } from './duration-histogram';
import type { Execution } from './execution.entity';

/** The `action_id` of a tenant's total in the rollups. */
export const TENANT_TOTAL = '00000000-0000-0000-0000-000000000000';
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** How long stored executions' counts wait in memory before they are written. */
const ROLLUP_FLUSH_MS = 1_000;

/** The counts of one action (or a tenant's total) over one period, summed in memory before they are written. */
export interface RollupCounts {
  tenantId: string;
  actionId: string;
  /** The period's start, ms since the epoch. */
  start: number;
  executions: number;
  succeeded: number;
  histogram: number[];
}

/** What is written at once: the rows of the hourly and of the daily rollups, each in the order their keys sort. */
export interface RollupRows {
  hourly: RollupCounts[];
  daily: RollupCounts[];
}

/**
 * The rollups' counts of stored executions, summed in memory and written at most once a second (docs/decisions.md,
 * "The delivery log"). Adding each batch's counts into the same few rows (an action's and its tenant's hour and
 * day) in the statement that stores the batch more than doubled that statement: four upserts of the same rows,
 * batch after batch, on the connections every execution waits for. Summed here, a busy action's rows are written
 * once a second, whatever its rate.
 *
 * Counts reach the database within a second, and before this process answers a statistics request (`flush`), so a
 * tenant reading its numbers from the replica that ran its executions sees every one of them; another replica's
 * are at most a second behind. A write that fails puts its counts back, to be written with the next; a process
 * that stops writes what it holds (`flush` at shutdown); one that is killed loses at most its last second of
 * counts, never an execution.
 */
export class RollupBuffer {
  private pending = new Map<string, RollupCounts>();
  private writing?: Promise<void>;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly write: (rows: RollupRows) => Promise<void>,
    private readonly onError: (error: unknown) => void,
    private readonly flushMs = ROLLUP_FLUSH_MS,
  ) {}

  /** Counts stored executions in, for their action and their tenant's total, per hour and per day. */
  add(executions: readonly Pick<Execution, 'tenantId' | 'actionId' | 'createdAt' | 'status' | 'durationMs'>[]): void {
    for (const execution of executions) {
      const time = execution.createdAt.getTime();
      const bucket = durationBucket(execution.durationMs);
      const succeeded = execution.status === 'succeeded' ? 1 : 0;
      for (const [period, ms] of PERIODS) {
        const start = Math.floor(time / ms) * ms;
        for (const actionId of [execution.actionId, TENANT_TOTAL]) {
          const key = `${period}/${execution.tenantId}/${actionId}/${start}`;
          let row = this.pending.get(key);
          if (!row) {
            row = { tenantId: execution.tenantId, actionId, start, executions: 0, succeeded: 0, histogram: new Array<number>(DURATION_BUCKETS).fill(0) };
            this.pending.set(key, row);
          }
          row.executions += 1;
          row.succeeded += succeeded;
          row.histogram[bucket] += 1;
        }
      }
    }
    this.schedule();
  }

  /** How many rollup rows wait to be written. */
  get size(): number {
    return this.pending.size;
  }

  /** Writes every count added so far; resolves once they are in the database (one write at a time). */
  async flush(): Promise<void> {
    // `writing` never rejects, and is cleared before anyone waiting on it resumes.
    while (this.writing) await this.writing;
    if (this.pending.size === 0) return;
    const taken = this.pending;
    this.pending = new Map();
    const written = this.write(rowsOf(taken)).catch((error: unknown) => {
      this.putBack(taken);
      throw error;
    });
    this.writing = written.then(
      () => undefined,
      () => undefined,
    ).finally(() => {
      this.writing = undefined;
    });
    return written;
  }

  /** Stops the timer (the owner flushes what is left). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.pending.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((error: unknown) => {
        this.onError(error);
        this.schedule();
      });
    }, this.flushMs);
    this.timer.unref();
  }

  /** A failed write's counts, added back into what is pending (which may have grown meanwhile). */
  private putBack(taken: Map<string, RollupCounts>): void {
    for (const [key, row] of taken) {
      const now = this.pending.get(key);
      if (!now) {
        this.pending.set(key, row);
        continue;
      }
      now.executions += row.executions;
      now.succeeded += row.succeeded;
      addHistogram(now.histogram, row.histogram);
    }
  }
}

const PERIODS: ReadonlyArray<readonly ['hourly' | 'daily', number]> = [
  ['hourly', HOUR_MS],
  ['daily', DAY_MS],
];

/**
 * The rows of each table in one fixed order (tenant, action, period), so that two writers (replicas) updating the
 * same rows lock them in the same order.
 */
function rowsOf(pending: Map<string, RollupCounts>): RollupRows {
  const sorted = [...pending.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const rows: RollupRows = { hourly: [], daily: [] };
  for (const [key, row] of sorted) rows[key.startsWith('hourly/') ? 'hourly' : 'daily'].push(row);
  return rows;
}
