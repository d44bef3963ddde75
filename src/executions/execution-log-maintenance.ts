import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { DatabaseSettings } from '../database/database-settings';
import { isSchemaMissing } from '../database/database-errors';
import type { DedicatedConnection } from '../database/dedicated-connection';
import { ExecutionRollupsRepository } from './execution-rollups.repository';
import { ExecutionLogMaintenanceRepository } from './execution-log-maintenance.repository';
import { IDEMPOTENCY_KEY_RETENTION_MS } from './idempotency';
import { PURGE_BATCH } from './execution-log-maintenance.sql';
import { LogPartitionsRepository, LogTable } from './log-partitions.repository';

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
    private readonly partitions: LogPartitionsRepository,
    private readonly settings: DatabaseSettings,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly rollups: ExecutionRollupsRepository,
    private readonly upkeep: ExecutionLogMaintenanceRepository,
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
    await this.rollups.flush().catch((error: unknown) => this.logger.warn({ err: error }, 'writing the rollups before the maintenance failed'));
    return this.partitions.withConnection(async (session) => {
      const report: MaintenanceReport = { ran: false, created: 0, dropped: [], purgedExecutions: 0, expiredKeys: 0 };
      if (!(await this.upkeep.tryLock(session))) return report;
      try {
        report.ran = true;
        if (force || (await this.hourlyWorkDue(session))) await this.hourlyWork(session, report);
        report.purgedExecutions = await this.purgeDeletedActions(session);
      } finally {
        await this.upkeep.unlock(session);
      }
      return report;
    });
  }

  private async hourlyWorkDue(session: DedicatedConnection): Promise<boolean> {
    const lastRunAt = await this.upkeep.lastRunAt(session);
    return !lastRunAt || lastRunAt.getTime() <= this.clock.now().getTime() - HOUR_MS;
  }

  private async hourlyWork(session: DedicatedConnection, report: MaintenanceReport): Promise<void> {
    const now = this.clock.now();
    report.created = await this.partitions.ensureOn(new Date(now.getTime() - DAY_MS), new Date(now.getTime() + DAYS_AHEAD * DAY_MS), session);
    const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const retention: Array<[LogTable, Date]> = [
      ['executions', daysAgo(this.config.executionRetentionDays)],
      ['execution_payloads', daysAgo(this.config.executionPayloadRetentionDays)],
      ['execution_stats_hourly', daysAgo(HOURLY_STATS_DAYS)],
      ['execution_stats_daily', daysAgo(this.config.executionRetentionDays)],
    ];
    for (const [table, cutoff] of retention) {
      report.dropped.push(...(await this.partitions.dropBefore(table, cutoff, !this.settings.embedded, session)));
    }
    if (report.dropped.length > 0) this.logger.log({ dropped: report.dropped }, 'dropped delivery log partitions past retention');
    report.expiredKeys = await this.deleteExpiredKeys(new Date(now.getTime() - IDEMPOTENCY_KEY_RETENTION_MS), session);
    await this.upkeep.recordRun(now, session);
  }

  /**
   * Deletes the idempotency keys stored before `cutoff`, oldest first, in batches (the index on `created_at`), each a
   * short statement of its own; what one run leaves (more than PURGE_BATCHES_PER_RUN batches) the next deletes.
   */
  private async deleteExpiredKeys(cutoff: Date, session: DedicatedConnection): Promise<number> {
    let deleted = 0;
    for (let batch = 0; batch < PURGE_BATCHES_PER_RUN; batch++) {
      const count = await this.upkeep.deleteExpiredKeys(cutoff, session);
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
  private async purgeDeletedActions(session: DedicatedConnection): Promise<number> {
    const queued = await this.upkeep.purgeQueue(this.config.webhook.timeoutMs / 1000 + 60, session);
    let purged = 0;
    for (const { actionId, tenantId, settled } of queued) {
      let done = false;
      for (let batch = 0; batch < PURGE_BATCHES_PER_RUN && !done; batch++) {
        const count = await this.upkeep.purgeExecutions(tenantId, actionId, session);
        purged += count;
        done = count < PURGE_BATCH;
      }
      if (!done) continue;
      await this.upkeep.purgeRollups(tenantId, actionId, session);
      if (settled) await this.upkeep.purgeDone(actionId, session);
    }
    if (purged > 0) this.logger.log({ purged }, 'purged the history of deleted actions');
    return purged;
  }
}
