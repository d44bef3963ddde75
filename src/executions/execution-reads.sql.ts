// The reads of the delivery log (ExecutionReadsRepository): an execution, its payload, the lists.
import { tenantStatement } from '../tenancy/tenant-statement';
import type { StoredExecutionPayload } from './execution-payload';
import { ExecutionRow, ReadOfEveryPartition, readOfEveryPartition, SELECT_EXECUTION } from './executions.sql';

export const FIND_SQL = tenantStatement<[id: string, keptSince: Date], ExecutionRow>(`${SELECT_EXECUTION} WHERE tenant_id = $1 AND id = $2 AND created_at >= $3`);
export const FIND_OF_ACTION_SQL = tenantStatement<[id: string, keptSince: Date, actionId: string], ExecutionRow>(
  `${SELECT_EXECUTION} WHERE tenant_id = $1 AND id = $2 AND created_at >= $3 AND action_id = $4`,
);
/**
 * The same, within a window around the time a UUID v7 id carries (IdGenerator): the execution was stored the moment
 * its id was made, so the partition of that day (two near midnight) is probed instead of every partition's
 * primary key (about 40). The window is wide enough for ids made ahead of the clock within a millisecond's burst.
 */
export const FIND_NEAR_SQL = tenantStatement<[id: string, keptSince: Date, from: Date, to: Date], ExecutionRow>(
  `${SELECT_EXECUTION} WHERE tenant_id = $1 AND id = $2 AND created_at >= $3 AND created_at >= $4 AND created_at < $5`,
);
export const FIND_NEAR_OF_ACTION_SQL = tenantStatement<[id: string, keptSince: Date, from: Date, to: Date, actionId: string], ExecutionRow>(
  `${SELECT_EXECUTION} WHERE tenant_id = $1 AND id = $2 AND created_at >= $3 AND created_at >= $4 AND created_at < $5 AND action_id = $6`,
);
/** An execution by its exact position (one partition): the execution an idempotency key stands for. */
export const FIND_AT_SQL = tenantStatement<[id: string, createdAt: Date], ExecutionRow>(`${SELECT_EXECUTION} WHERE tenant_id = $1 AND id = $2 AND created_at = $3`);
export const PAYLOAD_SQL = tenantStatement<[id: string, createdAt: Date], StoredExecutionPayload>(
  `SELECT request, attempts FROM execution_payloads WHERE tenant_id = $1 AND execution_id = $2 AND created_at = $3`,
);

/** Which of a list's optional filters are given: each combination has a statement of its own. */
interface ListFilters {
  actionId: boolean;
  status: boolean;
  until: boolean;
  after: boolean;
}
export const listKey = (filters: ListFilters) => `${+filters.actionId}${+filters.status}${+filters.until}${+filters.after}`;

/** The list with `filters`: its parameters are the tenant, then each filter given in this order, then the limit. */
function listText(filters: ListFilters): string {
  let n = 1;
  const where = ['tenant_id = $1'];
  if (filters.actionId) where.push(`action_id = $${++n}`);
  if (filters.status) where.push(`status = $${++n}`);
  where.push(`created_at >= $${++n}`);
  if (filters.until) where.push(`created_at < $${++n}`);
  if (filters.after) where.push(`(created_at, id) < ($${++n}::timestamptz, $${++n}::uuid)`);
  return `${SELECT_EXECUTION} WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${n + 1}`;
}

/** The list's statement for each of the 16 combinations of filters (listKey), declared when the module loads. */
export const LIST_SQL = new Map(
  Array.from({ length: 16 }, (_, bits): [string, ReadOfEveryPartition<unknown[], ExecutionRow>] => {
    const filters = { actionId: (bits & 1) > 0, status: (bits & 2) > 0, until: (bits & 4) > 0, after: (bits & 8) > 0 };
    return [listKey(filters), readOfEveryPartition<unknown[], ExecutionRow>(listText(filters))];
  }),
);
