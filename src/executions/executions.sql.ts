// What the statements of the delivery log share (execution-reads.sql.ts, execution-writes.sql.ts,
// execution-rollups.sql.ts): the columns of `executions` and `execution_payloads`, and the two kinds of statement
// that run on the log's own pools (ExecutionLogPools).
import { globalStatement, prepared, Reason, Statement } from '../database/statement';
import { tenantStatement, TenantStatement } from '../tenancy/tenant-statement';
import type { Execution, ExecutionStatus } from './execution.entity';

/** Every column of `executions`, in the order the INSERT gives them (test/hand-written-sql.e2e-spec.ts checks the list). */
export const COLUMNS =
  'id, tenant_id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, created_at, replay_of, payload';
export const PAYLOAD_COLUMNS = 'execution_id, tenant_id, created_at, request, attempts';

/** An execution as read, with `created_at` as PostgreSQL writes it (`position`: microseconds, which a Date does not hold). */
export const SELECT_EXECUTION = `SELECT ${COLUMNS}, created_at::text AS position FROM executions`;

/** A row of SELECT_EXECUTION. */
export interface ExecutionRow {
  id: string;
  tenant_id: string;
  action_id: string;
  action_name: string;
  status: ExecutionStatus;
  http_status: number | null;
  result: string | null;
  error: string;
  duration_ms: number;
  attempts: number;
  attempt_log: Execution['attemptLog'];
  created_at: Date;
  replay_of: string | null;
  payload: Execution['payload'];
  position: string;
}

/**
 * A tenant's read of the log that spans every partition kept (a list, the statistics), named so that it can be
 * prepared and run with its generic plan (genericPlanPool): its planning costs more than running it.
 */
export type ReadOfEveryPartition<Params extends readonly unknown[], Row> = TenantStatement<Params, Row> & { readonly name: string };
export const readOfEveryPartition = <Params extends readonly unknown[], Row>(text: string): ReadOfEveryPartition<Params, Row> =>
  prepared(tenantStatement<Params, Row>(text));

/** A write of the log, about every tenant whose rows it carries, prepared under its own name on the log's connections. */
export type LogWrite = Statement<unknown[]> & { readonly name: string };
export const logWrite = (name: string, why: Reason, text: string): LogWrite => ({ ...globalStatement<unknown[]>(why, text), name });
