import { DeliveryOutcome } from './delivery-outcome';
import { retryDelay } from './retry-policy';
import { parseRetryAfter } from './webhook-client';

const answered = (status: number, retryAfterMs?: number): DeliveryOutcome => ({ kind: 'answered', status, retryAfterMs, durationMs: 5 });
const half = () => 0.5;

describe('retryDelay', () => {
  it.each([429, 500, 502, 503, 599])('retries a %i answer with exponential backoff', (status) => {
    expect(retryDelay(answered(status), 1, 2, 30_000, half)).toBe(188);
    expect(retryDelay(answered(status), 2, 2, 30_000, half)).toBe(375);
  });

  it('retries a connection failure but not a refused destination', () => {
    expect(retryDelay({ kind: 'unreachable', reason: 'connection refused', retryable: true, durationMs: 1 }, 1, 2, 30_000, half)).toBeDefined();
    expect(retryDelay({ kind: 'unreachable', reason: 'destination 10.0.0.1 is not allowed', retryable: false, durationMs: 1 }, 1, 2, 30_000)).toBeUndefined();
  });

  it.each([200, 204, 302, 400, 401, 404])('does not retry a %i answer', (status) => {
    expect(retryDelay(answered(status), 1, 2, 30_000)).toBeUndefined();
  });

  it('does not retry a timeout or an oversized answer', () => {
    expect(retryDelay({ kind: 'timed_out', timeoutMs: 30_000, durationMs: 30_000 }, 1, 2, 0)).toBeUndefined();
    expect(retryDelay({ kind: 'body_too_large', status: 200, durationMs: 1 }, 1, 2, 30_000)).toBeUndefined();
  });

  it('stops after maxRetries further attempts', () => {
    expect(retryDelay(answered(500), 3, 2, 30_000)).toBeUndefined();
    expect(retryDelay(answered(500), 1, 0, 30_000)).toBeUndefined();
  });

  it('waits as long as Retry-After asks, unless that outlasts the budget', () => {
    expect(retryDelay(answered(429, 5_000), 1, 2, 30_000)).toBe(5_000);
    expect(retryDelay(answered(429, 40_000), 1, 2, 30_000)).toBeUndefined();
    expect(retryDelay(answered(503), 1, 2, 150, half)).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:00:10 GMT', Date.parse('2026-11-22T00:00:00Z'))).toBe(10_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:00:10 GMT', Date.parse('2026-11-22T00:01:00Z'))).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-1')).toBeUndefined();
  });
});
