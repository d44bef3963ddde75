import { readFileSync } from 'node:fs';

/**
 * That a call ended at a deadline the contract names (WEBHOOK_TIMEOUT_MS): not before it, and not long after.
 * The upper bound is generous, because a loaded machine answers late; what it rules out is a call that went on
 * waiting for a receiver that never finishes.
 */
export function expectEndedAtDeadline(elapsedMs: number, deadlineMs: number): void {
  expect(elapsedMs).toBeGreaterThanOrEqual(deadlineMs - 50);
  expect(elapsedMs).toBeLessThan(deadlineMs + 10_000);
}

/**
 * The CPU time this process's main thread (the event loop of an in-process app) has used, in ms, from Linux's
 * /proc (clock ticks of 10 ms); undefined elsewhere. Unlike the time between two answers, it does not grow while a
 * loaded machine runs other work: what it says is how long the event loop itself was busy.
 */
export function eventLoopCpuMs(): number | undefined {
  try {
    // After the command's name in parentheses: state is field 3, utime and stime fields 14 and 15.
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}
