import { Injectable, Logger } from '@nestjs/common';
import PgBoss from 'pg-boss';
import { AppConfig } from '../config/app-config';
import { DatabasePool } from '../database/database-pool';
import { ABANDONED_EXECUTION_QUEUE, EXECUTION_QUEUE, JOB_SCHEMA } from '../database/migrations/1764666000000-async-executions';
import { globalStatement, Statement } from '../database/statement';
import { TenantTransaction } from '../tenancy/tenant-lock';

/** What an accepted execution's job carries: enough for any replica to run it. */
export interface ExecutionJob {
  tenantId: string;
  executionId: string;
  /** The execution's `created_at` (ISO 8601): its row's partition. */
  createdAt: string;
  actionName: string;
  /** The parameters as the caller wrote them (canonical JSON), read back with their exact numbers and key order. */
  parameters: string;
  /** The accepting request's trace, which the run continues. */
  traceparent?: string;
  tracestate?: string;
}

/** A job taken from the queue, and how many runs of it were interrupted before this one. */
export interface TakenJob {
  id: string;
  data: ExecutionJob;
  retryCount: number;
}

const WHY = 'pg-boss, the job queue of asynchronous executions: one queue for every tenant, each job naming its own';
/** pg-boss's statements, declared once per text (they are a few dozen, built when pg-boss is constructed). */
const STATEMENTS = new Map<string, Statement<unknown[], Record<string, unknown>>>();
const declared = (text: string) => {
  let statement = STATEMENTS.get(text);
  if (!statement) STATEMENTS.set(text, (statement = globalStatement<unknown[], Record<string, unknown>>(WHY, text)));
  return statement;
};
/**
 * Runs after a replica stopped mid-run (its lease expired): each such run may have sent the call, so each is one
 * more delivery of the same webhook-id. After this many, pg-boss moves the job to ABANDONED_EXECUTION_QUEUE.
 */
export const MAX_INTERRUPTED_RUNS = 3;
/** What pg-boss's start says when it may not migrate its schema and finds it missing or older than itself. */
const JOB_SCHEMA_NOT_MIGRATED = ['pg-boss is not installed', 'pg-boss database requires migrations'];
/** How often an idle replica on a PostgreSQL server asks the queue for work (another replica's accepts; its own wake it at once). */
const POLL_MS = 1_000;
/** How long a run that could not store its outcome waits before it is due again (pg-boss's retryDelay). */
export const RETRY_DELAY_MS = 1_000;

/** How often pg-boss's maintenance looks for expired leases: a quarter of the lease (1 s to 60 s), so a lost run waits at most 1.25 leases. */
export function maintenanceIntervalSeconds(leaseMs: number): number {
  return Math.max(1, Math.min(60, Math.round(Math.ceil(leaseMs / 1_000) / 4)));
}

/**
 * How often an idle worker asks the queue for work. On a PostgreSQL server every POLL_MS: other replicas accept
 * executions too, and a replica's own accepts are all that wake it. On the embedded database this process is the
 * only one that accepts, and its accepts wake it at once; what else makes a job due is pg-boss's maintenance
 * putting an expired lease back (or a retry's delay, which the worker waits out itself), so it asks as often as the
 * maintenance runs. Each ask is two statements that PGlite runs on the service's thread, in the way of every
 * request at that moment (docs/benchmarks.md, "The job queue's polls on the embedded database").
 */
export function idlePollMs(leaseMs: number, embedded: boolean): number {
  return embedded ? Math.max(POLL_MS, maintenanceIntervalSeconds(leaseMs) * 1_000) : POLL_MS;
}

/**
 * The job queue of asynchronous executions: pg-boss (https://github.com/timgit/pg-boss) on the service's own
 * database, the embedded one included, through the service's pool (no connections of its own). A job is put in
 * the same transaction as the execution's `pending` row (`enqueue`), taken with SKIP LOCKED under a lease
 * (`take`), and deleted once the execution's outcome is stored (`done`). A replica that dies mid-run holds its jobs
 * until their lease (ASYNC_EXECUTION_LEASE_MS) expires; pg-boss's maintenance, run by one replica at a time, then
 * puts them back for any replica to take (at least once: docs/decisions.md, "Asynchronous executions").
 */
@Injectable()
export class ExecutionJobs {
  private readonly logger = new Logger('AsyncExecutions');
  private readonly boss: PgBoss;
  private started?: Promise<void>;
  private onWake?: () => void;

