import type { IncomingHttpHeaders } from 'node:http';

/**
 * What happened to one outbound POST. `headers` are the receiver's answer headers; on a non-2xx answer `body` is
 * what was read of it before it was dropped (at most 64 kB, when it came at once), and `bodyStart` is the first
 * bytes of an answer too large to read: both only for the delivery log.
 */
export type DeliveryOutcome =
  | { kind: 'answered'; status: number; body?: Buffer; headers?: IncomingHttpHeaders; retryAfterMs?: number; durationMs: number }
  | { kind: 'body_too_large'; status: number; headers?: IncomingHttpHeaders; bodyStart?: Buffer; durationMs: number }
  | { kind: 'timed_out'; timeoutMs: number; durationMs: number }
  | { kind: 'unreachable'; reason: string; retryable: boolean; durationMs: number };
