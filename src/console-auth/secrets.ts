import { createHash, createHmac, randomBytes } from 'node:crypto';

/** Portal link tokens start with this, so one is recognisable in a log or a support ticket. */
export const PORTAL_TOKEN_PREFIX = 'agwp_';

/**
 * A tenant (portal) session's secret starts with this, so a cookie whose session has ended still tells the
 * console it was a portal one, and the console says to open a new portal link rather than asking a developer
 * for the admin key. It says nothing else: the rest is the secret.
 */
export const TENANT_SESSION_PREFIX = 'agwt_';

/** 256 random bits, URL-safe, with the SHA-256 that is stored instead of it. */
export function newSecret(prefix = ''): { secret: string; hash: string } {
  const secret = prefix + randomBytes(32).toString('base64url');
  return { secret, hash: sha256Hex(secret) };
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * The CSRF token of a session: derived from its secret (HMAC), so every replica can check it without storing it,
 * and knowing it reveals nothing about the secret. The console reads it from `GET /session` and sends it back in
 * `X-CSRF-Token` on every state-changing request.
 */
export function csrfTokenFor(secret: string): string {
  return createHmac('sha256', secret).update('console csrf token').digest('base64url');
}

export { sameText } from '../common/same-text';