  constructor(
    private readonly config: AppConfig,
    pool: DatabasePool,
  ) {
    this.boss = new PgBoss({
      // Its own statements touch only its schema: beside the read model's count of the embedded database's jobs.
      db: { executeSql: async (text: string, values?: unknown[]) => ({ rows: await pool.queryBesideReadModel(declared(text), values ?? []) }) },
      schema: JOB_SCHEMA,
      // The schema is made by the service's migrations; a later pg-boss migrates its own only where they run.
      migrate: config.runMigrations,
      // No cron jobs here, and its clock-skew check would query the database every ten minutes for nothing.
      schedule: false,
      // The upkeep (expired leases put back, old jobs archived) runs on replicas that run executions.
      supervise: config.asyncExecutions.concurrency > 0,
      // Expired leases are looked for this often: a quarter of the lease, so a lost run waits at most 1.25 leases.
      maintenanceIntervalSeconds: maintenanceIntervalSeconds(config.asyncExecutions.leaseMs),
      // Jobs are deleted when their execution ends; one abandoned is kept a day for an operator to look at.
      archiveCompletedAfterSeconds: 3_600,
      deleteAfterDays: 1,
    });
    this.boss.on('error', (error: unknown) => this.logger.warn({ err: error }, 'the job queue of asynchronous executions failed'));
  }

  /**
   * Starts pg-boss. Without RUN_MIGRATIONS it only checks its schema, and says a missing or older one in words
   * ("pg-boss is not installed"), not SQLSTATEs: that is told as the schema missing (3F000), as pending migrations.
   */
  start(): Promise<void> {
    return (this.started ??= this.boss.start().then(
      () => undefined,
      (error: unknown) => {
        throw JOB_SCHEMA_NOT_MIGRATED.some((text) => error instanceof Error && error.message.includes(text))
          ? Object.assign(new Error(`the job queue's schema (${JOB_SCHEMA}) is not migrated`, { cause: error }), { code: '3F000' })
          : error;
      },
    ));
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    await this.started.catch(() => undefined);
    // Not graceful: pg-boss would fail (and so retry at once) the jobs this replica holds; the worker lets its
    // runs end first (AsyncExecutionWorker), and a run cut short is taken up again when its lease expires.
    await this.boss.stop({ graceful: false, close: false, wait: true });
  }

  /** Puts the execution's job in the queue, in `transaction` (the one storing its pending row). */
  async enqueue(transaction: TenantTransaction, job: ExecutionJob): Promise<void> {
    const db = { executeSql: async (text: string, values?: unknown[]) => ({ rows: await transaction.rowsAcrossTenants(declared(text), values ?? []) }) };
    await this.boss.send(EXECUTION_QUEUE, job, {
      id: job.executionId,
      db,
      expireInSeconds: Math.ceil(this.config.asyncExecutions.leaseMs / 1_000),
      retryLimit: MAX_INTERRUPTED_RUNS,
      retryDelay: RETRY_DELAY_MS / 1_000,
    });
  }

  /** This replica's worker, told of each job this replica enqueues, so it takes it without waiting for a poll. */
  whenWoken(listener: () => void): void {
    this.onWake = listener;
  }

  wake(): void {
    this.onWake?.();
  }

  /** Up to `count` jobs waiting (or whose lease expired), each leased to this replica. */
  async take(count: number, queue = EXECUTION_QUEUE): Promise<TakenJob[]> {
    const jobs = (await this.boss.fetch<ExecutionJob>(queue, { batchSize: count, includeMetadata: true })) ?? [];
    return jobs.map((job) => ({ id: job.id, data: job.data, retryCount: job.retryCount }));
  }

  /** The execution's outcome is stored: its job goes. */
  async done(id: string, queue = EXECUTION_QUEUE): Promise<void> {
    await this.boss.deleteJob(queue, id);
  }

  /** A run that could not store its outcome (the database went away): tried again after a second, as pg-boss counts. */
  async failed(id: string, error: Error): Promise<void> {
    await this.boss.fail(EXECUTION_QUEUE, id, { message: error.message });
  }

  /** Jobs moved to ABANDONED_EXECUTION_QUEUE after MAX_INTERRUPTED_RUNS interrupted runs. */
  takeAbandoned(count: number): Promise<TakenJob[]> {
    return this.take(count, ABANDONED_EXECUTION_QUEUE);
  }

  doneAbandoned(id: string): Promise<void> {
    return this.done(id, ABANDONED_EXECUTION_QUEUE);
  }
}
