import { Injectable } from '@nestjs/common';
import { ActionsService } from '../actions/actions.service';
import { Clock } from '../common/clock';
import { InvalidRequestError } from '../common/common.errors';
import { PageCursors } from '../common/page-cursors';
import { TenantId } from '../common/tenant-id';
import { isUuid } from '../common/uuid';
import { AppConfig } from '../config/app-config';
import { AsOf } from '../database/read-scope';
import { ExecutionDetailDto, ExecutionPayloadDto, ExecutionWithPayloadDto } from './dto/execution-detail.response';
import { ExecutionDto, LoggedExecutionDto } from './dto/execution.response';
import { ExecutionStatsDto, StatsPointDto } from './dto/execution-stats.response';
import { percentile } from './duration-histogram';
import { Execution, UNFINISHED } from './execution.entity';
import { ExecutionListQuery } from './execution-query';
import { ExecutionNotFoundError } from './executions.errors';
import { ExecutionFilter, ExecutionReadsRepository } from './execution-reads.repository';
import { ExecutionRollupsRepository, StatsRow } from './execution-rollups.repository';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The cursors of the execution lists: one list name, bound to the tenant (PageCursors). */
const CURSOR_LIST = 'executions';

/** A page of the log. */
interface ExecutionPage<T> {
  executions: T[];
  next_cursor: string | null;
}

/**
 * Reading the delivery log (docs/decisions.md, "The delivery log"): pages of it, filtered, newest first; one
 * execution with what was sent and what came back; and the statistics, from rollups. Everything is the
 * tenant's own: an id, a cursor or an action name of another tenant finds nothing. Exported for the admin backend.
 */
@Injectable()
export class ExecutionLogService {
  constructor(
    private readonly actions: ActionsService,
    private readonly executions: ExecutionReadsRepository,
    private readonly rollups: ExecutionRollupsRepository,
    private readonly cursors: PageCursors,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly keys: IdempotencyKeysRepository,
  ) {}

  /**
   * A page of the tenant's log (of one action, when `actionName` is given), newest first. The cursor holds the
   * position (created_at, id) of the last execution given, so executions stored meanwhile neither repeat nor
   * shift what follows.
   */
  async page(tenantId: TenantId, actionName: string | undefined, query: ExecutionListQuery, asOf?: AsOf): Promise<ExecutionPage<Execution>> {
    const name = actionName ?? query.action;
    const filter: ExecutionFilter = { status: query.status, since: query.since, until: query.until };
    if (name !== undefined) filter.actionId = (await this.actions.findExecutable(tenantId, name, asOf)).id;
    const filters = filtersOf(filter);
    if (query.cursor !== undefined) {
      const position = this.cursors.read(CURSOR_LIST, tenantId, query.cursor);
      if (!position || position.length < 2 || position.length > 3 || !isUuid(position[1])) throw new InvalidRequestError('cursor: is not a cursor this list gave');
      // A cursor from before cursors named their filters (two parts) continues under any.
      if (position.length === 3 && position[2] !== filters) {
        throw new InvalidRequestError('cursor: was given for other filters; send the status, action, since and until of the page it came from');
      }
      filter.after = { createdAt: position[0], id: position[1] };
    }
    const rows = await this.executions.list(tenantId, filter, this.keptSince(), query.limit + 1);
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      executions: page.map((row) => row.execution),
      next_cursor: rows.length > query.limit ? this.cursors.make(CURSOR_LIST, tenantId, [last.position, last.execution.id, filters]) : null,
    };
  }

  /** `page`, as the gateway API lists executions. */
  async list(tenantId: TenantId, actionName: string | undefined, query: ExecutionListQuery, asOf?: AsOf): Promise<ExecutionPage<LoggedExecutionDto>> {
    const page = await this.page(tenantId, actionName, query, asOf);
    return { executions: page.executions.map(mapLogged), next_cursor: page.next_cursor };
  }

  /** `page`, with every attempt (the management API's view). */
  async listWithAttempts(tenantId: TenantId, actionName: string | undefined, query: ExecutionListQuery): Promise<ExecutionPage<ExecutionDetailDto>> {
    const page = await this.page(tenantId, actionName, query);
    return { executions: page.executions.map(mapWithAttempts), next_cursor: page.next_cursor };
  }

  /** One execution of the action, with its attempts, its idempotency key (while kept) and its payload. */
  async get(tenantId: TenantId, actionName: string, id: string, asOf?: AsOf): Promise<ExecutionWithPayloadDto> {
    const { execution, payload } = await this.findWithPayload(tenantId, actionName, id, asOf);
    return { ...mapWithAttempts(execution), idempotency_key: await this.keys.keyOf(tenantId, execution.id), payload };
  }

  /** One execution of the tenant by id, whichever action it ran, as stored (an MCP task's state), if still kept. */
  async findOfTenant(tenantId: TenantId, id: string): Promise<Execution | undefined> {
    return isUuid(id) ? this.executions.find(tenantId, id.toLowerCase(), this.keptSince()) : undefined;
  }

  /**
   * One execution of the tenant, whichever action it ran (the console's "go to an execution" by id; a tenant's
   * developer holding the webhook-id a receiver logged), with its attempts, its idempotency key (while kept) and its payload.
   */
  async getOfTenant(tenantId: TenantId, id: string): Promise<ExecutionWithPayloadDto> {
    const execution = isUuid(id) ? await this.executions.find(tenantId, id.toLowerCase(), this.keptSince()) : undefined;
    if (!execution) throw new ExecutionNotFoundError();
    const [key, payload] = await Promise.all([this.keys.keyOf(tenantId, execution.id), this.payloadOf(tenantId, execution)]);
    return { ...mapWithAttempts(execution), idempotency_key: key, payload };
  }

  async findWithPayload(tenantId: TenantId, actionName: string, id: string, asOf?: AsOf): Promise<{ execution: Execution; payload: ExecutionPayloadDto }> {
    const action = await this.actions.findExecutable(tenantId, actionName, asOf);
    const execution = isUuid(id) ? await this.executions.find(tenantId, id.toLowerCase(), this.keptSince(), action.id) : undefined;
    if (!execution) throw new ExecutionNotFoundError();
    return { execution, payload: await this.payloadOf(tenantId, execution) };
  }

  private async payloadOf(tenantId: TenantId, execution: Execution): Promise<ExecutionPayloadDto> {
    if (UNFINISHED.includes(execution.status)) return { status: 'pending', request: null, attempts: null };
    if (execution.payload !== 'kept') return { status: 'not_logged', request: null, attempts: null };
    const stored = await this.executions.findPayload(tenantId, execution, this.keptSince(this.config.executionPayloadRetentionDays));
    return stored ? { status: 'kept', ...stored } : { status: 'expired', request: null, attempts: null };
  }

  /**
   * The tenant's numbers (of one action, when `actionName` is given): per hour for the last 48 hours and per day
   * for the retention window, each with executions, succeeded, failed, p50 and p95 duration; for the tenant, also
   * each action's over the last 24 hours. Read from the rollups only.
   */
  async stats(tenantId: TenantId, actionName: string | undefined, asOf?: AsOf): Promise<ExecutionStatsDto> {
    const action = actionName === undefined ? undefined : await this.actions.findExecutable(tenantId, actionName, asOf);
    const now = this.clock.now().getTime();
    const hoursFrom = Math.floor(now / HOUR_MS) * HOUR_MS - 47 * HOUR_MS;
    const days = this.config.executionRetentionDays;
    const daysFrom = Math.floor(now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
    const [{ hourly, daily }, perAction, names] = await Promise.all([
      this.rollups.stats(tenantId, new Date(hoursFrom), new Date(daysFrom), action?.id),
      action ? Promise.resolve([]) : this.rollups.statsPerAction(tenantId, new Date(now - 24 * HOUR_MS)),
      action ? Promise.resolve([]) : this.actions.list(tenantId, asOf),
    ]);
    const stats: ExecutionStatsDto = {
      action_name: action?.name ?? null,
      hourly: series(hourly, hoursFrom, HOUR_MS, 48),
      daily: series(daily, daysFrom, DAY_MS, days),
    };
    if (!action) {
      const byId = new Map(perAction.map((row) => [row.actionId, row]));
      stats.actions = names.map((listed) => ({ action_name: listed.name, ...summary(byId.get(listed.id)) }));
    }
    return stats;
  }

  /** The oldest moment the log (or its payloads) still shows: retention is by whole days, reads are exact. */
  private keptSince(days = this.config.executionRetentionDays): Date {
    return new Date(this.clock.now().getTime() - days * DAY_MS);
  }
}

