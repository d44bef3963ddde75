import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { Attributes, Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { IdGenerator } from '../common/id-generator';
import { Clock } from '../common/clock';
import { TenantId } from '../common/tenant-id';
import { AppConfig } from '../config/app-config';
import { AsOf } from '../database/read-scope';
import { ATTRIBUTE } from '../tracing/span-attributes';
import { TraceParent } from '../tracing/trace-context';
import { Tracing } from '../tracing/tracing';
import { DeliveryOutcome } from './delivery-outcome';
import { HmacKeysService, SigningKeys } from './hmac-keys.service';
import { retryDelay } from './retry-policy';
import { WebhookClient } from './webhook-client';
import { buildWebhookBody, standardWebhookHeaders, WebhookPayload } from './webhook-signer';
import { WebhookValidationError } from './webhooks.errors';

export interface DeliveryAttempt {
  attempt: number;
  startedAt: Date;
  outcome: DeliveryOutcome;
  /**
   * What was sent: the exact bytes signed (as text) and the headers, the trace context's included (besides those
   * WebhookClient adds to every POST).
   */
  sent: { body: string; headers: Record<string, string> };
}

/** Every attempt of one delivery; the last one decides. */
export interface DeliveryReport {
  attempts: DeliveryAttempt[];
  final: DeliveryOutcome;
  durationMs: number;
}

/** Signs and sends the service's POSTs to webhook URLs (spec sections 2.4, 5.3 and 6). */
@Injectable()
export class WebhookService {
  constructor(
    private readonly client: WebhookClient,
    private readonly hmacKeys: HmacKeysService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly ids: IdGenerator,
    private readonly tracing: Tracing,
  ) {}

  /** The tenant's signing keys as of `asOf` (see AsOf), or undefined when it has no active one. */
  signingKeys(tenantId: TenantId, asOf?: AsOf): Promise<SigningKeys | undefined> {
    return this.hmacKeys.signingKeys(tenantId, asOf);
  }

  /**
   * An execution (spec 6): the signed POST, retried on connection failures and 429/5xx while the timeout lasts.
   * Every attempt carries the same `webhook-id` (so a receiver can drop duplicates) and a fresh timestamp and
   * signature, and the `traceparent` of its own span under `trace` (a span "deliver webhook" when recording).
   * `onAttempt` hears of the attempts so far when one is to be retried, before the wait.
   */
  deliver(
    url: string,
    actionName: string,
    parameters: Record<string, unknown>,
    webhookId: string,
    keys: SigningKeys,
    trace?: TraceParent,
    options: { onAttempt?: (attempts: readonly DeliveryAttempt[]) => Promise<void> } = {},
  ): Promise<DeliveryReport> {
    return this.tracing.span(trace, 'deliver webhook', { [ATTRIBUTE.actionName]: actionName, [ATTRIBUTE.executionId]: webhookId }, async (delivery) => {
      const budget = this.config.webhook.timeoutMs;
      const started = performance.now();
      const attempts: DeliveryAttempt[] = [];
      for (let attempt = 1; ; attempt++) {
        const startedAt = this.clock.now();
        const payload: WebhookPayload = { action_name: actionName, parameters, timestamp: Math.floor(startedAt.getTime() / 1000) };
        const body = buildWebhookBody(payload, keys);
        const headers = standardWebhookHeaders(webhookId, payload.timestamp, body, keys);
        const remaining = budget - (performance.now() - started);
        const { outcome, sent } = await this.post(delivery.trace, url, body, headers, true, attempt, remaining);
        attempts.push({ attempt, startedAt, outcome, sent: { body, headers: sent } });
        const delay = retryDelay(outcome, attempt, this.config.webhook.maxRetries, budget - (performance.now() - started));
        if (delay === undefined) {
          if (delivery.span) endDelivery(delivery.span, attempt, outcome);
          return { attempts, final: outcome, durationMs: Math.round(performance.now() - started) };
        }
        await options.onAttempt?.(attempts);
        await sleep(delay);
      }
    });
  }

  /**
   * The registration test (spec 4.1.2): `{action_name, parameters: {}, timestamp, test: true}`, signed when the
   * tenant has a key. Any 2xx passes; anything else throws the spec's `action validation failed: ...`.
   */
  async registrationTest(tenantId: TenantId, actionName: string, webhookUrl: string, trace?: TraceParent): Promise<void> {
    const payload: WebhookPayload = { action_name: actionName, parameters: {}, timestamp: this.clock.nowSeconds(), test: true };
    const outcome = await this.send(tenantId, webhookUrl, payload, this.ids.next(), false, trace);
    const problem = registrationProblem(outcome);
    if (problem) throw new WebhookValidationError(problem);
  }

  /** Signs `payload` with the tenant's keys and POSTs it once. */
  async send(tenantId: TenantId, url: string, payload: WebhookPayload, webhookId: string, readBody: boolean, trace?: TraceParent): Promise<DeliveryOutcome> {
    const keys = await this.hmacKeys.signingKeys(tenantId);
    const body = buildWebhookBody(payload, keys);
    const headers = standardWebhookHeaders(webhookId, payload.timestamp, body, keys);
    return (await this.post(trace, url, body, headers, readBody, 1)).outcome;
  }

  /**
   * One POST, in a CLIENT span of its own (when recording) whose context the receiver gets as `traceparent`:
   * its host and port, attempt, status and outcome, never the URL (whose path or query may hold a secret). `sent`
   * is every header given to the client (the trace context included), as the delivery log shows them.
   */
  private async post(
    trace: TraceParent | undefined,
    url: string,
    body: string,
    headers: Record<string, string>,
    readBody: boolean,
    attempt: number,
    timeoutMs?: number,
  ): Promise<{ outcome: DeliveryOutcome; sent: Record<string, string> }> {
    const started = this.tracing.start(trace, 'POST', this.tracing.recording ? attemptAttributes(url, readBody, attempt) : undefined, SpanKind.CLIENT);
    const sent = { ...headers, ...this.tracing.outgoingHeaders(started.trace) };
    const outcome = await this.client.post(url, body, sent, readBody, timeoutMs);
    if (started.span) endAttempt(started.span, outcome);
    return { outcome, sent };
  }
}

function attemptAttributes(url: string, readBody: boolean, attempt: number): Attributes {
  const target = new URL(url);
  const port = target.port ? Number(target.port) : target.protocol === 'https:' ? 443 : 80;
  const attributes: Attributes = {
    [ATTRIBUTE.httpMethod]: 'POST',
    [ATTRIBUTE.serverAddress]: target.hostname.replace(/^\[(.*)\]$/, '$1'),
    [ATTRIBUTE.serverPort]: port,
    [ATTRIBUTE.urlScheme]: target.protocol.slice(0, -1),
    [ATTRIBUTE.webhookKind]: readBody ? 'execution' : 'registration_test',
    [ATTRIBUTE.attempt]: attempt,
  };
  if (attempt > 1) attributes[ATTRIBUTE.httpResendCount] = attempt - 1;
  return attributes;
}

function endAttempt(span: Span, outcome: DeliveryOutcome): void {
  span.setAttribute(ATTRIBUTE.webhookOutcome, outcome.kind);
  if (outcome.kind === 'answered' || outcome.kind === 'body_too_large') span.setAttribute(ATTRIBUTE.httpStatus, outcome.status);
  const error = outcome.kind === 'answered' || outcome.kind === 'body_too_large' ? (outcome.status >= 400 ? String(outcome.status) : outcome.kind === 'body_too_large' ? 'body_too_large' : undefined) : outcome.kind;
  if (error) span.setAttribute(ATTRIBUTE.errorType, error).setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * The "deliver webhook" span's attempts and outcome; an error span when the delivery failed: its last attempt
 * timed out, reached nobody, or was answered with anything but a 2xx (or too long a body), as the execution then
 * fails. A 2xx carrying the receiver's own `error` was delivered: that is the action's failure, not the call's.
 * (Tracing.span ends the span.)
 */
function endDelivery(span: Span, attempts: number, final: DeliveryOutcome): void {
  span.setAttributes({ [ATTRIBUTE.attempts]: attempts, [ATTRIBUTE.webhookOutcome]: final.kind });
  const delivered = final.kind === 'answered' && final.status >= 200 && final.status < 300;
  if (delivered) return;
  const error = final.kind === 'answered' ? String(final.status) : final.kind;
  span.setAttribute(ATTRIBUTE.errorType, error).setStatus({ code: SpanStatusCode.ERROR });
}

function registrationProblem(outcome: DeliveryOutcome): string | undefined {
  switch (outcome.kind) {
    case 'answered':
    case 'body_too_large':
      return outcome.status >= 200 && outcome.status < 300 ? undefined : `webhook endpoint returned status ${outcome.status}`;
    case 'timed_out':
      return `webhook endpoint unreachable (timed out after ${outcome.timeoutMs} ms)`;
    case 'unreachable':
      return `webhook endpoint unreachable (${outcome.reason})`;
  }
}
