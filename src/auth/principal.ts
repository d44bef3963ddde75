import { TenantId } from '../common/tenant-id';

/** Who is calling: the tenant and the API token the bearer token was minted from. */
export interface Principal {
  tenantId: TenantId;
  apiTokenId: string;
}

/** The claims of a bearer token (contract: sub, tenant_id, iat, exp, iss, aud, jti). */
export interface BearerClaims {
  sub: string;
  tenant_id: string;
  jti: string;
  iat?: number;
  exp?: number;
  iss?: string;
  aud?: string | string[];
}
