// The management API's resources, as openapi.json describes them.

export interface Session {
  kind: 'operator' | 'tenant';
  tenant_id: string | null;
  expires_at: string;
  csrf_token: string;
}

export interface Tenant {
  id: string;
  name: string;
  status: 'active' | 'disabled';
  created_at: string;
  updated_at: string;
}

export interface ApiToken {
  id: string;
  name: string;
  prefix: string;
  token?: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface HmacKey {
  id: string;
  key?: string;
  primary: boolean;
  created_at: string;
  revoked_at: string | null;
}

export type JsonSchema = Record<string, unknown>;

export interface Action {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  json_schema: JsonSchema;
  webhook_url: string;
  created_at: string;
  updated_at: string;
}

export interface Attempt {
  attempt: number;
  started_at: string;
  duration_ms: number;
  http_status: number | null;
  error: string;
}

export interface Execution {
  id: string;
  action_name: string;
  /** `pending` and `running`: accepted with `Prefer: respond-async`, not finished yet. */
  status: 'succeeded' | 'failed' | 'pending' | 'running';
  http_status: number | null;
  result: string | null;
  error: string;
  duration_ms: number;
  attempts: number;
  created_at: string;
  attempt_log?: Attempt[];
  /** The execution this one replayed (management API lists and lookups). */
  replay_of?: string | null;
}

/** A page of an execution list: newest first; `next_cursor` reads the older ones. */
export interface ExecutionPage {
  executions: Execution[];
  next_cursor: string | null;
}

/** A body as the log keeps it: text, or base64 when it is not UTF-8; cut past its bound (`body_truncated`). */
export interface LoggedBody {
  body: string | null;
  body_encoding: 'utf8' | 'base64';
  /** Its whole size before any cut; -1 when larger than the 1 MB read. */
  body_bytes: number;
  body_truncated: boolean;
}

export interface LoggedRequest extends LoggedBody {
  headers: Record<string, string>;
}

export interface LoggedResponse extends LoggedBody {
  status: number;
  headers: Record<string, string>;
}

export interface LoggedAttempt {
  attempt: number;
  request_headers: Record<string, string>;
  response: LoggedResponse | null;
}

/** What was sent and what came back, when the log kept it. */
export interface ExecutionPayload {
  /** `pending`: the execution has not finished; what it sent and got back is kept when it does. */
  status: 'kept' | 'not_logged' | 'expired' | 'pending';
  request: LoggedRequest | null;
  attempts: LoggedAttempt[] | null;
}

export interface ExecutionWithPayload extends Execution {
  attempt_log: Attempt[];
  replay_of: string | null;
  /** The Idempotency-Key it was made under, while the key is kept (24 hours). */
  idempotency_key: string | null;
  payload: ExecutionPayload;
}

export interface BulkReplay {
  id: string;
  action_name: string;
  since: string;
  until: string;
  status: 'running' | 'done' | 'stopped';
  stopped_reason: string | null;
  total: number;
  done: number;
  left: number;
  succeeded: number;
  failed: number;
  skipped: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface LogSettings {
  payload_logging: boolean;
}

/** An action's circuit breaker as the answering replica sees it (GET …/actions/{name}/circuit). */
export interface Circuit {
  state: 'closed' | 'open' | 'half_open';
  since: string | null;
  retry_at: string | null;
  consecutive_failures: number;
}

export interface StatsSummary {
  executions: number;
  succeeded: number;
  failed: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

export interface StatsPoint extends StatsSummary {
  /** The start of the hour or the UTC day. */
  start: string;
}

export interface ExecutionStats {
  action_name: string | null;
  hourly: StatsPoint[];
  daily: StatsPoint[];
  /** Tenant-wide only: each action over the last 24 hours. */
  actions?: Array<StatsSummary & { action_name: string }>;
}

export interface PortalLink {
  url: string;
  token: string;
  tenant_id: string;
  expires_at: string;
}

/** POST /portal-links/inspect: whose portal a link opens, and the session of this browser it would end. */
export interface PortalLinkPreview {
  portal_link: { tenant_id: string; tenant_name: string; expires_at: string };
  current_session: { kind: 'operator' | 'tenant'; tenant_id: string | null; tenant_name: string | null } | null;
}
