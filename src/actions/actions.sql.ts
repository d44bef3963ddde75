// The statements the service writes by hand, in a module of their own (no framework imports) so the
// benchmark's bare baseline (bench/baseline-server.mjs) runs the very same SQL as the service. Every column of
// `actions` is listed once, here; a test holds the list to the entity's (test/hand-written-sql.e2e-spec.ts).
// Each is a tenant's statement: `$1` is the tenant (see tenant-statement.ts).
import { tenantStatement } from '../tenancy/tenant-statement';

/** A row of `actions` as these statements read it. */
export interface ActionRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  /** Its text (see `read` below). */
  json_schema: string;
  webhook_url: string;
  created_at: Date;
  updated_at: Date;
  payload_logging: boolean;
}

export const ACTION_COLUMNS = ['id', 'tenant_id', 'name', 'description', 'json_schema', 'webhook_url', 'created_at', 'updated_at', 'payload_logging'] as const;

/**
 * A column as read: `json_schema` as its text, so that it comes back with its keys in the order and its numbers
 * in the spelling they were sent (a `json` column keeps the text; JSON.parse would reorder integer-like keys).
 */
const read = (column: (typeof ACTION_COLUMNS)[number], table = '') =>
  column === 'json_schema' ? `${table}json_schema::text AS json_schema` : `${table}${column}`;
const READ_COLUMNS = ACTION_COLUMNS.map((column) => read(column)).join(', ');

const SELECT_ACTION = `SELECT ${READ_COLUMNS} FROM actions`;
export const ACTION_BY_NAME_SQL = tenantStatement<[name: string], ActionRow>(`${SELECT_ACTION} WHERE tenant_id = $1 AND name = $2`);
/** A tenant's actions ordered by name: what the read model keeps (and the bench's baseline reads). */
export const ACTIONS_OF_TENANT_SQL = tenantStatement<[], ActionRow>(`${SELECT_ACTION} WHERE tenant_id = $1 ORDER BY name`);

/** A new action of tenant `$1`, the other columns in ACTION_COLUMNS' order; `json_schema` is given as its text. */
const INSERTED_COLUMNS = ['tenant_id', ...ACTION_COLUMNS.filter((column) => column !== 'tenant_id')];
export const INSERT_ACTION_SQL = tenantStatement<
  [id: string, name: string, description: string, jsonSchema: string, webhookUrl: string, createdAt: Date, updatedAt: Date, payloadLogging: boolean]
>(
  `INSERT INTO actions (${INSERTED_COLUMNS.join(', ')}) VALUES (${INSERTED_COLUMNS.map((_, index) => `$${index + 1}`).join(', ')})`,
);

/**
 * Changes the action `$2` of tenant `$1`: each of description `$3`, webhook_url `$4`, json_schema `$5` (as text)
 * when not null, and updated_at `$6`. Returns the action as changed, or no row when it does not exist.
 */
export const UPDATE_ACTION_SQL = tenantStatement<[name: string, description: string | null, webhookUrl: string | null, jsonSchema: string | null, at: Date], ActionRow>(
  'UPDATE actions SET description = COALESCE($3, description), webhook_url = COALESCE($4, webhook_url), ' +
    `json_schema = COALESCE($5::json, json_schema), updated_at = $6 WHERE tenant_id = $1 AND name = $2 RETURNING ${READ_COLUMNS}`,
);

/** Sets payload_logging `$3` of the action `$2` of tenant `$1` (updated_at stays); returns the action, or no row. */
export const SET_PAYLOAD_LOGGING_SQL = tenantStatement<[name: string, on: boolean], ActionRow>(
  `UPDATE actions SET payload_logging = $3 WHERE tenant_id = $1 AND name = $2 RETURNING ${READ_COLUMNS}`,
);
