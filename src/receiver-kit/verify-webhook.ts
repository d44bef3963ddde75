/**
 * Receiver kit: verifies a call from the Action Gateway. Self-contained (only `node:crypto`) so a receiver can
 * copy this one file instead of depending on the service. See docs/receivers.md.
 *
 * Always pass the raw body exactly as received, before any JSON parsing: both signatures cover bytes, and
 * `JSON.stringify` cannot rebuild the service's serialization (it escapes non-ASCII as \uXXXX and writes numbers
 * the way Python does).
 *
 * Every function takes one key, or every key the receiver currently holds while a rotation is under way: the
 * service signs the headers with all of the tenant's active keys but the body with its newest key only, so a
 * receiver that still has just the old key can check the headers but not the body signature.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type Keys = string | readonly string[];

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** What the service sends (spec 2.4), without the body signature. */
export interface WebhookCall {
  action_name: string;
  parameters: JsonValue;
  timestamp: number;
  test?: true;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, either way. Standard Webhooks' default: 5 minutes. */
  toleranceSeconds?: number;
  /** Unix seconds; injectable so tests and replays of stored calls can pin the clock. */
  now?: () => number;
}

export type VerifyResult = { ok: true; payload: WebhookCall } | { ok: false; reason: string };

const DEFAULT_TOLERANCE_SECONDS = 300;

// The service appends the signature to the signed bytes as their last key, so the signed bytes are the raw body
// with this suffix replaced by the closing brace. Anchored at the end, where only the appended key can be.
const BODY_SIGNATURE_SUFFIX = /,"signature":"([0-9a-f]{64})"\}$/;

// A base64 HMAC-SHA256 is always 44 characters with one pad; anything else cannot be a signature we made.
const HEADER_SIGNATURE = /^v1,([A-Za-z0-9+/]{43}=)$/;

/**
 * Spec 5.3 on the raw body: lowercase hex HMAC-SHA256, keyed with the UTF-8 bytes of the whole key string
 * (`whsec_` included), over the body without its signature.
 */
export function verifyBodySignature(rawBody: string, key: Keys): boolean {
  const match = BODY_SIGNATURE_SUFFIX.exec(rawBody);
  if (!match) return false;
  const signed = `${rawBody.slice(0, match.index)}}`;
  const received = Buffer.from(match[1], 'hex');
  // Every key is tried, even after a match, so the time taken does not tell which key (or whether one) matched.
  let matched = false;
  for (const candidate of keyList(key)) {
    const expected = createHmac('sha256', Buffer.from(candidate, 'utf8')).update(signed, 'utf8').digest();
    if (timingSafeEqual(expected, received)) matched = true;
  }
  return matched;
}

/**
 * Standard Webhooks: `v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the
 * base64-decoded part of the key after `whsec_`. The header may carry several signatures (one per key the
 * tenant has active); any one of them matching any of our keys is enough.
 */
export function verifyStandardWebhook(rawBody: string, headers: HeaderBag, key: Keys, options: VerifyOptions = {}): boolean {
  return headerProblem(rawBody, headers, key, options) === undefined;
}

/**
 * Both checks, in the order that makes each call kind verifiable:
 *
 * - A `webhook-signature` header, when present, must verify (timestamp within tolerance, one `v1,` signature
 *   matching). It is checked before the body is even parsed.
 * - A body with a `signature` must verify too, and must come with a `webhook-signature` header: the service
 *   always sends the two together, so a signed body without the header means the headers were stripped or
 *   the sender is not the service (and there is then no timestamp window against replays). A receiver behind
 *   a proxy that drops the headers can call `verifyBodySignature` on its own instead.
 * - A body without `signature` is accepted only when it is the registration test (`"test": true`), and only
 *   when either the header verified or there is no `webhook-signature` header at all: that is what the service
 *   sends for a tenant with no HMAC key yet (spec 5.3.7). Such a call is unauthenticated by nature, so a
 *   receiver should do nothing with it beyond answering 2xx.
 * - An execution without a body signature is refused, whatever the headers say: the service refuses to run
 *   an action for a tenant without a key, so it never sends one.
 */
