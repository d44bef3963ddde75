import { createHmac } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { SigningKeys } from './hmac-keys.service';

/** The body of a webhook call (spec 2.4), in the key order the signature covers (spec 5.3). */
export interface WebhookPayload {
  action_name: string;
  parameters: Record<string, unknown>;
  timestamp: number;
  test?: true;
}

/** Spec 5.3: lowercase hex HMAC-SHA256 keyed with the key's UTF-8 bytes over the compact JSON. */
function signPayload(signedJson: string, key: string): string {
  return createHmac('sha256', Buffer.from(key, 'utf8')).update(signedJson, 'utf8').digest('hex');
}

/**
 * The exact bytes sent: the canonical JSON of the payload, with `"signature"` appended as the last key when the
 * tenant has a key. Key order is fixed here, whatever order the caller built the object in.
 */
export function buildWebhookBody(payload: WebhookPayload, keys: SigningKeys | undefined): string {
  const ordered: Record<string, unknown> = {
    action_name: payload.action_name,
    parameters: payload.parameters,
    timestamp: payload.timestamp,
  };
  if (payload.test) ordered.test = true;
  const signed = canonicalJson(ordered);
  if (!keys) return signed;
  return `${signed.slice(0, -1)},"signature":"${signPayload(signed, keys.primary)}"}`;
}

/**
 * Standard Webhooks headers: `v1,<base64 HMAC-SHA256>` over `id.timestamp.body` with the key's decoded bytes,
 * one signature per active key so receivers can rotate without a gap.
 */
export function standardWebhookHeaders(id: string, timestamp: number, body: string, keys: SigningKeys | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'webhook-id': id, 'webhook-timestamp': String(timestamp) };
  if (keys) {
    headers['webhook-signature'] = keys.all
      .map((key) => `v1,${createHmac('sha256', decodeKey(key)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`)
      .join(' ');
  }
  return headers;
}

function decodeKey(key: string): Buffer {
  return Buffer.from(key.startsWith('whsec_') ? key.slice('whsec_'.length) : key, 'base64');
}
