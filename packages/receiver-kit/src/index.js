// @ts-check
/**
 * Verifies a call from the Action Gateway: the Standard Webhooks headers and the spec's body `signature`.
 * No dependencies (only `node:crypto`); ES module source with JSDoc types, built to CommonJS and .d.ts for
 * publishing. How the signatures work: docs/receivers.md in the gateway's repository, and README.md here.
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

/** @typedef {string | readonly string[]} Keys One key (`whsec_...`), or every key held during a rotation. */

/** @typedef {null | boolean | number | string | JsonArray | JsonObject} JsonValue */
/** @typedef {Array<JsonValue>} JsonArray */
/** @typedef {{ [key: string]: JsonValue }} JsonObject */

/**
 * What the service sends (spec 2.4), without the body signature.
 * @typedef {object} WebhookCall
 * @property {string} action_name
 * @property {JsonObject} parameters
 * @property {number} timestamp Unix seconds.
 * @property {true} [test] Present (and true) in the registration test only.
 */

/**
 * Request headers as Node (`IncomingMessage.headers`), Express and Fastify give them, or a fetch `Headers`.
 * @typedef {Readonly<Record<string, string | readonly string[] | undefined>> | { get(name: string): string | null }} HeaderBag
 */

/**
 * @typedef {object} VerifyOptions
 * @property {number} [toleranceSeconds] How far `webhook-timestamp` may be from now, either way (default 300).
 * @property {() => number} [now] Unix seconds; injectable so tests and replays of stored calls can pin the clock.
 */

/** @typedef {{ ok: true, payload: WebhookCall } | { ok: false, reason: string }} VerifyResult */

/** @typedef {string | Uint8Array} RawBody The body as received: a string, or its bytes (a Node Buffer). */

const DEFAULT_TOLERANCE_SECONDS = 300;

// The service appends the signature to the signed bytes as their last key, so the signed bytes are the raw body
// with this suffix replaced by the closing brace. Anchored at the end, where only the appended key can be.
const BODY_SIGNATURE_SUFFIX = /,"signature":"([0-9a-f]{64})"\}$/;

// A base64 HMAC-SHA256 is always 44 characters with one pad; anything else cannot be a signature we made.
const HEADER_SIGNATURE = /^v1,([A-Za-z0-9+/]{43}=)$/;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Spec 5.3 on the raw body: lowercase hex HMAC-SHA256, keyed with the UTF-8 bytes of the whole key string
 * (`whsec_` included), over the body without its signature.
 * @param {RawBody} rawBody
 * @param {Keys} key
 * @returns {boolean}
 */
