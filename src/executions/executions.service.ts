import { Injectable, Logger } from '@nestjs/common';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { RawBody } from '../common/json-body-parser';
import { IdGenerator } from '../common/id-generator';
import { inexactNumbers } from '../common/json-numbers';
import { ActionNotFoundError } from '../actions/actions.errors';
import { ActionsService, ExecutableAction } from '../actions/actions.service';

import { Clock } from '../common/clock';
import { TenantId } from '../common/tenant-id';
import { AppConfig } from '../config/app-config';
import { AsOf, asOfCall } from '../database/read-scope';
import { Metrics } from '../metrics/metrics';
import { ATTRIBUTE } from '../tracing/span-attributes';
import { parseTraceParent, startTrace, TraceParent, traceHeaders } from '../tracing/trace-context';
import { TenancyService } from '../tenancy/tenancy.service';
import { TenantNotFoundError } from '../tenancy/tenancy.errors';
import { canonicalJson } from '../webhooks/canonical-json';
import { DeliveryAttempt, DeliveryReport } from '../webhooks/webhook.service';
import { Tracing } from '../tracing/tracing';
import { WebhookService } from '../webhooks/webhook.service';
import { CircuitBreakers, CircuitView, Guarded } from '../webhooks/circuit-breakers';
import { DeliveryOutcome } from '../webhooks/delivery-outcome';
import { SigningKeys } from '../webhooks/hmac-keys.service';
import { buildWebhookBody } from '../webhooks/webhook-signer';
import { ExecutionDto } from './dto/execution.response';
import { AttemptRecord, Execution, UNFINISHED } from './execution.entity';
import { ExecutionJob, ExecutionJobs, MAX_INTERRUPTED_RUNS } from './execution-jobs';
import { ExecutionLogService, mapExecution } from './execution-log.service';
import { ExecutionVerdict, judge, loggedText } from './execution-outcome';
import { HeaderMask, payloadOf, responseHeaderMask } from './execution-payload';
import {
  IdempotencyKeyInUseError,
  IdempotencyKeyReusedError,
  InvalidParametersError,
  NoActiveHmacKeyError,
  PayloadExpiredError,
  PayloadNotLoggedError,
  TooManyUnfinishedExecutionsError,
} from './executions.errors';
import { IdempotencyKeysRepository, KeyedExecution, StoredKey } from './idempotency-keys.repository';
import { IDEMPOTENCY_KEY_RETENTION_MS, requestFingerprint } from './idempotency';
import { ExecutionReadsRepository } from './execution-reads.repository';
import { ExecutionToStore, ExecutionWritesRepository } from './execution-writes.repository';
import { ParameterValidators } from './parameter-validators';

/** The inexact numbers an error names: enough to find them, not a second copy of a 1 MB body. */
const MAX_REPORTED_NUMBERS = 10;

/** How long a retry of a key whose first request is still running is asked to wait (Retry-After). */
const RETRY_KEY_IN_USE_SECONDS = 1;
/**
 * How long past the webhook budget (WEBHOOK_TIMEOUT_MS) a key's first request holds it before storing its execution:
 * the checks, the claim and the store, with room to spare. Only a request whose replica stopped mid-call waits it out.
 */
const KEY_LEASE_MARGIN_MS = 30_000;

/** An execute request's answer: the execution, whether it was accepted to run in the background (202), and whether it is a key's stored execution given again. */
export interface ExecuteAnswer {
  execution: ExecutionDto;
  accepted: boolean;
  replayed: boolean;
}

/** What the checks of an execution found: the action as it is now, and the tenant's signing keys. */
interface Prepared {
  action: ExecutableAction;
  keys: SigningKeys;
}

/** How long a tenant at its limit of unfinished asynchronous executions is asked to wait (Retry-After). */
const RETRY_UNFINISHED_SECONDS = 5;

/** Running actions (contract "Executions"), now or in the background, and replaying them. Exported for the admin backend. */
@Injectable()
export class ExecutionsService {
  private readonly logger = new Logger('AsyncExecutions');
  private readonly responseMask: HeaderMask;

