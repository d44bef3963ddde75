import { InvalidRequestError } from '../common/common.errors';
import { ExecutionStatus } from './execution.entity';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const STATUSES: readonly ExecutionStatus[] = ['succeeded', 'failed'];

/**
 * `?limit=N` of an execution list: a positive integer, default 20. One answer holds at most 100 (the contract's
 * "at most 100"), so a larger N gives the newest 100.
 */
export function parseExecutionLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  const limit = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1)) throw new InvalidRequestError('limit: must be a positive integer');
  return Math.min(limit, MAX_LIMIT);
}

/** `?status=succeeded|failed` of an execution list; absent: every status. */
export function parseExecutionStatus(raw: string | undefined): ExecutionStatus | undefined {
  if (raw === undefined) return undefined;
  if (!(STATUSES as readonly string[]).includes(raw)) throw new InvalidRequestError('status: must be "succeeded" or "failed"');
  return raw as ExecutionStatus;
}
