import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { isSchemaMissing } from '../database/database-errors';
import { IdGenerator } from '../common/id-generator';
import { inexactNumbers } from '../common/json-numbers';
import { ActionsService } from '../actions/actions.service';
import { Clock } from '../common/clock';
import { TenantId } from '../common/tenant-id';
import { isUuid } from '../common/uuid';
import { AppConfig } from '../config/app-config';
import { AsOf, asOfCall } from '../database/read-scope';
import { Metrics } from '../metrics/metrics';
import { ATTRIBUTE } from '../tracing/span-attributes';
import { TraceParent } from '../tracing/trace-context';
import { Tracing } from '../tracing/tracing';
import { WebhookService } from '../webhooks/webhook.service';
import { ExecutionDetailDto } from './dto/execution-detail.response';
import { ExecutionDto } from './dto/execution.response';
import { AttemptRecord, Execution, ExecutionStatus } from './execution.entity';
import { judge, loggedText } from './execution-outcome';
import { ExecutionNotFoundError, InvalidParametersError, NoActiveHmacKeyError } from './executions.errors';
import { ExecutionsRepository } from './executions.repository';
import { ParameterValidators } from './parameter-validators';

/** The inexact numbers an error names: enough to find them, not a second copy of a 1 MB body. */
const MAX_REPORTED_NUMBERS = 10;

const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Running actions (contract "Executions") and their delivery log. Exported for the admin backend. */
@Injectable()
export class ExecutionsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Executions');
  private pruneTimer?: NodeJS.Timeout;

  constructor(
    private readonly actions: ActionsService,
    private readonly validators: ParameterValidators,
    private readonly webhooks: WebhookService,
    private readonly executions: ExecutionsRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly tracing: Tracing,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Checks the parameters against the action's schema (nothing is sent when they fail), then delivers the signed
   * call, retrying as the contract allows, and stores the outcome with every attempt. Numbers go out as the
   * caller wrote them (json-numbers.ts); one that cannot is refused. The action and the keys are read as of
   * `asOf` (see AsOf; by default, the call). The check, each attempt and the storing are spans under `trace`, and
   * the receiver joins it (traceparent).
   */
  async execute(tenantId: TenantId, actionName: string, parameters: Record<string, unknown> = {}, asOf?: AsOf, trace?: TraceParent): Promise<ExecutionDto> {
    const freshAsOf = asOfCall(asOf);
    const action = await this.actions.findExecutable(tenantId, actionName, freshAsOf);
    // A number the signed call would carry changed is refused before the schema is even consulted.
    const inexact = inexactNumbers(parameters, 'parameters', MAX_REPORTED_NUMBERS + 1);
    if (inexact.length > MAX_REPORTED_NUMBERS) inexact.splice(MAX_REPORTED_NUMBERS, Infinity, 'and more numbers like these');
    if (inexact.length > 0) throw new InvalidParametersError(inexact.join('; '));
    const problems = await this.validators.check(action, parameters, trace);
    if (problems) throw new InvalidParametersError(problems);
    const keys = await this.webhooks.signingKeys(tenantId, freshAsOf);
    if (!keys) throw new NoActiveHmacKeyError();

    const id = this.ids.next();
    const createdAt = this.clock.now();
    const report = await this.webhooks.deliver(action.webhookUrl, action.name, parameters, id, keys, trace);
    const verdict = judge(report.final);
    this.metrics.executions.inc({ status: verdict.status });
    const execution = Object.assign(new Execution(), {
      id,
      tenantId,
      actionId: action.id,
      actionName: action.name,
      status: verdict.status,
      httpStatus: verdict.httpStatus,
      // The log keeps a bounded text; the answer below carries the receiver's whole.
      result: verdict.result === null ? null : loggedText(verdict.result),
      error: loggedText(verdict.error),
      durationMs: report.durationMs,
      attempts: report.attempts.length,
      attemptLog: report.attempts.map(({ attempt, startedAt, outcome }): AttemptRecord => {
        const judged = judge(outcome);
        return { attempt, started_at: startedAt.toISOString(), duration_ms: outcome.durationMs, http_status: judged.httpStatus, error: loggedText(judged.error) };
      }),
      createdAt,
    });
    // The action may have been deleted while its webhook ran: the caller still gets the outcome, but there is no
    // history left to add it to (an action's executions are deleted with it).
    const stored = await this.tracing.span(trace, 'store execution', { [ATTRIBUTE.executionId]: id, [ATTRIBUTE.executionStatus]: verdict.status, [ATTRIBUTE.dbSystem]: 'postgresql' }, () =>
      this.executions.insert(execution),
    );
    if (stored === 'action_gone') {
      this.logger.warn({ executionId: id, action: action.name }, 'the action was deleted while it ran: its execution is not stored');
    }
    return { ...this.map(execution), result: verdict.result, error: verdict.error };
  }

  async list(tenantId: TenantId, actionName: string, limit: number, asOf?: AsOf): Promise<ExecutionDto[]> {
    const action = await this.actions.findExecutable(tenantId, actionName, asOf);
    return (await this.executions.listByAction(tenantId, action.id, limit)).map((execution) => this.map(execution));
  }

  /** The log as the management console shows it: newest first, optionally one status, with every attempt. */
  async listWithAttempts(tenantId: TenantId, actionName: string, limit: number, status?: ExecutionStatus): Promise<ExecutionDetailDto[]> {
    const action = await this.actions.findExecutable(tenantId, actionName);
    return (await this.executions.listByAction(tenantId, action.id, limit, status)).map((execution) => this.mapWithAttempts(execution));
  }

  async getWithAttempts(tenantId: TenantId, actionName: string, id: string): Promise<ExecutionDetailDto> {
    const action = await this.actions.findExecutable(tenantId, actionName);
    const execution = isUuid(id) ? await this.executions.findByActionAndId(tenantId, action.id, id) : null;
    if (!execution) throw new ExecutionNotFoundError();
    return this.mapWithAttempts(execution);
  }

  /** Deletes executions older than EXECUTION_RETENTION_DAYS; returns how many. */
  async prune(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.executionRetentionDays * DAY_MS);
    return this.executions.deleteOlderThan(cutoff);
  }

  onApplicationBootstrap(): void {
    // With migrations pending there is nothing to prune, and the start-up has said so already (Migrations).
    const run = () =>
      this.prune().catch((error: unknown) => {
        if (!isSchemaMissing(error)) this.logger.warn({ err: error }, 'pruning old executions failed');
      });
    void run();
    this.pruneTimer = setInterval(run, PRUNE_EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.pruneTimer);
  }

  private mapWithAttempts(execution: Execution): ExecutionDetailDto {
    return {
      ...this.map(execution),
      attempt_log: execution.attemptLog.map((attempt) => ({
        attempt: attempt.attempt,
        started_at: attempt.started_at,
        duration_ms: attempt.duration_ms,
        http_status: attempt.http_status,
        error: attempt.error,
      })),
    };
  }

  private map(execution: Execution): ExecutionDto {
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
}
