/** What happened to one outbound POST. */
export type DeliveryOutcome =
  | { kind: 'answered'; status: number; body?: Buffer; retryAfterMs?: number; durationMs: number }
  | { kind: 'body_too_large'; status: number; durationMs: number }
  | { kind: 'timed_out'; timeoutMs: number; durationMs: number }
  | { kind: 'unreachable'; reason: string; retryable: boolean; durationMs: number };
