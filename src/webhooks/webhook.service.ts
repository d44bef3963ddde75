import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { TenantId } from '../common/tenant-id';
import { DeliveryOutcome } from './delivery-outcome';
import { HmacKeysService } from './hmac-keys.service';
import { WebhookClient } from './webhook-client';
import { buildWebhookBody, standardWebhookHeaders, WebhookPayload } from './webhook-signer';
import { WebhookValidationError } from './webhooks.errors';

/** Signs and sends the service's POSTs to webhook URLs (spec sections 2.4, 5.3 and 6). */
@Injectable()
export class WebhookService {
  constructor(
    private readonly client: WebhookClient,
    private readonly hmacKeys: HmacKeysService,
    private readonly clock: Clock,
  ) {}

  /**
   * The registration test (spec 4.1.2): `{action_name, parameters: {}, timestamp, test: true}`, signed when the
   * tenant has a key. Any 2xx passes; anything else throws the spec's `action validation failed: ...`.
   */
  async registrationTest(tenantId: TenantId, actionName: string, webhookUrl: string): Promise<void> {
    const payload: WebhookPayload = { action_name: actionName, parameters: {}, timestamp: this.clock.nowSeconds(), test: true };
    const outcome = await this.send(tenantId, webhookUrl, payload, randomUUID(), false);
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
