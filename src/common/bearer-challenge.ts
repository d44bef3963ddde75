import { bearerCredentials } from './bearer-credentials';
import { InvalidTokenError } from './common.errors';

/**
 * The 401 challenges of the two APIs (RFC 6750, section 3) and what both can tell of a credential from its shape
 * alone: the body stays the contract's `{"error":"Invalid token"}`, and `WWW-Authenticate` says which mistake the
 * caller made. Every text is fixed (nothing the caller sent is echoed) and fits a quoted-string: no `"`, no `\`.
 */

/** The gateway API's protection space (tenants' bearer tokens) and the management API's (the admin key). */
export const GATEWAY_REALM = 'action-gateway';
export const MANAGEMENT_REALM = 'action-gateway-admin';

/** An API token starts with this (auth/token-credentials.ts), so one is recognised wherever it is sent. */
export const API_TOKEN_PREFIX = 'agw_';
/** Three base64url parts, the last (the signature) possibly empty, as a compact JWS is written. */
export const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** What is wrong with an Authorization header that does not hold exactly `Bearer <token>`. */
export type HeaderShapeProblem = 'scheme' | 'empty' | 'trailing';

export const HEADER_SHAPE_PROBLEMS: Record<HeaderShapeProblem, string> = {
  scheme: "The Authorization header must be 'Bearer <token>'",
  empty: "The Authorization header has no token after 'Bearer'",
  trailing: "The Authorization header must be 'Bearer <token>' with nothing after the token",
};

const EMPTY_BEARER = /^\s*Bearer\s*$/i;
const BEARER_SCHEME = /^\s*Bearer\s/i;

/** The problem of a header whose bearer token could not be read (bearerCredentials gave null). */
export function headerShapeProblem(header: string): HeaderShapeProblem {
  if (EMPTY_BEARER.test(header)) return 'empty';
  return BEARER_SCHEME.test(header) ? 'trailing' : 'scheme';
}

/**
 * The credential a header carries, with the `Bearer` scheme or, by mistake, without it (one word alone): what is
 * looked at to say which kind of credential was sent. Null when the header holds no single token.
 */
export function sentCredential(header: string | string[] | undefined): { token: string; scheme: boolean } | null {
  if (typeof header !== 'string') return null;
  const token = bearerCredentials(header);
  if (token !== null) return { token, scheme: true };
  const alone = header.trim();
  return alone !== '' && !/\s/.test(alone) && !EMPTY_BEARER.test(alone) ? { token: alone, scheme: false } : null;
}

/** The contract's 401 with RFC 6750's challenge: an error code and a description only when credentials came (3.1). */
export function challenged(realm: string, description?: string): InvalidTokenError {
  const error = new InvalidTokenError();
  const challenge = `Bearer realm="${realm}"`;
  error.headers['WWW-Authenticate'] = description === undefined ? challenge : `${challenge}, error="invalid_token", error_description="${description}"`;
  return error;
}
