/** An API token as the management API shows it; `token` only in the response that created it. */
export interface ApiTokenDto {
  id: string;
  name: string;
  prefix: string;
  token?: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}
