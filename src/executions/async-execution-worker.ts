import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { isSchemaMissing } from '../database/database-errors';
import { DatabaseSettings } from '../database/database-settings';
import { Metrics } from '../metrics/metrics';
import { ExecutionJobs, idlePollMs, RETRY_DELAY_MS, TakenJob } from './execution-jobs';
import { ExecutionsService } from './executions.service';

/** Jobs of ABANDONED_EXECUTION_QUEUE taken at each poll: rare (each took MAX_INTERRUPTED_RUNS + 1 lost runs). */
const ABANDONED_PER_POLL = 10;

/**
 * Runs this replica's share of the accepted executions: up to ASYNC_EXECUTION_CONCURRENCY at once, each taken
 * from the job queue as a slot frees, every job on its own (a receiver that hangs holds its slot, no other). It
 * asks the queue when a run ends, when this replica enqueues, when a failed run's retry is due, and when idle every
 * `idlePollMs` (every second on a PostgreSQL server, as often as pg-boss's maintenance on the embedded database,
 * where no other process accepts executions); pg-boss's `work()`
 * was not used because it completes a fetched batch only when its slowest job ends, and a worker per slot would
 * poll once per slot.
 *
 * At shutdown it takes nothing more and lets the runs in progress end (within WEBHOOK_TIMEOUT_MS and the
 * shutdown's grace); a run cut short (SIGKILL) is taken up again by any replica once its lease expires.
 */
@Injectable()
export class AsyncExecutionWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AsyncExecutions');
  private readonly running = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private polling = false;
  private again = false;
  private stopped = false;
  private started = false;
  private readonly pollMs: number;

  constructor(
    private readonly jobs: ExecutionJobs,
    private readonly executions: ExecutionsService,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    settings: DatabaseSettings,
  ) {
    this.pollMs = idlePollMs(config.asyncExecutions.leaseMs, settings.embedded);
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.jobs.start();
    } catch (error) {
      // With migrations pending there is no queue yet, and the start-up has said so already (Migrations).
      if (isSchemaMissing(error)) return;
      throw error;
    }
    this.started = true;
    if (this.config.asyncExecutions.concurrency === 0) return;
    this.jobs.whenWoken(() => void this.poll());
    this.timer = setInterval(() => void this.poll(true), this.pollMs).unref();
    void this.poll(true);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.allSettled([...this.running]);
    if (this.started) await this.jobs.stop();
  }

  /** How many runs are in progress on this replica. */
  get active(): number {
    return this.running.size;
  }

  /** Takes jobs while slots are free and jobs wait; one poll at a time (a call during one makes it go round again). */
  private async poll(withAbandoned = false): Promise<void> {
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = true;
    try {
      if (withAbandoned) await this.settleAbandoned();
      do {
        this.again = false;
        const free = this.config.asyncExecutions.concurrency - this.running.size;
        if (this.stopped || free <= 0) break;
        for (const job of await this.jobs.take(free)) this.run(job);
      } while (this.again);
    } catch (error) {
      if (!isSchemaMissing(error)) this.logger.warn({ err: error }, 'taking asynchronous executions from the queue failed');
    } finally {
      this.polling = false;
    }
  }

  private run(job: TakenJob): void {
    const run = this.executions
      .runAccepted(job.data)
      .then(() => this.jobs.done(job.id))
      .catch(async (error: unknown) => {
        this.logger.warn({ err: error, executionId: job.data.executionId }, 'an asynchronous execution could not be finished: it is run again');
        await this.jobs.failed(job.id, error as Error).catch(() => undefined);
        // Due again after the retry's delay: asked for then, whatever the idle polls' pace.
        setTimeout(() => void (this.stopped || this.poll()), RETRY_DELAY_MS + 100).unref();
      })
      .finally(() => {
        this.running.delete(run);
        this.metrics.asyncExecutionsRunning.set(this.running.size);
        if (!this.stopped) void this.poll();
      });
    this.running.add(run);
    this.metrics.asyncExecutionsRunning.set(this.running.size);
  }

  private async settleAbandoned(): Promise<void> {
    for (const job of await this.jobs.takeAbandoned(ABANDONED_PER_POLL)) {
      if (await this.executions.abandon(job.data)) this.logger.warn({ executionId: job.data.executionId }, 'an asynchronous execution was abandoned after its runs were interrupted');
      await this.jobs.doneAbandoned(job.id);
    }
  }
}
