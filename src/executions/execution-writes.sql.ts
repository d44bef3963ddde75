// The writes of the delivery log (ExecutionWritesRepository): the batched insert of finished executions, and an
// asynchronous execution's row from accepted to finished.
import { tenantStatement } from '../tenancy/tenant-statement';
import type { AttemptRecord } from './execution.entity';
import { COLUMNS, logWrite, PAYLOAD_COLUMNS } from './executions.sql';

/** What the per-tenant bound of asynchronous executions counts: the partial index executions_unfinished_idx. */
export const UNFINISHED_SQL = tenantStatement<[], { count: number }>(
  `SELECT count(*)::int AS count FROM executions WHERE tenant_id = $1 AND status IN ('pending', 'running')`,
);
export const INSERT_PENDING_SQL = tenantStatement<[id: string, actionId: string, actionName: string, createdAt: Date, payload: string]>(
  `INSERT INTO executions (tenant_id, id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, created_at, replay_of, payload) ` +
    `VALUES ($1, $2, $3, $4, 'pending', NULL, NULL, '', 0, 0, '[]', $5, NULL, $6)`,
);
/** The one row of an execution (its partition by `created_at`), while it is unfinished. */
const UNFINISHED_ROW = `tenant_id = $1 AND id = $2 AND created_at = $3 AND status IN ('pending', 'running')`;
export const MARK_RUNNING_SQL = tenantStatement<[id: string, createdAt: Date], { attempts: number; attempt_log: AttemptRecord[] }>(
  `UPDATE executions SET status = 'running' WHERE ${UNFINISHED_ROW} RETURNING attempts, attempt_log`,
);
export const RECORD_ATTEMPTS_SQL = tenantStatement<[id: string, createdAt: Date, attempts: number, attemptLog: string]>(
  `UPDATE executions SET attempts = $4, attempt_log = $5::jsonb WHERE ${UNFINISHED_ROW}`,
);
/**
 * An unfinished execution's outcome, and its payload when kept, in one statement: the payload is written only if
 * the row was still unfinished, so a run that ends twice (its first replica's lease ran out) stores one outcome.
 */
export const FINISH_SQL = tenantStatement<
  [id: string, createdAt: Date, status: string, httpStatus: number | null, result: string | null, error: string, durationMs: number, attempts: number, attemptLog: string, payload: string, request: string | null, payloadAttempts: string | null],
  { finished: number }
>(
  `WITH e AS (UPDATE executions SET status = $4, http_status = $5, result = $6, error = $7, duration_ms = $8, attempts = $9, attempt_log = $10::jsonb, payload = $11 ` +
    `WHERE ${UNFINISHED_ROW} RETURNING id), ` +
    `p AS (INSERT INTO execution_payloads (${PAYLOAD_COLUMNS}) SELECT id, $1, $3, $12::json, $13::json FROM e WHERE $12::json IS NOT NULL) ` +
    `SELECT count(*)::int AS finished FROM e`,
);

/** The rows of `table` in the JSON array `$n`, each column by its name and of its own type. */
const rowsOf = (table: string, columns: string, n: number) => `SELECT ${columns} FROM json_populate_recordset(NULL::${table}, $${n}::json)`;

function insertSql(withPayloads: boolean): string {
  const executions = `INSERT INTO executions (${COLUMNS}) ${rowsOf('executions', COLUMNS, 1)}`;
  if (!withPayloads) return executions;
  return `WITH e AS (${executions}) INSERT INTO execution_payloads (${PAYLOAD_COLUMNS}) ${rowsOf('execution_payloads', PAYLOAD_COLUMNS, 2)}`;
}
const BATCH_WHY = 'executions finishing together are stored in one statement, whatever their tenants; each row carries its own';
/** A batch's executions (`$1`, a JSON array of rows keyed by COLUMNS)... */
export const INSERT_SQL = logWrite('agw_log_insert', BATCH_WHY, insertSql(false));
/** ...and their payloads (`$2`, keyed by PAYLOAD_COLUMNS), where any is kept. */
export const INSERT_WITH_PAYLOADS_SQL = logWrite('agw_log_insert_payloads', BATCH_WHY, insertSql(true));
