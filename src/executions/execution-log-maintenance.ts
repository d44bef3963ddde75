import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { DatabaseSettings } from '../database/database-settings';
import { isSchemaMissing } from '../database/database-errors';
import { ExecutionsRepository, TENANT_TOTAL } from './executions.repository';
import { IDEMPOTENCY_KEY_RETENTION_MS } from './idempotency';
import { PURGE_BATCH, PURGE_DONE_SQL, PURGE_EXECUTIONS_SQL, PURGE_QUEUE_SQL, PURGE_ROLLUPS_SQL } from './execution-log-maintenance.sql';
import { ExecutionLogPartitions, LogTable, MAINTENANCE_LOCK, Sql } from './log-partitions';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** How often a replica looks for work (a deleted action's history to purge); the hourly work runs once an hour. */
const TICK_MS = 60_000;
/** Partitions are kept ready this many days ahead, so a missed run or two never leaves a row without one. */
const DAYS_AHEAD = 7;
/** The hourly rollups are read for the last 48 hours; a day more is kept. */
const HOURLY_STATS_DAYS = 3;
/** At most this many batches per action per run, so one huge history does not keep the lock for long. */
const PURGE_BATCHES_PER_RUN = 200;

export interface MaintenanceReport {
  ran: boolean;
  created: number;
  dropped: string[];
  purgedExecutions: number;
  expiredKeys: number;
}

/**
 * The delivery log's upkeep, run by one replica at a time (a session advisory lock; a replica that finds it held
 * skips the run): creating partitions ahead, dropping those past retention (EXECUTION_RETENTION_DAYS for the log
 * and the daily rollups, EXECUTION_PAYLOAD_RETENTION_DAYS for payloads, three days for the hourly rollups, 24 hours
 * for idempotency keys), and
 * purging the history of deleted actions in batches. It runs on a connection of its own, outside any request:
 * nothing a request waits for is deleted or locked for longer than a catalog change (docs/operations.md).
 */
@Injectable()
export class ExecutionLogMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ExecutionLog');
  private timer?: NodeJS.Timeout;
  private running?: Promise<MaintenanceReport>;

  constructor(
    private readonly partitions: ExecutionLogPartitions,
    private readonly settings: DatabaseSettings,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly executions: ExecutionsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Today's and the next days' partitions before the first request; then the rest in the background.
    const now = this.clock.now();
    try {
      await this.partitions.ensure(new Date(now.getTime() - DAY_MS), new Date(now.getTime() + DAYS_AHEAD * DAY_MS));
    } catch (error) {
      // With migrations pending there is nothing to prepare, and the start-up has said so already (Migrations).
      if (!isSchemaMissing(error)) this.logger.warn({ err: error }, 'preparing the delivery log partitions failed');
    }
    const tick = () => void this.run().catch((error: unknown) => {
      if (!isSchemaMissing(error)) this.logger.warn({ err: error }, 'the delivery log maintenance failed');
    });
    tick();
    this.timer = setInterval(tick, TICK_MS).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One run: the hourly work when it is due (or `force`), and any purge waiting. Runs of this replica take turns. */
  run(force = false): Promise<MaintenanceReport> {
    const run = (this.running ?? Promise.resolve()).catch(() => undefined).then(() => this.runOnce(force));
    this.running = run;
    return run;
  }

  private async runOnce(force: boolean): Promise<MaintenanceReport> {
    // This replica's counts of executions of deleted actions go in before their rollups are purged (another
    // replica's, at most a second behind, are purged by a later run: an entry stays until it is settled).
    await this.executions.flushRollups().catch((error: unknown) => this.logger.warn({ err: error }, 'writing the rollups before the maintenance failed'));
    return this.partitions.withConnection(async (sql) => {
      const report: MaintenanceReport = { ran: false, created: 0, dropped: [], purgedExecutions: 0, expiredKeys: 0 };
      const [{ locked }] = await sql<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${MAINTENANCE_LOCK}) AS locked`);
      if (!locked) return report;
      try {
        report.ran = true;
        if (force || (await this.hourlyWorkDue(sql))) await this.hourlyWork(sql, report);
        report.purgedExecutions = await this.purgeDeletedActions(sql);
      } finally {
        await sql(`SELECT pg_advisory_unlock(${MAINTENANCE_LOCK})`);
      }
      return report;
    });
  }

  private async hourlyWorkDue(sql: Sql): Promise<boolean> {
    const [row] = await sql<{ last_run_at: Date }>(`SELECT last_run_at FROM execution_log_maintenance`);
    return !row || row.last_run_at.getTime() <= this.clock.now().getTime() - HOUR_MS;
  }

  private async hourlyWork(sql: Sql, report: MaintenanceReport): Promise<void> {
    const now = this.clock.now();
    report.created = await this.partitions.ensureWith(sql, new Date(now.getTime() - DAY_MS), new Date(now.getTime() + DAYS_AHEAD * DAY_MS));
    const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const retention: Array<[LogTable, Date]> = [
      ['executions', daysAgo(this.config.executionRetentionDays)],
      ['execution_payloads', daysAgo(this.config.executionPayloadRetentionDays)],
      ['execution_stats_hourly', daysAgo(HOURLY_STATS_DAYS)],
      ['execution_stats_daily', daysAgo(this.config.executionRetentionDays)],
    ];
    for (const [table, cutoff] of retention) {
      report.dropped.push(...(await this.partitions.dropBefore(sql, table, cutoff, !this.settings.embedded)));
    }
    if (report.dropped.length > 0) this.logger.log({ dropped: report.dropped }, 'dropped delivery log partitions past retention');
    report.expiredKeys = await this.deleteExpiredKeys(sql, new Date(now.getTime() - IDEMPOTENCY_KEY_RETENTION_MS));
    await sql(
      `INSERT INTO execution_log_maintenance (last_run_at) VALUES ($1) ON CONFLICT (singleton) DO UPDATE SET last_run_at = EXCLUDED.last_run_at`,
      [now],
    );
  }

  /**
   * Deletes the idempotency keys stored before `cutoff`, oldest first, in batches (the index on `created_at`), each a
   * short statement of its own; what one run leaves (more than PURGE_BATCHES_PER_RUN batches) the next deletes.
   */
  private async deleteExpiredKeys(sql: Sql, cutoff: Date): Promise<number> {
    let deleted = 0;
    for (let batch = 0; batch < PURGE_BATCHES_PER_RUN; batch++) {
      const [{ count }] = await sql<{ count: number }>(
        `WITH gone AS (DELETE FROM idempotency_keys WHERE (tenant_id, idempotency_key) IN (
           SELECT tenant_id, idempotency_key FROM idempotency_keys WHERE created_at < $1 ORDER BY created_at LIMIT ${PURGE_BATCH}) RETURNING 1)
         SELECT count(*)::int AS count FROM gone`,
        [cutoff],
      );
      deleted += count;
      if (count < PURGE_BATCH) break;
    }
    if (deleted > 0) this.logger.log({ deleted }, 'deleted expired idempotency keys');
    return deleted;
  }

  /**
   * Deletes the history of deleted actions (queued by a trigger on `actions`): executions and their payloads in
   * batches, then the action's rollups, taken off its tenant's totals. An entry stays until the longest execution
   * that could still be storing a row of the action has ended, so a late row is purged too.
   */
  private async purgeDeletedActions(sql: Sql): Promise<number> {
    const queued = await sql<NonNullable<(typeof PURGE_QUEUE_SQL)['types']>['row']>(PURGE_QUEUE_SQL.text, [this.config.webhook.timeoutMs / 1000 + 60]);
    let purged = 0;
    for (const { action_id: actionId, tenant_id: tenantId, settled } of queued) {
      let done = false;
      for (let batch = 0; batch < PURGE_BATCHES_PER_RUN && !done; batch++) {
        const [{ count }] = await sql<{ count: number }>(PURGE_EXECUTIONS_SQL.text, [tenantId, actionId]);
        purged += count;
        done = count < PURGE_BATCH;
      }
      if (!done) continue;
      for (const statement of PURGE_ROLLUPS_SQL) await sql(statement.text, [tenantId, actionId, TENANT_TOTAL]);
      if (settled) await sql(PURGE_DONE_SQL.text, [actionId]);
    }
    if (purged > 0) this.logger.log({ purged }, 'purged the history of deleted actions');
    return purged;
  }
}
