import { API_TOKEN_PREFIX, HEADER_SHAPE_PROBLEMS, HeaderShapeProblem, headerShapeProblem, JWT_SHAPE, sentCredential } from '../common/bearer-challenge';
import { PORTAL_TOKEN_PREFIX } from './secrets';

/**
 * Why the management API refused the credential of an `Authorization` header that is not the admin key, for the
 * `error_description` of its 401 challenge, as the gateway API says why it refused a bearer token
 * (auth/bearer-problem.ts). It reads the header's shape and the credential's: a tenant's bearer token (a JWT) or
 * API token (`agw_`), or a portal link's token (`agwp_`), sent where the admin key goes, is the wrong kind of
 * credential, and says which one to use. Like the gateway's, every text is fixed and reveals nothing the caller
 * does not hold.
 */
export type AdminKeyProblem = HeaderShapeProblem | 'tenant_jwt' | 'api_token' | 'portal_link' | 'wrong_key';

export const ADMIN_KEY_PROBLEMS: Record<AdminKeyProblem, string> = {
  ...HEADER_SHAPE_PROBLEMS,
  tenant_jwt:
    "This is a tenant's bearer token (a JWT), which the gateway API (/api/v1/gateway) takes: the management API takes the admin key, 'Bearer <ADMIN_API_KEY>'",
  api_token:
    "This is a tenant's API token (agw_...), which POST /api/v1/gateway/token/exchange takes: the management API takes the admin key, 'Bearer <ADMIN_API_KEY>'",
  portal_link: "This is a portal link's token (agwp_...): open the link in a browser, where it signs in to the console for its tenant",
  wrong_key: "The bearer token is not this service's admin key (ADMIN_API_KEY)",
};

/** What is wrong with an `Authorization` header that did not carry the admin key. */
export function adminKeyProblem(header: string | string[]): AdminKeyProblem {
  const sent = sentCredential(header);
  // The kind of credential first: sent without the scheme, it is still the wrong one.
  if (sent?.token.startsWith(PORTAL_TOKEN_PREFIX)) return 'portal_link';
  if (sent?.token.startsWith(API_TOKEN_PREFIX)) return 'api_token';
  if (sent && JWT_SHAPE.test(sent.token)) return 'tenant_jwt';
  if (typeof header !== 'string') return 'scheme';
  return sent?.scheme ? 'wrong_key' : headerShapeProblem(header);
}
