/**
 * The console's only way to the service: the documented management API under /api/v1/admin, with the session
 * cookie (HttpOnly: this code never sees it) and, on state-changing requests, the session's CSRF token.
 */

const BASE = '/api/v1/admin';
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** An answer other than 2xx, with the service's `{error, details}` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details?: string,
  ) {
    super(details ? `${error}: ${details}` : error);
  }
}

let csrfToken: string | undefined;

/**
 * The request budget the last answer reported (`X-RateLimit-Limit` and `-Remaining`): a tenant session's calls
 * count against its tenant's hourly budget, an operator's against the operators'. Automatic refreshes read it.
 */
export const lastBudget: { limit?: number; remaining?: number } = {};
let onSessionEnded: (() => void) | undefined;
let onCsrfRefused: (() => Promise<void>) | undefined;
const CSRF_REFUSED = 'Missing or invalid CSRF token';

/** The CSRF token of the current session (kept in memory only; GET /session gives it again after a reload). */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called when the service answers 401 to a signed-in request: the session expired or was ended elsewhere. */
export function whenSessionEnds(handler: (() => void) | undefined): void {
  onSessionEnded = handler;
}

/**
 * Called when the service refuses this page's CSRF token: the cookie belongs to another session now (this browser
 * signed in again, or opened a portal link, in another tab). The handler reads the current session again.
 */
export function whenCsrfRefused(handler: (() => Promise<void>) | undefined): void {
  onCsrfRefused = handler;
}

export async function api<T>(method: string, path: string, body?: unknown, options: { signingIn?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (!SAFE_METHODS.has(method) && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'The service cannot be reached', 'check your connection and try again');
  }
  const limit = response.headers.get('x-ratelimit-limit');
  if (limit !== null) {
    lastBudget.limit = Number(limit);
    lastBudget.remaining = Number(response.headers.get('x-ratelimit-remaining'));
  }
  if (response.status === 204) return undefined as T;
  const data = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    if (response.status === 401 && !options.signingIn) onSessionEnded?.();
    if (response.status === 403 && data.error === CSRF_REFUSED && !options.signingIn && onCsrfRefused) {
      // Not retried here: the request was meant for the session this page knew, which may not be the new one.
      await onCsrfRefused().catch(() => undefined);
      throw new ApiError(403, 'This browser signed in again in another tab', 'this page now uses that session: check it and try again');
    }
    // A proxy's HTML page over HTTP/2 has neither an error body nor a status text.
    throw new ApiError(response.status, String(data.error ?? (response.statusText || `The service answered ${response.status}`)), data.details as string | undefined);
  }
  return data as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body);
export const put = <T>(path: string, body?: unknown) => api<T>('PUT', path, body);
export const patch = <T>(path: string, body?: unknown) => api<T>('PATCH', path, body);
export const del = (path: string) => api<void>('DELETE', path);

/** `encodeURIComponent` for path segments. */
export const seg = encodeURIComponent;
