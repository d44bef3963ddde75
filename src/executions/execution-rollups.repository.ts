import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { TenantId } from '../common/tenant-id';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import type { Execution } from './execution.entity';
import { ExecutionLogPools } from './execution-log-pools';
import { ROLLUPS_SQL, STATS_PER_ACTION_SQL, STATS_TYPES, SERIES_SQL, StatsDbRow } from './execution-rollups.sql';
import { RollupBuffer, RollupCounts, RollupRows, TENANT_TOTAL } from './rollup-buffer';

export { TENANT_TOTAL };

/** One rollup row: counts and the duration histogram of one action (or the tenant's total) over one period. */
export interface StatsRow {
  actionId: string;
  periodStart: Date;
  executions: number;
  succeeded: number;
  failed: number;
  histogram: number[];
}

/**
 * The delivery log's rollups, which the statistics read: the counts of each stored execution are summed in
 * memory and written once a second (RollupBuffer), on the log's connections with asynchronous commits where the
 * database allows them, and before any statistics are read. Every read is scoped to a tenant and goes through a
 * rollup's primary key.
 */
@Injectable()
export class ExecutionRollupsRepository implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('ExecutionLog');
  /** The stored executions' counts, written to the rollups once a second and before any statistics are read. */
  private readonly rollups = new RollupBuffer(
    (rows) => this.write(rows),
    (error) => this.logger.warn({ err: error }, 'writing the delivery log\'s rollups failed: the counts are kept and written with the next'),
  );

  constructor(private readonly pools: ExecutionLogPools) {}

  /** The counts held in memory go in while every connection is still open. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush().catch((error: unknown) => this.logger.warn({ err: error }, 'the delivery log\'s rollups could not be written at shutdown'));
  }

  /** Before ExecutionLogPools closes the log's connections (it shuts down after this, which depends on it). */
  async onApplicationShutdown(): Promise<void> {
    this.rollups.stop();
    // Those of executions stored since (a webhook call that ended during the shutdown), if the database still answers.
    if (this.rollups.size > 0) await this.flush().catch((error: unknown) => this.logger.warn({ err: error }, 'the delivery log\'s last rollups could not be written at shutdown'));
  }

  /** Counts executions just stored (of any tenants): in memory, written within a second (`flush`). */
  @GenerateSql({
    params: [[{ tenantId: DummyValue.TENANT_ID, actionId: DummyValue.UUID, createdAt: new Date(), status: 'succeeded', durationMs: 1 }]],
  })
  add(executions: readonly Pick<Execution, 'tenantId' | 'actionId' | 'createdAt' | 'status' | 'durationMs'>[]): void {
    this.rollups.add(executions);
  }

  /**
   * Writes the counts of every execution stored so far into the rollups; they are otherwise written within a
   * second (RollupBuffer), and before any statistics are read.
   */
  @GenerateSql({ name: 'the counts added above', params: [] })
  flush(): Promise<void> {
    return this.rollups.flush();
  }

  /**
   * Rollup rows of the tenant (of one action, or of the tenant's total): the hourly ones from `hoursFrom` and the
   * daily ones from `daysFrom`, each oldest first.
   */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.DATE, DummyValue.DATE, DummyValue.UUID] })
  async stats(tenantId: TenantId, hoursFrom: Date, daysFrom: Date, actionId: string = TENANT_TOTAL): Promise<{ hourly: StatsRow[]; daily: StatsRow[] }> {
    await this.rollups.flush();
    const rows = await this.pools.read(SERIES_SQL, [tenantId, actionId, hoursFrom, daysFrom]);
    return { hourly: rows.filter((row) => row.period === 'hour').map(toStatsRow), daily: rows.filter((row) => row.period === 'day').map(toStatsRow) };
  }

  /** The tenant's per-action rollups from `since` (hourly), summed per action. */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.DATE] })
  async statsPerAction(tenantId: TenantId, since: Date): Promise<StatsRow[]> {
    await this.rollups.flush();
    return (await this.pools.read(STATS_PER_ACTION_SQL, [tenantId, TENANT_TOTAL, since])).map(toStatsRow);
  }

  /** One statement adding the rollups' counts (RollupBuffer) into the hourly and the daily rows. */
  private async write(rows: RollupRows): Promise<void> {
    const values = [...columnsOf(rows.hourly.map(statsValues), STATS_TYPES.length), ...columnsOf(rows.daily.map(statsValues), STATS_TYPES.length)];
    const times = rows.daily.map((row) => row.start);
    await this.pools.write(ROLLUPS_SQL, values, times);
  }
}

function toStatsRow(row: StatsDbRow): StatsRow {
  return {
    actionId: row.action_id,
    periodStart: row.period_start,
    executions: row.executions,
    succeeded: row.succeeded,
    failed: row.failed,
    histogram: row.duration_histogram,
  };
}

/** Rows as one array a column. */
function columnsOf(rows: unknown[][], width: number): unknown[][] {
  return Array.from({ length: width }, (_, column) => rows.map((row) => row[column]));
}

/** A rollup row as the upsert's columns take it. */
function statsValues(row: RollupCounts): unknown[] {
  return [row.tenantId, row.actionId, new Date(row.start).toISOString(), row.executions, row.succeeded, row.executions - row.succeeded, `{${row.histogram.join(',')}}`];
}
