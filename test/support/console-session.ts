import { call, TestResponse } from './http';

/** A console session as a browser holds it: the cookie's value and the CSRF token from the body. */
export interface ConsoleCookie {
  cookie: string;
  csrf: string;
  response: TestResponse;
}

const COOKIE = 'agw_console_session';

/** The session cookie a response set (Set-Cookie), or undefined. */
export function sessionCookieOf(response: TestResponse): string | undefined {
  const header = response.headers.getSetCookie().find((line) => line.startsWith(`${COOKIE}=`));
  return header?.slice(COOKIE.length + 1).split(';')[0] || undefined;
}

export async function operatorSession(baseUrl: string, adminApiKey: string): Promise<ConsoleCookie> {
  return opened(await call(baseUrl, 'POST', '/api/v1/admin/session', { body: { admin_api_key: adminApiKey } }));
}

export async function redeemPortalLink(baseUrl: string, token: string): Promise<ConsoleCookie> {
  return opened(await redeem(baseUrl, { token }));
}

/**
 * POST /portal-links/redeem as the console's own page sends it: JSON, with the service's origin in `Origin`
 * (`headers` add to or replace these), and the browser's session cookie when it holds one (`cookie`).
 */
export function redeem(baseUrl: string, body: unknown, options: { cookie?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { origin: baseUrl, 'content-type': 'application/json', ...options.headers };
  if (options.cookie) headers.cookie = `${COOKIE}=${options.cookie}`;
  return call(baseUrl, 'POST', '/api/v1/admin/portal-links/redeem', { body, headers });
}

function opened(response: TestResponse): ConsoleCookie {
  const cookie = sessionCookieOf(response);
  if (response.status !== 200 || !cookie) throw new Error(`no session: ${response.status} ${response.text}`);
  return { cookie, csrf: response.body.session.csrf_token, response };
}

/** A management API call made with a session cookie (and its CSRF token unless `csrf` is given). */
export function withSession(baseUrl: string, session: Pick<ConsoleCookie, 'cookie' | 'csrf'>, method: string, path: string, body?: unknown, csrf: string | null = session.csrf) {
  const headers: Record<string, string> = { cookie: `${COOKIE}=${session.cookie}` };
  if (csrf !== null) headers['x-csrf-token'] = csrf;
  return call(baseUrl, method, `/api/v1/admin${path}`, { headers, body });
}
