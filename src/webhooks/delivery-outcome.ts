/** What happened to one outbound POST. */
export type DeliveryOutcome =
  | { kind: 'answered'; status: number; body?: Buffer; durationMs: number }
  | { kind: 'body_too_large'; status: number; durationMs: number }
  | { kind: 'timed_out'; timeoutMs: number; durationMs: number }
  | { kind: 'unreachable'; reason: string; durationMs: number };
