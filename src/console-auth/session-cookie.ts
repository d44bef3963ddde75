import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_PREFIX } from '../common/routes';

const SESSION_COOKIE = 'agw_console_session';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure in
 * production, and sent only to the management API, the one place that reads it.
 */
function sessionCookieOptions(secure: boolean, expires?: Date): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'strict', secure, path: `/${ADMIN_PREFIX}`, ...(expires ? { expires } : {}) };
}

export function readSessionCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies?.[SESSION_COOKIE];
  return typeof value === 'string' && value.length > 0 && value.length <= 100 ? value : undefined;
}

export function setSessionCookie(reply: FastifyReply, secret: string, expires: Date, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, secret, sessionCookieOptions(secure, expires));
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(secure));
}