  constructor(
    private readonly actions: ActionsService,
    private readonly validators: ParameterValidators,
    private readonly webhooks: WebhookService,
    private readonly executions: ExecutionWritesRepository,
    private readonly stored: ExecutionReadsRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly tracing: Tracing,
    private readonly metrics: Metrics,
    private readonly log: ExecutionLogService,
    private readonly jobs: ExecutionJobs,
    private readonly tenancy: TenancyService,
    private readonly circuits: CircuitBreakers,
    private readonly keys: IdempotencyKeysRepository,
  ) {
    this.responseMask = responseHeaderMask(config.executionPayloadMaskedHeaderWords);
  }

  /**
   * An execute request: now (`execute`) or accepted to run in the background (`respondAsync`: `accept`), and, with
   * an idempotency key, at most once per key (docs/decisions.md, "Idempotency keys"). After the same checks as
   * without it (a request refused by them holds no key), the key is claimed in the database (one INSERT ... ON
   * CONFLICT) under the new execution's id before anything is sent. A key already held answers its execution as
   * stored (`replayed`, and `accepted` as its first request was), or 422 when it came with another action or other
   * parameters, or 409 while its first request has stored nothing yet. A first request that stopped before storing
   * its execution (its replica died) holds the key for KEY_LEASE_MARGIN_MS past the webhook budget; a retry after
   * that makes the call, under the same execution id, so the receiver sees the same webhook-id. A retry the checks
   * now refuse (the action's schema tightened, its HMAC keys revoked since the first request) still answers the
   * key's stored execution, or 409 while it runs: the key is looked up only then, off the path of a request that passes.
   */
  async run(
    tenantId: TenantId,
    actionName: string,
    parameters: Record<string, unknown>,
    { respondAsync, idempotencyKey: key }: { respondAsync: boolean; idempotencyKey?: string },
    asOf?: AsOf,
    trace?: TraceParent,
  ): Promise<ExecuteAnswer> {
    if (key === undefined) {
      const execution = respondAsync ? await this.accept(tenantId, actionName, parameters, asOf, trace) : await this.execute(tenantId, actionName, parameters, asOf, trace);
      return { execution, accepted: respondAsync, replayed: false };
    }
    let ready: Prepared;
    try {
      ready = await this.prepare(tenantId, actionName, parameters, asOf, trace);
    } catch (error) {
      if (!(error instanceof InvalidParametersError || error instanceof NoActiveHmacKeyError)) throw error;
      // A retry of a request made before the schema was tightened (or the keys revoked): its answer, if it has one.
      const held = await this.keys.find(tenantId, key);
      if (!held?.fingerprint.equals(requestFingerprint(actionName, parameters))) throw error;
      const answer = await this.storedAnswer(tenantId, held);
      if (answer) return answer;
      if (held.leasedUntil > this.clock.now()) throw new IdempotencyKeyInUseError(key, RETRY_KEY_IN_USE_SECONDS);
      throw error;
    }
    const now = this.clock.now();
    const fingerprint = requestFingerprint(ready.action.name, parameters);
    const leasedUntil = new Date(now.getTime() + this.config.webhook.timeoutMs + KEY_LEASE_MARGIN_MS);
    let ours: KeyedExecution | undefined = { executionId: this.ids.next(), executionCreatedAt: now, respondAsync };
    const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_KEY_RETENTION_MS);
    if (!(await this.keys.claim(tenantId, key, { ...ours, fingerprint, now, leasedUntil, expiredBefore }))) {
      const held = await this.keys.find(tenantId, key);
      // Deleted by the maintenance between the two statements: as good as in use, for a moment.
      if (!held) throw new IdempotencyKeyInUseError(key, RETRY_KEY_IN_USE_SECONDS);
      if (!held.fingerprint.equals(fingerprint)) throw new IdempotencyKeyReusedError(key);
      const answer = await this.storedAnswer(tenantId, held);
      if (answer) return answer;
      ours = held.leasedUntil <= now && (await this.keys.takeOver(tenantId, key, now, respondAsync, leasedUntil)) ? { ...held, respondAsync } : undefined;
      if (!ours) throw new IdempotencyKeyInUseError(key, RETRY_KEY_IN_USE_SECONDS);
    }
    if (!respondAsync) {
      return { execution: await this.deliver(tenantId, ready, parameters, ours.executionId, ours.executionCreatedAt, trace), accepted: false, replayed: false };
    }
    try {
      return { execution: await this.enqueue(tenantId, ready.action, parameters, ours.executionId, ours.executionCreatedAt, trace), accepted: true, replayed: false };
    } catch (error) {
      // Refused (the tenant's unfinished executions at their bound): nothing stored, so the key is free again.
      if (error instanceof TooManyUnfinishedExecutionsError) await this.keys.release(tenantId, key, ours.executionId);
      throw error;
    }
  }

  /** A held key's execution as stored, answered again (`accepted` as its first request was); undefined before it is stored. */
  private async storedAnswer(tenantId: TenantId, held: StoredKey): Promise<ExecuteAnswer | undefined> {
    const stored = await this.stored.findAt(tenantId, held.executionId, held.executionCreatedAt);
    return stored && { execution: mapExecution(stored), accepted: held.respondAsync, replayed: true };
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
    const ready = await this.prepare(tenantId, actionName, parameters, asOf, trace);
    return this.deliver(tenantId, ready, parameters, this.ids.next(), this.clock.now(), trace, replayOf);
  }

  /** The call `execute` makes once the checks passed, as execution `id` made at `createdAt`, and its stored outcome. */
  private async deliver(
    tenantId: TenantId,
    ready: Prepared,
    parameters: Record<string, unknown>,
    id: string,
    createdAt: Date,
    trace?: TraceParent,
    replayOf?: string,
  ): Promise<ExecutionDto & { replay_of?: string }> {
    const { report, verdict } = await this.deliverThroughCircuit(ready, parameters, replayOf ?? id, trace);
    const { execution, payload } = this.outcome(tenantId, ready.action, id, createdAt, replayOf ?? null, report, verdict, []);
    // An action deleted while its webhook ran: the row is stored all the same, and purged with the rest of the
    // action's history by the log's maintenance (ExecutionLogMaintenance).
    await this.tracing.span(trace, 'store execution', { [ATTRIBUTE.executionId]: id, [ATTRIBUTE.executionStatus]: verdict.status, [ATTRIBUTE.dbSystem]: 'postgresql' }, () =>
      this.executions.insert({ execution, payload }),
    );
    const answer = { ...mapExecution(execution), result: verdict.result, error: verdict.error };
    return replayOf === undefined ? answer : { ...answer, replay_of: replayOf };
  }

  /**
   * `Prefer: respond-async` (RFC 7240): the same checks as `execute`, in the same order and with the same errors,
   * then the execution is stored `pending` with its job in the queue (one transaction) and returned at once; a
   * replica runs it in the background (`runAccepted`). A tenant with ASYNC_EXECUTIONS_PER_TENANT unfinished gets
   * 429. The run continues `trace`.
   */
  async accept(tenantId: TenantId, actionName: string, parameters: Record<string, unknown> = {}, asOf?: AsOf, trace?: TraceParent): Promise<ExecutionDto> {
    const { action } = await this.prepare(tenantId, actionName, parameters, asOf, trace);
    return this.enqueue(tenantId, action, parameters, this.ids.next(), this.clock.now(), trace);
  }

  /** What `accept` does once the checks passed: execution `id`, made at `createdAt`, stored pending with its job. */
  private async enqueue(tenantId: TenantId, action: ExecutableAction, parameters: Record<string, unknown>, id: string, createdAt: Date, trace?: TraceParent): Promise<ExecutionDto> {
    const pending = Object.assign(new Execution(), {
      id,
      tenantId,
      actionId: action.id,
      actionName: action.name,
      status: 'pending',
      httpStatus: null,
      result: null,
      error: '',
      durationMs: 0,
      attempts: 0,
      attemptLog: [],
      createdAt,
      replayOf: null,
      payload: action.payloadLogging ? 'kept' : 'off',
    } satisfies Partial<Execution>);
    const job: ExecutionJob = {
      tenantId,
      executionId: pending.id,
      createdAt: pending.createdAt.toISOString(),
      actionName: action.name,
      parameters: canonicalJson(parameters),
      ...(trace ? traceHeaders(trace) : {}),
    };
    const { perTenant } = this.config.asyncExecutions;
    if (!(await this.executions.accept(tenantId, pending, perTenant, (transaction) => this.jobs.enqueue(transaction, job)))) {
      throw new TooManyUnfinishedExecutionsError(perTenant, RETRY_UNFINISHED_SECONDS);
    }
    this.metrics.executionsAccepted.inc();
    this.jobs.wake();
    return mapExecution(pending);
  }

  /**
   * Runs an accepted execution (a job taken from the queue, on any replica): `running`, then the call as `execute`
   * makes it (checked again against the action as it is now, signed, retried, its webhook-id the execution's id),
   * each attempt recorded as it ends, then the outcome. An execution that finished already (a run of it whose
   * lease ran out stored it), or whose row is gone, is not run again. One whose tenant was disabled, or whose action,
   * parameters or keys no longer allow the call, fails without a call, saying why. False when nothing was to be done.
   */
  async runAccepted(job: ExecutionJob): Promise<boolean> {
    const tenantId = await this.tenancy.requireId(job.tenantId).catch((error: unknown) => {
      if (error instanceof TenantNotFoundError) return undefined;
      throw error;
    });
    if (!tenantId) return false;
    const createdAt = new Date(job.createdAt);
    const before = await this.executions.markRunning(tenantId, job.executionId, createdAt);
    if (!before) return false;
    const trace = continuedTrace(job);
    const parameters = new RawBody('application/json', Buffer.from(job.parameters, 'utf8')).parseObject({ forwardsAsWritten: true }) ?? {};
    // Disabled meanwhile: nothing goes out on its behalf (as its bearer and the management API's runs are refused).
    if (!(await this.tenancy.isActive(tenantId))) return this.failUnrun(tenantId, job, before, 'the tenant was disabled before the execution ran');
    let ready: Prepared;
    try {
      ready = await this.prepare(tenantId, job.actionName, parameters, undefined, trace);
    } catch (error) {
      const why = notRunnable(error);
      if (why === undefined) throw error;
      return this.failUnrun(tenantId, job, before, why);
    }
    const earlier = before.attemptLog;
    const { report, verdict } = await this.deliverThroughCircuit(ready, parameters, job.executionId, trace, {
      // Each attempt as it ends, numbered after those of an interrupted run: the execution's page shows progress.
      onAttempt: (attempts) =>
        this.executions.recordAttempts(tenantId, job.executionId, createdAt, [...earlier, ...attempts.map((attempt) => attemptRecord({ ...attempt, attempt: attempt.attempt + earlier.length }))]).catch(
          (error: unknown) => this.logger.warn({ err: error }, 'recording an attempt of an asynchronous execution failed'),
        ),
    });
    const { execution, payload } = this.outcome(tenantId, ready.action, job.executionId, createdAt, null, report, verdict, earlier);
    return this.tracing.span(trace, 'store execution', { [ATTRIBUTE.executionId]: job.executionId, [ATTRIBUTE.executionStatus]: verdict.status, [ATTRIBUTE.dbSystem]: 'postgresql' }, () =>
      this.executions.finish(tenantId, { execution, payload }),
    );
  }

  /** An accepted execution that fails without a call, saying `why`; false when it had finished meanwhile. */
  private async failUnrun(tenantId: TenantId, job: ExecutionJob, before: Pick<Execution, 'attempts' | 'attemptLog'>, why: string): Promise<boolean> {
    const row = await this.stored.find(tenantId, job.executionId, new Date(0));
    if (!row) return false;
    return this.executions.finish(tenantId, { execution: Object.assign(row, { status: 'failed', error: why, attempts: before.attempts, attemptLog: before.attemptLog }) });
  }

  /**
   * An accepted execution none of whose MAX_INTERRUPTED_RUNS + 1 runs could finish (each replica running it stopped,
   * or lost the database): it fails, saying so, and is not run again.
   */
  async abandon(job: ExecutionJob): Promise<boolean> {
    const tenantId = await this.tenancy.requireId(job.tenantId).catch(() => undefined);
    const row = tenantId && (await this.stored.find(tenantId, job.executionId, new Date(0)));
    if (!tenantId || !row || !UNFINISHED.includes(row.status)) return false;
    const error = `the execution was interrupted ${MAX_INTERRUPTED_RUNS + 1} times (the replica running it stopped) and is not tried again`;
    return this.executions.finish(tenantId, { execution: Object.assign(row, { status: 'failed', error }) });
  }

  /**
   * What `execute` and `accept` check, in this order and with these errors: the action (404), numbers that could
   * not be forwarded as written and the schema (400 Invalid parameters), an active HMAC key (409). Read as of
   * `asOf` (see AsOf; by default, the call); the check is a span under `trace`.
   */
  private async prepare(tenantId: TenantId, actionName: string, parameters: Record<string, unknown>, asOf?: AsOf, trace?: TraceParent): Promise<Prepared> {
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
    return { action, keys };
  }

  /**
   * The call through the action's circuit (CircuitBreakers: one per action, a new webhook URL starts closed): delivered,
   * or, while the circuit is open (or half-open, its probe under way), failed at once with no attempt, saying so
   * and until when. A connection failure, a timeout or a 429/5xx once the retries are spent counts against the
   * receiver; any other answer shows it is up.
   */
  private async deliverThroughCircuit(
    { action, keys }: { action: ExecutableAction; keys: SigningKeys },
    parameters: Record<string, unknown>,
    webhookId: string,
    trace?: TraceParent,
    options?: { onAttempt?: (attempts: readonly DeliveryAttempt[]) => Promise<void> },
  ): Promise<{ report: Delivered; verdict: ExecutionVerdict }> {
    const guarded = await this.circuits.run(action.id, action.webhookUrl, async () => {
      const report = await this.webhooks.deliver(action.webhookUrl, action.name, parameters, webhookId, keys, trace, options);
      return { report, failed: receiverDown(report.final) };
    });
    if (guarded.ran) return { report: guarded.value.report, verdict: judge(guarded.value.report.final) };
    this.metrics.executionsShortCircuited.inc();
    // What would have been sent, so the execution can be replayed once the receiver is back.
    const unsent = buildWebhookBody({ action_name: action.name, parameters, timestamp: this.clock.nowSeconds() }, keys);
    return { report: { attempts: [], durationMs: 0, unsent }, verdict: { status: 'failed', httpStatus: null, result: null, error: circuitError(guarded) } };
  }

  /** The circuit of the action `actionName` as this replica sees it (the management API's `circuit`). */
  async circuit(tenantId: TenantId, actionName: string, asOf?: AsOf): Promise<CircuitView> {
    const action = await this.actions.findExecutable(tenantId, actionName, asOfCall(asOf));
    return this.circuits.view(action.id, action.webhookUrl);
  }

  /** The stored execution a delivery makes, after `earlier` attempts (of an interrupted run), and its payload when kept. */
  private outcome(
    tenantId: TenantId,
    action: Pick<ExecutableAction, 'id' | 'name' | 'payloadLogging'>,
    id: string,
    createdAt: Date,
    replayOf: string | null,
    delivered: Delivered,
    verdict: ExecutionVerdict,
    earlier: readonly AttemptRecord[],
  ): ExecutionToStore {
    const report = earlier.length === 0 ? delivered : { ...delivered, attempts: delivered.attempts.map((attempt) => ({ ...attempt, attempt: attempt.attempt + earlier.length })) };
    this.metrics.executions.inc({ status: verdict.status });
    const execution = Object.assign(new Execution(), {
      id,
      tenantId,
      actionId: action.id,
      actionName: action.name,
      status: verdict.status,
      httpStatus: verdict.httpStatus,
      // The log keeps a bounded text; the answer carries the receiver's whole.
      result: verdict.result === null ? null : loggedText(verdict.result),
      error: loggedText(verdict.error),
      durationMs: report.durationMs,
      attempts: earlier.length + report.attempts.length,
      attemptLog: [...earlier, ...report.attempts.map(attemptRecord)],
      createdAt,
      replayOf,
      payload: action.payloadLogging ? 'kept' : 'off',
    } satisfies Execution);
    return { execution, payload: action.payloadLogging ? payloadOf(report, this.responseMask) : undefined };
  }

  /**
   * Runs the action again with the parameters of one of its executions, as a new execution (see execute): against
   * the action's current definition, its parameters checked again, signed anew, under the original's webhook-id.
   * Needs the payload: 409 when it was not logged (or was too large to keep whole), 410 when it has expired.
   */
  async replay(tenantId: TenantId, actionName: string, executionId: string, asOf?: AsOf, trace?: TraceParent): Promise<ExecutionDto & { replay_of?: string }> {
    const { execution, payload } = await this.log.findWithPayload(tenantId, actionName, executionId, asOf);
    if (payload.status === 'pending') throw new PayloadNotLoggedError('it has not finished yet');
    if (payload.status === 'not_logged') throw new PayloadNotLoggedError('its payload was not logged (payload logging was off for the action)');
    if (payload.status === 'expired' || !payload.request) throw new PayloadExpiredError(this.config.executionPayloadRetentionDays);
    if (payload.request.body_truncated) throw new PayloadNotLoggedError('its parameters were larger than the log keeps whole');
    const parameters = new RawBody('application/json', Buffer.from(payload.request.body ?? '{}', 'utf8')).parseObject({ forwardsAsWritten: true })?.parameters;
    return this.execute(tenantId, actionName, (parameters ?? {}) as Record<string, unknown>, asOf, trace, execution.replayOf ?? execution.id);
  }
}