export function verifyWebhook(rawBody: string, headers: HeaderBag, key: Keys, options: VerifyOptions = {}): VerifyResult {
  const hasHeaderSignature = header(headers, 'webhook-signature') !== undefined;
  if (hasHeaderSignature) {
    const problem = headerProblem(rawBody, headers, key, options);
    if (problem) return { ok: false, reason: problem };
  }

  const parsed = parseCall(rawBody);
  if (typeof parsed === 'string') return { ok: false, reason: parsed };
  const { call, signed } = parsed;

  if (signed) {
    if (!hasHeaderSignature) return { ok: false, reason: 'missing webhook-signature header' };
    if (!verifyBodySignature(rawBody, key)) return { ok: false, reason: 'body signature does not match' };
    return { ok: true, payload: call };
  }
  if (call.test === true) return { ok: true, payload: call };
  return { ok: false, reason: 'missing body signature' };
}

function headerProblem(rawBody: string, headers: HeaderBag, key: Keys, options: VerifyOptions): string | undefined {
  const id = singleHeader(headers, 'webhook-id');
  const timestampText = singleHeader(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id) return 'missing or repeated webhook-id header';
  if (!timestampText) return 'missing or repeated webhook-timestamp header';
  if (!signatures) return 'missing webhook-signature header';
  if (!/^\d{1,15}$/.test(timestampText)) return 'malformed webhook-timestamp header';

  const timestamp = Number(timestampText);
  const now = (options.now ?? defaultNow)();
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance) return 'webhook-timestamp outside the tolerance';

  const received = signatures
    .split(' ')
    .map((entry) => HEADER_SIGNATURE.exec(entry)?.[1])
    .filter((signature): signature is string => signature !== undefined)
    .map((signature) => Buffer.from(signature, 'base64'));
  if (received.length === 0) return 'no v1 signature in webhook-signature header';

  const signedContent = `${id}.${timestampText}.${rawBody}`;
  let matched = false;
  for (const candidate of keyList(key)) {
    const secret = decodeKey(candidate);
    if (secret.length === 0) continue;
    const expected = createHmac('sha256', secret).update(signedContent, 'utf8').digest();
    for (const signature of received) {
      if (timingSafeEqual(expected, signature)) matched = true;
    }
  }
  return matched ? undefined : 'webhook-signature does not match';
}

function parseCall(rawBody: string): { call: WebhookCall; signed: boolean } | string {
  let value: unknown;
  try {
    value = JSON.parse(rawBody);
  } catch {
    return 'body is not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'body is not a JSON object';
  const body = value as Record<string, JsonValue | undefined>;
  const { action_name, parameters, timestamp, test } = body;
  if (typeof action_name !== 'string' || parameters === undefined || typeof timestamp !== 'number') {
    return 'body is not a webhook call';
  }
  const call: WebhookCall = { action_name, parameters, timestamp };
  if (test === true) call.test = true;
  return { call, signed: body.signature !== undefined };
}

// Header names are case-insensitive; Node lowercases them but other frameworks and hand-built objects may not.
function headerValues(headers: HeaderBag, name: string): string[] {
  return Object.entries(headers)
    .filter(([key]) => key.toLowerCase() === name)
    .flatMap(([, value]) => (value === undefined ? [] : Array.isArray(value) ? value : [value]));
}

// A repeated signature header is a list of signatures, the same as one space-separated header.
function header(headers: HeaderBag, name: string): string | undefined {
  const values = headerValues(headers, name);
  return values.length === 0 ? undefined : values.join(' ');
}

// An id or timestamp sent twice is ambiguous (which one was signed?): refuse rather than guess.
function singleHeader(headers: HeaderBag, name: string): string | undefined {
  const values = headerValues(headers, name);
  return values.length === 1 ? values[0] : undefined;
}

function keyList(key: Keys): readonly string[] {
  return typeof key === 'string' ? [key] : key;
}

function decodeKey(key: string): Buffer {
  return Buffer.from(key.startsWith('whsec_') ? key.slice('whsec_'.length) : key, 'base64');
}

function defaultNow(): number {
  return Math.floor(Date.now() / 1000);
}
