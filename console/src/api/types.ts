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
  status: 'succeeded' | 'failed';
  http_status: number | null;
  result: string | null;
  error: string;
  duration_ms: number;
  attempts: number;
  created_at: string;
  attempt_log?: Attempt[];
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
