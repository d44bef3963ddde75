import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, Dispatcher, request } from 'undici';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { DeliveryOutcome } from './delivery-outcome';
import { DestinationGuard, RefusedDestinationError } from './destination-guard';

export const MAX_RESPONSE_BYTES = 1_048_576;
/** The headers every POST carries besides the ones its caller gives (the Standard Webhooks headers). */
export const BASE_REQUEST_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json', 'user-agent': 'action-gateway/1.0' });

/**
 * The one outbound HTTP client: keep-alive connections (undici), a total deadline per call that also cuts off a
 * receiver that drips its answer, no redirects, a capped read of the answer, and every connection made through
 * the destination guard's lookup.
 */
/** How much later than a call's deadline undici's own header and body timeouts fire (they are a backstop). */
const UNDICI_BACKSTOP_MS = 1_000;
/** undici's own timeouts: a call that met one ran out of time, whichever timer noticed first. */
const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

@Injectable()
export class WebhookClient implements OnApplicationShutdown {
  private readonly agent: Agent;
  private readonly timeoutMs: number;

  constructor(
    config: AppConfig,
    private readonly guard: DestinationGuard,
    private readonly metrics: Metrics,
  ) {
    this.timeoutMs = config.webhook.timeoutMs;
    this.agent = new Agent({
      connect: { lookup: guard.lookup, timeout: Math.min(10_000, this.timeoutMs) },
      // A backstop only: the call's own deadline (send) decides. undici's timers tick every half second and may
      // fire up to that much early, so at the same value they sometimes beat the deadline and a timeout was told
      // as "unreachable (no answer in time)".
      headersTimeout: this.timeoutMs + UNDICI_BACKSTOP_MS,
      bodyTimeout: this.timeoutMs + UNDICI_BACKSTOP_MS,
      keepAliveTimeout: 10_000,
    });
  }

  /**
   * POSTs `body` as JSON within `timeoutMs` (default: WEBHOOK_TIMEOUT_MS), all of it: connecting, sending and
   * reading the answer. With `readBody`, a 2xx answer's body is read up to 1 MB; otherwise, and for any other
   * status, only the status (and Retry-After) is waited for, and the body dropped (discardBody).
   */
  async post(url: string, body: string, headers: Record<string, string>, readBody: boolean, timeoutMs = this.timeoutMs): Promise<DeliveryOutcome> {
    const outcome = await this.send(url, body, headers, readBody, timeoutMs);
    const result = outcome.kind === 'answered' || outcome.kind === 'body_too_large' ? `status_${Math.floor(outcome.status / 100)}xx` : outcome.kind;
    this.metrics.webhookDuration.observe({ kind: readBody ? 'execution' : 'registration_test', outcome: result }, outcome.durationMs / 1000);
    return outcome;
  }

