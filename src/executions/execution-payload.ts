import type { IncomingHttpHeaders } from 'node:http';
import { DeliveryOutcome } from '../webhooks/delivery-outcome';
import { DeliveryReport } from '../webhooks/webhook.service';
import { BASE_REQUEST_HEADERS } from '../webhooks/webhook-client';

/**
 * What the delivery log keeps of what was sent and what came back (docs/decisions.md, "The delivery log"), each
 * part bounded so that a tenant's huge parameters or a receiver's huge answers cost the log a known size:
 * - the request body, the exact bytes signed and sent: whole up to 64 KiB (so a replay can send it again), cut
 *   past that;
 * - each answer's body: the first 16 KiB;
 * - headers, each way: at most 50, each value cut at 1 KiB, 8 KiB in all.
 * A cut is marked: `body_truncated: true` beside `body_bytes`, the size before the cut, and a header value cut
 * ends with CUT_MARKER. At most about 64 + 3 × (16 + 8 + 8) KiB = 160 KiB per execution with the default two retries
 * (the request's own headers are the last attempt's, stored once: StoredExecutionPayload).
 */
export const PAYLOAD_LIMITS = Object.freeze({
  requestBodyBytes: 65_536,
  responseBodyBytes: 16_384,
  headerCount: 50,
  headerValueBytes: 1_024,
  headersBytes: 8_192,
});
const CUT_MARKER = '…[truncated]';

/** Headers no log shows: credentials, each way (none is sent today; a receiver's cookies are its own). */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** Whether the log masks a header, by its lowercase name. */
export type HeaderMask = (name: string) => boolean;

const STANDARD_MASK: HeaderMask = (name) => SECRET_HEADERS.has(name);

/**
 * The mask of a receiver's answer headers: the standard credential headers, and every name that contains one of
 * `words` (lowercase: EXECUTION_PAYLOAD_MASKED_HEADERS), so an `x-auth-token`, `x-amz-security-token` or `api-key`
 * a receiver echoes is not stored. The request's headers are the gateway's own and keep the standard mask only:
 * its `webhook-signature` signs that one body and stays readable, to compare with what the receiver computed.
 */
export function responseHeaderMask(words: readonly string[]): HeaderMask {
  if (words.length === 0) return STANDARD_MASK;
  return (name) => SECRET_HEADERS.has(name) || words.some((word) => name.includes(word));
}

interface LoggedBody {
  /** The body as text when it is UTF-8 (a request body always is), else base64. */
  body: string | null;
  body_encoding: 'utf8' | 'base64';
  body_bytes: number;
  body_truncated: boolean;
}

interface LoggedRequest extends LoggedBody {
  headers: Record<string, string>;
}

interface LoggedResponse extends LoggedBody {
  status: number;
  headers: Record<string, string>;
}

interface LoggedAttempt {
  attempt: number;
  /** The headers of this attempt (each attempt is signed afresh: webhook-timestamp and webhook-signature differ). */
  request_headers: Record<string, string>;
  /** null when no answer came (a timeout, a refused connection). */
  response: LoggedResponse | null;
}

/** The payload row of one execution. `request` is the last attempt's (earlier ones differ in timestamp and signature only). */
export interface ExecutionPayload {
  request: LoggedRequest;
  attempts: LoggedAttempt[];
}

/**
 * The payload row as stored: the request's headers are the last attempt's `request_headers`, so they are written
 * once, there (224 of the 1,036 bytes of a benchmark execution's payload), and put back by `withRequestHeaders` on reading.
 * Rows stored before keep their own copy.
 */
export interface StoredExecutionPayload {
  request: LoggedBody & { headers?: Record<string, string> };
  attempts: LoggedAttempt[];
}

/** The stored row as shown: the request with its headers. */
export function withRequestHeaders({ request, attempts }: StoredExecutionPayload): ExecutionPayload {
  return { request: { ...request, headers: request.headers ?? attempts[attempts.length - 1]?.request_headers ?? {} }, attempts };
}

/** `responseMask`: which of the receiver's answer headers are stored as `[redacted]` (responseHeaderMask). */
export function payloadOf(report: Pick<DeliveryReport, 'attempts'> & { unsent?: string }, responseMask: HeaderMask): StoredExecutionPayload {
  const attempts = report.attempts.map(({ attempt, sent, outcome }) => ({ attempt, request_headers: requestHeaders(sent.headers), response: loggedResponse(outcome, responseMask) }));
  // No attempt (the action's circuit was open): the body that would have been sent, so the call can be replayed.
  const body = report.attempts.at(-1)?.sent.body ?? report.unsent ?? '';
  // The body is canonical JSON, ASCII throughout (json.dumps' escapes): within the limit it is kept as it is.
  const request =
    body.length <= PAYLOAD_LIMITS.requestBodyBytes && Buffer.byteLength(body) === body.length
      ? { body, body_encoding: 'utf8' as const, body_bytes: body.length, body_truncated: false }
      : loggedBody(Buffer.from(body, 'utf8'), PAYLOAD_LIMITS.requestBodyBytes);
  return { request, attempts };
}

