/**
 * That a call ended at a deadline the contract names (WEBHOOK_TIMEOUT_MS): not before it, and not long after.
 * The upper bound is generous, because a loaded machine answers late; what it rules out is a call that went on
 * waiting for a receiver that never finishes.
 */
export function expectEndedAtDeadline(elapsedMs: number, deadlineMs: number): void {
  expect(elapsedMs).toBeGreaterThanOrEqual(deadlineMs - 50);
  expect(elapsedMs).toBeLessThan(deadlineMs + 10_000);
}