/**
 * The filters a page was listed under, as its cursor keeps them: a cursor continues the list it came from, and
 * the same position under other filters would be another list's middle (its newer executions never shown), so it
 * is refused. The action by id, so the per-action list and the tenant-wide one filtered by that action are one.
 */
function filtersOf(filter: ExecutionFilter): string {
  return JSON.stringify([filter.actionId ?? null, filter.status ?? null, filter.since?.toISOString() ?? null, filter.until?.toISOString() ?? null]);
}

/** A point per period from `from`, `count` of them, with zeros where nothing ran. */
function series(rows: StatsRow[], from: number, periodMs: number, count: number): StatsPointDto[] {
  const byStart = new Map(rows.map((row) => [row.periodStart.getTime(), row]));
  return Array.from({ length: count }, (_, index) => {
    const start = from + index * periodMs;
    return { start: new Date(start).toISOString(), ...summary(byStart.get(start)) };
  });
}

function summary(row: StatsRow | undefined): Omit<StatsPointDto, 'start'> {
  if (!row) return { executions: 0, succeeded: 0, failed: 0, p50_ms: null, p95_ms: null };
  return {
    executions: row.executions,
    succeeded: row.succeeded,
    failed: row.failed,
    p50_ms: percentile(row.histogram, 0.5),
    p95_ms: percentile(row.histogram, 0.95),
  };
}

export function mapExecution(execution: Execution): ExecutionDto {
  return {
    id: execution.id,
    action_name: execution.actionName,
    status: execution.status,
    http_status: execution.httpStatus,
    result: execution.result,
    error: execution.error,
    duration_ms: execution.durationMs,
    attempts: execution.attempts,
    created_at: execution.createdAt.toISOString(),
  };
}

function mapLogged(execution: Execution): LoggedExecutionDto {
  return { ...mapExecution(execution), replay_of: execution.replayOf };
}

function mapWithAttempts(execution: Execution): ExecutionDetailDto {
  return {
    ...mapLogged(execution),
    attempt_log: execution.attemptLog.map((attempt) => ({
      attempt: attempt.attempt,
      started_at: attempt.started_at,
      duration_ms: attempt.duration_ms,
      http_status: attempt.http_status,
      error: attempt.error,
    })),
  };
}
