import { DeliveryOutcome } from './delivery-outcome';

const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 4_000;

/**
 * Whether and when to try a delivery again: after a connection failure or a 429/5xx answer, with exponential
 * backoff (or the receiver's Retry-After), never past the remaining budget. Undefined: stop here.
 */
export function retryDelay(outcome: DeliveryOutcome, attempt: number, maxRetries: number, remainingMs: number, random = Math.random): number | undefined {
  if (attempt > maxRetries) return undefined;
  let retryable = false;
  let requested: number | undefined;
  if (outcome.kind === 'unreachable') retryable = outcome.retryable;
  if (outcome.kind === 'answered' && (outcome.status === 429 || outcome.status >= 500)) {
    retryable = true;
    requested = outcome.retryAfterMs;
  }
  if (!retryable) return undefined;
  const backoff = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
  const delay = requested ?? Math.round(backoff * (0.5 + random() / 2));
  // Waiting only to be cut off by the deadline helps nobody: leave room for the attempt itself.
  return delay < remainingMs - 100 ? delay : undefined;
}
