import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { IdGenerator } from '../common/id-generator';
import { Clock } from '../common/clock';
import { TenantId } from '../common/tenant-id';
import { AppConfig } from '../config/app-config';
import { AsOf } from '../database/read-scope';
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
  ) {}

  /** The tenant's signing keys as of `asOf` (see AsOf), or undefined when it has no active one. */
  signingKeys(tenantId: TenantId, asOf?: AsOf): Promise<SigningKeys | undefined> {
    return this.hmacKeys.signingKeys(tenantId, asOf);
  }

  /**
   * An execution (spec 6): the signed POST, retried on connection failures and 429/5xx while the timeout lasts.
   * Every attempt carries the same `webhook-id` (so a receiver can drop duplicates) and a fresh timestamp and
   * signature.
   */
  async deliver(url: string, actionName: string, parameters: Record<string, unknown>, webhookId: string, keys: SigningKeys): Promise<DeliveryReport> {
    const budget = this.config.webhook.timeoutMs;
    const started = performance.now();
    const attempts: DeliveryAttempt[] = [];
    for (let attempt = 1; ; attempt++) {
      const startedAt = this.clock.now();
      const payload: WebhookPayload = { action_name: actionName, parameters, timestamp: Math.floor(startedAt.getTime() / 1000) };
      const body = buildWebhookBody(payload, keys);
      const headers = standardWebhookHeaders(webhookId, payload.timestamp, body, keys);
      const remaining = budget - (performance.now() - started);
      const outcome = await this.client.post(url, body, headers, true, remaining);
      attempts.push({ attempt, startedAt, outcome });
      const delay = retryDelay(outcome, attempt, this.config.webhook.maxRetries, budget - (performance.now() - started));
      if (delay === undefined) return { attempts, final: outcome, durationMs: Math.round(performance.now() - started) };
      await sleep(delay);
    }
  }

  /**
   * The registration test (spec 4.1.2): `{action_name, parameters: {}, timestamp, test: true}`, signed when the
   * tenant has a key. Any 2xx passes; anything else throws the spec's `action validation failed: ...`.
   */
  async registrationTest(tenantId: TenantId, actionName: string, webhookUrl: string): Promise<void> {
    const payload: WebhookPayload = { action_name: actionName, parameters: {}, timestamp: this.clock.nowSeconds(), test: true };
    const outcome = await this.send(tenantId, webhookUrl, payload, this.ids.next(), false);
    const problem = registrationProblem(outcome);
    if (problem) throw new WebhookValidationError(problem);
  }

  /** Signs `payload` with the tenant's keys and POSTs it once. */
  async send(tenantId: TenantId, url: string, payload: WebhookPayload, webhookId: string, readBody: boolean): Promise<DeliveryOutcome> {
    const keys = await this.hmacKeys.signingKeys(tenantId);
    const body = buildWebhookBody(payload, keys);
    const headers = standardWebhookHeaders(webhookId, payload.timestamp, body, keys);
    return this.client.post(url, body, headers, readBody);
  }
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
