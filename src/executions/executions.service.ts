import { Injectable } from '@nestjs/common';
import { RawBody } from '../common/json-body-parser';
import { IdGenerator } from '../common/id-generator';
import { inexactNumbers } from '../common/json-numbers';
import { ActionsService } from '../actions/actions.service';
import { Clock } from '../common/clock';
import { TenantId } from '../common/tenant-id';
import { AppConfig } from '../config/app-config';
import { AsOf, asOfCall } from '../database/read-scope';
import { Metrics } from '../metrics/metrics';
import { ATTRIBUTE } from '../tracing/span-attributes';
import { TraceParent } from '../tracing/trace-context';
import { Tracing } from '../tracing/tracing';
import { WebhookService } from '../webhooks/webhook.service';
import { ExecutionDto } from './dto/execution.response';
import { AttemptRecord, Execution } from './execution.entity';
import { ExecutionLogService, mapExecution } from './execution-log.service';
import { judge, loggedText } from './execution-outcome';
import { HeaderMask, payloadOf, responseHeaderMask } from './execution-payload';
import { InvalidParametersError, NoActiveHmacKeyError, PayloadExpiredError, PayloadNotLoggedError } from './executions.errors';
import { ExecutionsRepository } from './executions.repository';
import { ParameterValidators } from './parameter-validators';

/** The inexact numbers an error names: enough to find them, not a second copy of a 1 MB body. */
const MAX_REPORTED_NUMBERS = 10;

/** Running actions (contract "Executions") and replaying them. Exported for the admin backend. */
@Injectable()
export class ExecutionsService {
  private readonly responseMask: HeaderMask;

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
    private readonly log: ExecutionLogService,
  ) {
    this.responseMask = responseHeaderMask(config.executionPayloadMaskedHeaderWords);
  }

  /**
   * Checks the parameters against the action's schema (nothing is sent when they fail), then delivers the signed
   * call, retrying as the contract allows, and stores the outcome with every attempt, and with what was sent and
   * what came back when the action's payload logging is on. Numbers go out as the caller wrote them
   * (json-numbers.ts); one that cannot is refused. The action and the keys are read as of `asOf` (see AsOf; by
   * default, the call). The check, each attempt and the storing are spans under `trace`, and the receiver joins it
   * (traceparent). `replayOf` names the original execution of a replay, whose id the call carries as its
   * `webhook-id` (Standard Webhooks: the same id when a message is sent again).
   */
  async execute(
    tenantId: TenantId,
    actionName: string,
    parameters: Record<string, unknown> = {},
    asOf?: AsOf,
    trace?: TraceParent,
    replayOf?: string,
  ): Promise<ExecutionDto & { replay_of?: string }> {
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
    const report = await this.webhooks.deliver(action.webhookUrl, action.name, parameters, replayOf ?? id, keys, trace);
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
      replayOf: replayOf ?? null,
      payload: action.payloadLogging ? 'kept' : 'off',
    });
    // An action deleted while its webhook ran: the row is stored all the same, and purged with the rest of the
    // action's history by the log's maintenance (ExecutionLogMaintenance).
    const toStore = { execution, payload: action.payloadLogging ? payloadOf(report, this.responseMask) : undefined };
    await this.tracing.span(trace, 'store execution', { [ATTRIBUTE.executionId]: id, [ATTRIBUTE.executionStatus]: verdict.status, [ATTRIBUTE.dbSystem]: 'postgresql' }, () =>
      this.executions.insert(toStore),
    );
    const answer = { ...mapExecution(execution), result: verdict.result, error: verdict.error };
    return replayOf === undefined ? answer : { ...answer, replay_of: replayOf };
  }

  /**
   * Runs the action again with the parameters of one of its executions, as a new execution (see execute): against
   * the action's current definition, its parameters checked again, signed anew, under the original's webhook-id.
   * Needs the payload: 409 when it was not logged (or was too large to keep whole), 410 when it has expired.
   */
  async replay(tenantId: TenantId, actionName: string, executionId: string, asOf?: AsOf, trace?: TraceParent): Promise<ExecutionDto & { replay_of?: string }> {
    const { execution, payload } = await this.log.findWithPayload(tenantId, actionName, executionId, asOf);
    if (payload.status === 'not_logged') throw new PayloadNotLoggedError('its payload was not logged (payload logging was off for the action)');
    if (payload.status === 'expired' || !payload.request) throw new PayloadExpiredError(this.config.executionPayloadRetentionDays);
    if (payload.request.body_truncated) throw new PayloadNotLoggedError('its parameters were larger than the log keeps whole');
    const parameters = new RawBody('application/json', Buffer.from(payload.request.body ?? '{}', 'utf8')).parseObject({ forwardsAsWritten: true })?.parameters;
    return this.execute(tenantId, actionName, (parameters ?? {}) as Record<string, unknown>, asOf, trace, execution.replayOf ?? execution.id);
  }
}