function requestHeaders(sent: Record<string, string>): Record<string, string> {
  return loggedHeaders({ ...BASE_REQUEST_HEADERS, ...sent });
}

function loggedResponse(outcome: DeliveryOutcome, mask: HeaderMask): LoggedResponse | null {
  switch (outcome.kind) {
    case 'answered':
      return { status: outcome.status, headers: loggedHeaders(outcome.headers ?? {}, mask), ...loggedBody(outcome.body, PAYLOAD_LIMITS.responseBodyBytes) };
    case 'body_too_large': {
      // Over 1 MB: only its start was read, so its size is unknown beyond "more than 1 MB".
      const start = loggedBody(outcome.bodyStart, PAYLOAD_LIMITS.responseBodyBytes);
      return { status: outcome.status, headers: loggedHeaders(outcome.headers ?? {}, mask), ...start, body_bytes: -1, body_truncated: true };
    }
    default:
      return null;
  }
}

/**
 * A body as the log keeps it: its first `limit` bytes, as UTF-8 text when they are (cut at a character boundary),
 * else base64. `body_bytes` is the whole body's size.
 */
export function loggedBody(bytes: Buffer | undefined, limit: number): LoggedBody {
  if (!bytes || bytes.length === 0) return { body: bytes ? '' : null, body_encoding: 'utf8', body_bytes: bytes?.length ?? 0, body_truncated: false };
  const truncated = bytes.length > limit;
  let kept = truncated ? bytes.subarray(0, limit) : bytes;
  if (truncated) {
    // Back off to the start of a character: at most 3 continuation bytes (10xxxxxx).
    let end = kept.length;
    while (end > 0 && end > kept.length - 4 && (kept[end - 1] & 0xc0) === 0x80) end--;
    if (end > 0 && kept[end - 1] >= 0xc0) end--;
    if (isUtf8(kept.subarray(0, end))) kept = kept.subarray(0, end);
  }
  // PostgreSQL's json cannot hold U+0000 as text; such a body is kept as base64 like any non-text one.
  if (isUtf8(kept) && !kept.includes(0)) return { body: kept.toString('utf8'), body_encoding: 'utf8', body_bytes: bytes.length, body_truncated: truncated };
  return { body: kept.toString('base64'), body_encoding: 'base64', body_bytes: bytes.length, body_truncated: truncated };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
function isUtf8(bytes: Buffer): boolean {
  try {
    UTF8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Headers without credentials (`mask`: the standard ones by default), at most 50, each value at most 1 KiB, 8 KiB
 * in all; repeated ones joined by ", ".
 */
export function loggedHeaders(headers: IncomingHttpHeaders | Record<string, string>, mask: HeaderMask = STANDARD_MASK): Record<string, string> {
  const logged: Record<string, string> = {};
  let count = 0;
  let bytes = 0;
  for (const [rawName, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const name = rawName.toLowerCase();
    let value = mask(name) ? '[redacted]' : Array.isArray(raw) ? raw.join(', ') : String(raw);
    // Nearly every header is printable ASCII: well-formed already, one byte a character.
    let valueBytes = PRINTABLE_ASCII.test(value) ? value.length : Buffer.byteLength((value = wellFormed(value)));
    if (valueBytes > PAYLOAD_LIMITS.headerValueBytes) {
      value = `${cutToBytes(value, PAYLOAD_LIMITS.headerValueBytes)}${CUT_MARKER}`;
      valueBytes = Buffer.byteLength(value);
    }
    const size = (PRINTABLE_ASCII.test(name) ? name.length : Buffer.byteLength(name)) + valueBytes;
    if (count >= PAYLOAD_LIMITS.headerCount || bytes + size > PAYLOAD_LIMITS.headersBytes) {
      logged['…'] = `${Object.keys(headers).length - count} more headers not kept`;
      break;
    }
    logged[name] = value;
    count += 1;
    bytes += size;
  }
  return logged;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function wellFormed(text: string): string {
  return (text as string & { toWellFormed(): string }).toWellFormed().replaceAll('\u0000', '\uFFFD');
}

function cutToBytes(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8').subarray(0, limit);
  return new TextDecoder('utf-8').decode(bytes).replace(/\uFFFD$/, '');
}