  private async send(url: string, body: string, headers: Record<string, string>, readBody: boolean, timeoutMs: number): Promise<DeliveryOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // Not AbortSignal.timeout(): its timer cannot be cancelled, so every call would leave a timer alive for the
    // whole WEBHOOK_TIMEOUT_MS (90,000 of them at 3,000 executions/s), all promoted to the old generation.
    const deadline = new AbortController();
    const { signal } = deadline;
    const timer = setTimeout(() => deadline.abort(), Math.max(1, Math.floor(timeoutMs))).unref();
    try {
      this.guard.assertLiteralAllowed(new URL(url));
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { ...BASE_REQUEST_HEADERS, ...headers },
        body,
        signal,
      });
      const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
      if (!readBody || response.statusCode < 200 || response.statusCode >= 300) {
        // The status is the answer (the registration test's, or a non-2xx one, whose body is never used). A short
        // body that comes at once is read and dropped, so the keep-alive connection serves the next call (a
        // retry, the first execution); a long or slow one is cut, never turning the answer into a timeout or an
        // oversized body.
        const dropped = await discardBody(response.body);
        return { kind: 'answered', status: response.statusCode, body: dropped, headers: response.headers, retryAfterMs, durationMs: elapsed() };
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_RESPONSE_BYTES) {
          response.body.destroy();
          return { kind: 'body_too_large', status: response.statusCode, headers: response.headers, bodyStart: chunks[0], durationMs: elapsed() };
        }
        chunks.push(chunk as Buffer);
      }
      const decoded = await decodeBody(Buffer.concat(chunks), response.headers['content-encoding']);
      if (decoded === 'too_large') return { kind: 'body_too_large', status: response.statusCode, headers: response.headers, durationMs: elapsed() };
      // `body` undefined: an answer that cannot be decoded has no readable body (an invalid response body).
      return { kind: 'answered', status: response.statusCode, body: decoded, headers: response.headers, retryAfterMs, durationMs: elapsed() };
    } catch (error) {
      if (signal.aborted || UNDICI_TIMEOUTS.has((error as { code?: string }).code ?? '')) return { kind: 'timed_out', timeoutMs: this.timeoutMs, durationMs: elapsed() };
      // A refused destination will be refused again: retrying it only delays the answer.
      const retryable = !(error instanceof RefusedDestinationError);
      return { kind: 'unreachable', reason: describeFailure(error), retryable, durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Requests running or queued in the outbound client: 0 once every call has finished, whatever it met. */
  inFlight(): number {
    return Object.values(this.agent.stats as Record<string, { running?: number; pending?: number }>).reduce(
      (sum, origin) => sum + (origin.running ?? 0) + (origin.pending ?? 0),
      0,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.close();
  }
}

/** An unused answer body is read and dropped when it is at most this long and complete within DISCARD_GRACE_MS. */
export const DISCARD_LIMIT_BYTES = 65_536;
export const DISCARD_GRACE_MS = 100;

/**
 * Reads a body that is short and prompt (the connection stays open for the next call) and gives it back for the
 * delivery log; cuts any other, giving back what came before the cut.
 */
export async function discardBody(body: Dispatcher.ResponseData['body']): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  const grace = setTimeout(() => body.destroy(), DISCARD_GRACE_MS).unref();
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > DISCARD_LIMIT_BYTES) {
        body.destroy();
        break;
      }
      chunks.push(chunk as Buffer);
    }
  } catch {
    // Cut: too slow. The connection closes; the status was the answer anyway.
  } finally {
    clearTimeout(grace);
  }
  return chunks.length === 0 ? undefined : Buffer.concat(chunks);
}

const DECODERS: Record<string, (body: Buffer, options: ZlibOptions) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  br: promisify(brotliDecompress),
  // HTTP's deflate is zlib-wrapped, but some servers send it raw; a zlib stream starts with a CMF byte of method 8.
  deflate: (body, options) => ((body[0] & 0x0f) === 0x08 ? promisify(inflate)(body, options) : promisify(inflateRaw)(body, options)),
};

/**
 * The answer's bytes with its `Content-Encoding` (gzip, br, deflate) undone, on zlib's thread pool, under the same
 * 1 MB cap on the DECODED size as a plain answer: a small compressed body that expands past it (a decompression
 * bomb) stops there and is `'too_large'`, like any oversized answer. `undefined` when the encoding cannot be
 * undone (unknown, several, corrupt data): there is no readable body. The service does not ask for compression
 * (it sends no Accept-Encoding); it reads what receivers send anyway.
 */
export async function decodeBody(body: Buffer, encoding: string | string[] | undefined): Promise<Buffer | 'too_large' | undefined> {
  const name = (Array.isArray(encoding) ? encoding.join(',') : (encoding ?? '')).trim().toLowerCase();
  if (name === '' || name === 'identity') return body;
  const decode = Object.hasOwn(DECODERS, name) ? DECODERS[name] : undefined;
  if (!decode) return undefined;
  if (body.length === 0) return body;
  try {
    return await decode(body, { maxOutputLength: MAX_RESPONSE_BYTES });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? 'too_large' : undefined;
  }
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  if (!/ GMT$/.test(text.trim())) return undefined; // HTTP dates only; Date.parse reads far too much else
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A short, receiver-facing reason for a failed connection (never a stack or an internal detail). */
function describeFailure(error: unknown): string {
  if (error instanceof RefusedDestinationError) return error.message;
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  switch (code) {
    case 'ERR_REFUSED_DESTINATION':
      return (error as Error).message;
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connect timed out';
    default:
      if (code && /CERT|TLS|SSL|SELF_SIGNED/.test(code)) return `TLS error: ${code}`;
      return code ? `network error: ${code}` : 'network error';
  }
}
