import { API_TOKEN_PREFIX, HEADER_SHAPE_PROBLEMS, HeaderShapeProblem, headerShapeProblem, JWT_SHAPE } from '../common/bearer-challenge';
import { bearerCredentials } from '../common/bearer-credentials';

/**
 * Why a request's bearer token was refused, for the `error_description` of its 401 challenge (RFC 6750, 3): the
 * body stays the contract's `{"error":"Invalid token"}`, and the header says which mistake the caller made.
 *
 * What it may say is what the caller can see without the service's secrets: the header's shape, the token's shape
 * (an `agw_` API token sent where a bearer token goes, a token that is not a whole JWT), and, for a token whose
 * signature this service verified, that it expired or that its API token or tenant no longer stands. It never
 * looks a token up to describe it, so whatever is sent, the answer says nothing about which tokens exist. Every
 * text is fixed (nothing the caller sent is echoed) and fits a quoted-string: no `"` and no `\`.
 */
export type BearerProblem =
  | HeaderShapeProblem
  | 'api_token'
  | 'api_token_without_scheme'
  | 'not_jwt'
  | 'admin_key'
  | 'signature'
  | 'expired'
  | 'foreign'
  | 'no_longer_valid';

export const BEARER_PROBLEMS: Record<BearerProblem, string> = {
  ...HEADER_SHAPE_PROBLEMS,
  api_token: 'This is an API token (agw_...): exchange it for a bearer token at POST /api/v1/gateway/token/exchange first',
  api_token_without_scheme:
    "The Authorization header must be 'Bearer <token>', and an API token (agw_...) must first be exchanged for a bearer token at POST /api/v1/gateway/token/exchange",
  not_jwt: 'The bearer token is not a whole JWT (three dot-separated parts): was it cut short when copied?',
  admin_key:
    'This is the admin key (ADMIN_API_KEY), which only the management API (/api/v1/admin) takes: the gateway API takes the bearer token that POST /api/v1/gateway/token/exchange gives for an API token',
  signature: 'The bearer token signature does not verify: it was cut short or changed, or another gateway issued it',
  expired: 'The bearer token expired: exchange the API token for a new one',
  foreign: 'The bearer token was not issued by this gateway',
  no_longer_valid: 'The API token behind this bearer token was revoked or has expired, or its tenant is disabled',
};

/**
 * What is wrong with the `Authorization` header itself, before any token is verified: undefined when it carries a
 * bearer token shaped like a JWT (or no header at all, which the challenge answers without an error code).
 */
export function headerProblem(header: string | string[] | undefined): BearerProblem | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string') return 'scheme';
  const token = bearerCredentials(header);
  if (token === null) {
    const shape = headerShapeProblem(header);
    return shape === 'scheme' && header.trim().startsWith(API_TOKEN_PREFIX) ? 'api_token_without_scheme' : shape;
  }
  if (token.startsWith(API_TOKEN_PREFIX)) return 'api_token';
  return JWT_SHAPE.test(token) ? undefined : 'not_jwt';
}

/** The problem passport-jwt reported (jsonwebtoken's errors) for a token of the right shape. */
export function verificationProblem(failure: unknown): BearerProblem {
  const { name, message } = (failure ?? {}) as { name?: unknown; message?: unknown };
  if (name === 'TokenExpiredError') return 'expired';
  if (message === 'invalid signature' || message === 'jwt signature is required') return 'signature';
  // A part cut short can still decode to bytes, which are then not JSON: jsonwebtoken throws JSON.parse's error.
  if (message === 'jwt malformed' || message === 'invalid token' || name === 'SyntaxError') return 'not_jwt';
  return 'foreign'; // another algorithm, issuer or audience, a token not yet valid, claims this service does not issue
}