export function verifyBodySignature(rawBody, key) {
  const text = bodyText(rawBody);
  if (text === undefined) return false;
  const match = BODY_SIGNATURE_SUFFIX.exec(text);
  if (!match || match[1] === undefined) return false;
  const signed = `${text.slice(0, match.index)}}`;
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
 * @param {RawBody} rawBody
 * @param {HeaderBag} headers
 * @param {Keys} key
 * @param {VerifyOptions} [options]
 * @returns {boolean}
 */
export function verifyStandardWebhook(rawBody, headers, key, options = {}) {
  const text = bodyText(rawBody);
  return text !== undefined && headerProblem(text, headers, key, options) === undefined;
}

/**
 * Both checks, in the order that makes each kind of call verifiable:
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
 *
 * Never throws: anything malformed is `{ ok: false, reason }`.
 * @param {RawBody} rawBody
 * @param {HeaderBag} headers
 * @param {Keys} key
 * @param {VerifyOptions} [options]
 * @returns {VerifyResult}
 */
export function verifyWebhook(rawBody, headers, key, options = {}) {
  const text = bodyText(rawBody);
  if (text === undefined) return { ok: false, reason: 'body is not UTF-8' };
  const hasHeaderSignature = header(headers, 'webhook-signature') !== undefined;
  if (hasHeaderSignature) {
    const problem = headerProblem(text, headers, key, options);
    if (problem) return { ok: false, reason: problem };
  }

  const parsed = parseCall(text);
  if (typeof parsed === 'string') return { ok: false, reason: parsed };
  const { call, signed } = parsed;

  if (signed) {
    if (!hasHeaderSignature) return { ok: false, reason: 'missing webhook-signature header' };
    if (!verifyBodySignature(text, key)) return { ok: false, reason: 'body signature does not match' };
    return { ok: true, payload: call };
  }
  if (call.test === true) return { ok: true, payload: call };
  return { ok: false, reason: 'missing body signature' };
}

/**
 * @param {string} rawBody
 * @param {HeaderBag} headers
 * @param {Keys} key
 * @param {VerifyOptions} options
 * @returns {string | undefined}
 */
function headerProblem(rawBody, headers, key, options) {
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

  /** @type {Buffer[]} */
  const received = [];
  for (const entry of signatures.split(' ')) {
    const signature = HEADER_SIGNATURE.exec(entry)?.[1];
    if (signature !== undefined) received.push(Buffer.from(signature, 'base64'));
  }
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

/**
 * @param {string} rawBody
 * @returns {{ call: WebhookCall, signed: boolean } | string}
 */
function parseCall(rawBody) {
  /** @type {unknown} */
  let value;
  try {
    value = JSON.parse(rawBody);
  } catch {
    return 'body is not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'body is not a JSON object';
  const body = /** @type {Record<string, unknown>} */ (value);
  const { action_name, parameters, timestamp, test } = body;
  if (typeof action_name !== 'string' || typeof timestamp !== 'number' || !isObject(parameters)) {
    return 'body is not a webhook call';
  }
  /** @type {WebhookCall} */
  const call = { action_name, parameters: /** @type {WebhookCall['parameters']} */ (parameters), timestamp };
  if (test === true) call.test = true;
  return { call, signed: body.signature !== undefined };
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The W3C trace context a call carries (`traceparent`, and `tracestate` when the gateway's caller sent one): the
 * gateway's span that made this call is `parentId`. Give it to your tracer as the parent of the span that handles
 * the call (with OpenTelemetry: `propagation.extract(context.active(), headers)` reads the same headers), or log
 * `traceId` to find the call in the gateway's logs and traces. Undefined when the header is absent or malformed.
 * @param {HeaderBag} headers
 * @returns {{ traceId: string, parentId: string, sampled: boolean, traceparent: string, tracestate?: string } | undefined}
 */
export function traceContext(headers) {
  const traceparent = singleHeader(headers, 'traceparent');
  const match = traceparent === undefined ? null : /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(traceparent.trim());
  if (!match) return undefined;
  const [whole, traceId = '', parentId = '', flags = ''] = match;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return undefined;
  const tracestate = header(headers, 'tracestate');
  const context = { traceId, parentId, sampled: (parseInt(flags, 16) & 1) === 1, traceparent: whole };
  return tracestate === undefined ? context : { ...context, tracestate };
}

/**
 * Every value of one header. Names are case-insensitive; Node lowercases them but other frameworks and
 * hand-built objects may not.
 * @param {HeaderBag} headers
 * @param {string} name
 * @returns {string[]}
 */
function headerValues(headers, name) {
  if (typeof headers.get === 'function') {
    const value = /** @type {{ get(name: string): string | null }} */ (headers).get(name);
    return value === null ? [] : [value];
  }
  /** @type {string[]} */
  const values = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    if (typeof value === 'string') values.push(value);
    else if (Array.isArray(value)) values.push(...value.filter((item) => typeof item === 'string'));
  }
  return values;
}

/**
 * A repeated signature header is a list of signatures, the same as one space-separated header.
 * @param {HeaderBag} headers
 * @param {string} name
 * @returns {string | undefined}
 */
function header(headers, name) {
  const values = headerValues(headers, name);
  return values.length === 0 ? undefined : values.join(' ');
}

/**
 * An id or timestamp sent twice is ambiguous (which one was signed?): refuse rather than guess.
 * @param {HeaderBag} headers
 * @param {string} name
 * @returns {string | undefined}
 */
function singleHeader(headers, name) {
  const values = headerValues(headers, name);
  return values.length === 1 ? values[0] : undefined;
}

/**
 * @param {RawBody} rawBody
 * @returns {string | undefined} undefined when the bytes are not UTF-8 (the service only sends ASCII)
 */
function bodyText(rawBody) {
  if (typeof rawBody === 'string') return rawBody;
  try {
    return UTF8.decode(rawBody);
  } catch {
    return undefined;
  }
}

/**
 * @param {Keys} key
 * @returns {readonly string[]}
 */
function keyList(key) {
  return typeof key === 'string' ? [key] : key;
}

/**
 * @param {string} key
 * @returns {Buffer}
 */
function decodeKey(key) {
  return Buffer.from(key.startsWith('whsec_') ? key.slice('whsec_'.length) : key, 'base64');
}

function defaultNow() {
  return Math.floor(Date.now() / 1000);
}