/** A delivery's attempts; none, and the body that would have been sent, when the circuit refused the call. */
type Delivered = Pick<DeliveryReport, 'attempts' | 'durationMs'> & { unsent?: string };

/** Whether a delivery's outcome counts against the receiver's circuit: it could not be reached, or answered 429/5xx. */
function receiverDown(outcome: DeliveryOutcome): boolean {
  switch (outcome.kind) {
    case 'timed_out':
    case 'unreachable':
      return true;
    case 'answered':
      return outcome.status === 429 || outcome.status >= 500;
    case 'body_too_large':
      return false;
  }
}

/** The `error` of an execution the circuit refused. */
function circuitError(refused: Extract<Guarded<unknown>, { ran: false }>): string {
  const until = refused.until.toISOString();
  return refused.state === 'open'
    ? `webhook circuit open after ${refused.consecutiveFailures} consecutive failed executions: no call is sent before ${until}`
    : `webhook circuit half-open: a probe call is under way, no other call is sent until it ends (by ${until})`;
}

function attemptRecord({ attempt, startedAt, outcome }: DeliveryAttempt): AttemptRecord {
  const judged = judge(outcome);
  return { attempt, started_at: startedAt.toISOString(), duration_ms: outcome.durationMs, http_status: judged.httpStatus, error: loggedText(judged.error) };
}

/** The accepting request's trace, continued by the run (a new one when it had none). */
function continuedTrace(job: ExecutionJob): TraceParent {
  const context = parseTraceParent(job.traceparent, job.tracestate);
  return context ? trace.setSpanContext(ROOT_CONTEXT, context) : startTrace();
}

/** Why an accepted execution cannot be run any more, in its `error`; undefined for a failure worth another run. */
function notRunnable(error: unknown): string | undefined {
  if (error instanceof ActionNotFoundError) return 'the action was deleted before the execution ran';
  if (error instanceof InvalidParametersError) return `the parameters no longer pass the action's json_schema: ${error.details}`;
  if (error instanceof NoActiveHmacKeyError) return `${error.message} when the execution ran`;
  return undefined;
}
