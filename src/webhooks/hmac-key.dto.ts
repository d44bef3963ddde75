/** An HMAC key as the management API shows it; `key` only in the response that created it. */
export interface HmacKeyDto {
  id: string;
  key?: string;
  primary: boolean;
  created_at: string;
  revoked_at: string | null;
}
