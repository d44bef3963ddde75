import { InvalidRequestError } from '../common/common.errors';
import { ExecutionStatus } from './execution.entity';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const STATUSES: readonly ExecutionStatus[] = ['succeeded', 'failed'];

/** `?limit=N` of an execution list: 1 to 100, default 20. */
export function parseExecutionLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  const limit = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw new InvalidRequestError(`limit: must be an integer from 1 to ${MAX_LIMIT}`);
  return limit;
}

/** `?status=succeeded|failed` of an execution list; absent: every status. */
export function parseExecutionStatus(raw: string | undefined): ExecutionStatus | undefined {
  if (raw === undefined) return undefined;
  if (!(STATUSES as readonly string[]).includes(raw)) throw new InvalidRequestError('status: must be "succeeded" or "failed"');
  return raw as ExecutionStatus;
}
