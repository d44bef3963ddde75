import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ActionsService } from '../actions/actions.service';
import { Clock } from '../common/clock';
import { InvalidRequestError } from '../common/common.errors';
import { DomainError } from '../common/domain.error';
import { IdGenerator } from '../common/id-generator';
import { TenantId } from '../common/tenant-id';
import { isUuid } from '../common/uuid';
import { AppConfig } from '../config/app-config';
import { AsOf } from '../database/read-scope';
import { RequestBudgets } from '../rate-limit/request-budgets';
import { TenancyService } from '../tenancy/tenancy.service';
import { BulkReplayDto } from './dto/bulk-replay';
import { ReplayJob, ReplayProgress, ExecutionReplaysRepository } from './execution-replays.repository';
import { ExecutionNotFoundError, NoActiveHmacKeyError } from './executions.errors';
import { ExecutionsService } from './executions.service';
import { parseReplayPeriod } from './execution-query';

/** At most this many executions in one bulk replay: the default hourly budget of a tenant. */
const MAX_BULK_REPLAY = 1_000;
const PAGE = 100;
const DAY_MS = 86_400_000;
/** A running replay whose progress was not written for this long is taken as stopped (its replica went away). */
const ALIVE_MS = 120_000;

export class ReplayNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor() {
    super('Replay not found');
  }
}

class ReplayRunningError extends DomainError {
  readonly kind = 'conflict';
  constructor(id: string) {
    super(`a bulk replay is already running for this tenant (${id})`);
  }
}

/**
 * "Replay what failed since 10:00": the action's failed originals from `since` to `until` (at most now), oldest
 * first, each replayed as ExecutionsService.replay does, one at a time, on the replica that was asked. A replay is
 * never replayed itself (its original is, when it still needs it), and an original a replay has delivered is left
 * out: running it again while the receiver fails sends each original once more, and after a success, nothing. Bounded:
 * at most 1,000 executions, one running replay per tenant, and each replay counts against the tenant's hourly
 * budget like a request (the replay stops, saying so, when the budget is spent). Its progress is written as it
 * goes, so any replica answers how many are done and how many are left. docs/decisions.md, "The delivery log".
 */
@Injectable()
export class BulkReplays implements OnApplicationShutdown {
  private readonly logger = new Logger('BulkReplays');
  private readonly running = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly replays: ExecutionReplaysRepository,
    private readonly executions: ExecutionsService,
    private readonly actions: ActionsService,
    private readonly budgets: RequestBudgets,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly tenancy: TenancyService,
  ) {}

  /** `period`: the request's `since` and `until` as written (parseReplayPeriod: a 400 names what is wrong with them). */
  async start(tenantId: TenantId, actionName: string, period: { since: string; until?: string }, asOf?: AsOf): Promise<BulkReplayDto> {
    const now = this.clock.now();
    const { since, until } = parseReplayPeriod(period, now);
    const action = await this.actions.findExecutable(tenantId, actionName, asOf);
    const end = until && until < now ? until : now;
    const from = new Date(Math.max(since.getTime(), now.getTime() - this.config.executionRetentionDays * DAY_MS));
    const running = await this.replays.running(tenantId, new Date(now.getTime() - ALIVE_MS));
    if (running) throw new ReplayRunningError(running.id);
    const total = await this.replays.countFailed(tenantId, action.id, from, end, MAX_BULK_REPLAY + 1);
    if (total > MAX_BULK_REPLAY) {
      throw new InvalidRequestError(`since: more than ${MAX_BULK_REPLAY} failed executions from then on; replay a shorter period (until)`);
    }
    const id = this.ids.next();
    await this.replays.insert(tenantId, id, action.id, action.name, from, end, total, now);
    const job = (await this.replays.find(tenantId, id))!;
    const run = this.run(tenantId, job)
      .catch((error: unknown) => this.logger.warn({ err: error, replay: id }, 'a bulk replay failed'))
      .finally(() => this.running.delete(id));
    this.running.set(id, run);
    return toDto(job, this.clock.now());
  }

  async get(tenantId: TenantId, actionName: string, id: string, asOf?: AsOf): Promise<BulkReplayDto> {
    const action = await this.actions.findExecutable(tenantId, actionName, asOf);
    const job = isUuid(id) ? await this.replays.find(tenantId, id.toLowerCase()) : undefined;
    if (!job || job.action_id !== action.id) throw new ReplayNotFoundError();
    return toDto(job, this.clock.now());
  }

  /** Waits for the replays this replica runs (tests, and a shutdown that lets them write where they stopped). */
  async settled(): Promise<void> {
    await Promise.all([...this.running.values()]);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.settled();
  }

  private async run(tenantId: TenantId, job: ReplayJob): Promise<void> {
    const progress: ReplayProgress = { ...job };
    const save = () => this.replays.saveProgress(tenantId, job.id, { ...progress, updated_at: this.clock.now() });
    let after = { position: '-infinity', id: '00000000-0000-0000-0000-000000000000' };
    const stop = async (reason: string) => {
      Object.assign(progress, { status: 'stopped', stopped_reason: reason, finished_at: this.clock.now() });
      await save();
    };
    for (;;) {
      const page = await this.replays.nextFailed(tenantId, job.action_id, job.since, job.until, after, PAGE);
      for (const { id, position } of page) {
        if (this.stopping) return stop('the service stopped');
        // Disabled meanwhile: nothing more goes out on its behalf (docs/decisions.md, "Disabled tenants").
        if (!(await this.tenancy.isActive(tenantId))) return stop('the tenant is disabled');
        const budget = await this.budgets.count('tenant', `tenant:${tenantId}`);
        if (budget.exceeded) return stop(`the tenant's hourly request budget is spent (${budget.limit}); try again in ${budget.resetSeconds} s`);
        try {
          const replayed = await this.executions.replay(tenantId, job.action_name, id);
          if (replayed.status === 'succeeded') progress.succeeded += 1;
          else progress.failed += 1;
        } catch (error) {
          // One that cannot be replayed (payload not kept, parameters no longer valid) is skipped; anything else
          // (the action deleted, the tenant without a key, the database gone) stops the run.
          const skippable = error instanceof ExecutionNotFoundError || (error instanceof DomainError && ['invalid', 'conflict', 'gone'].includes(error.kind));
          if (!skippable || error instanceof NoActiveHmacKeyError) {
            return stop(error instanceof DomainError ? error.message : 'an unexpected error');
          }
          progress.skipped += 1;
        }
        progress.done += 1;
        after = { position, id };
        await save();
      }
      if (page.length < PAGE) break;
    }
    Object.assign(progress, { status: 'done', finished_at: this.clock.now() });
    await save();
  }
}

function toDto(job: ReplayJob, now: Date): BulkReplayDto {
  const interrupted = job.status === 'running' && job.updated_at.getTime() < now.getTime() - ALIVE_MS;
  return {
    id: job.id,
    action_name: job.action_name,
    since: job.since.toISOString(),
    until: job.until.toISOString(),
    status: interrupted ? 'stopped' : job.status,
    stopped_reason: interrupted ? 'the replica running it went away' : job.stopped_reason,
    total: job.total,
    done: job.done,
    left: job.total - job.done,
    succeeded: job.succeeded,
    failed: job.failed,
    skipped: job.skipped,
    created_at: job.created_at.toISOString(),
    updated_at: job.updated_at.toISOString(),
    finished_at: job.finished_at?.toISOString() ?? null,
  };
}
