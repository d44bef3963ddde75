import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** The names a loopback address goes by, as a browser writes them in an origin. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Where this request arrived, as the connection says (the address and port it was accepted on), never as a header
 * says: Host and X-Forwarded-Host are the client's to write, and a page that a rebound DNS name sends here writes
 * its own name in both. The service speaks plain HTTP itself (TLS ends in front of it, at PUBLIC_URL).
 */
export function connectionOrigin(request: FastifyRequest): string {
  const { localAddress = '127.0.0.1', localPort } = request.raw.socket;
  const address = localAddress.startsWith('::ffff:') ? localAddress.slice('::ffff:'.length) : localAddress;
  return `http://${address.includes(':') ? `[${address}]` : address}:${localPort}`;
}

/**
 * Whether `origin` (an `Origin` header) is this service's own: PUBLIC_URL's origin, or the connection's; an origin
 * on a loopback address also under the other names of loopback, same scheme and port (the console opened at
 * `http://localhost:3000` reaches a service whose connection says 127.0.0.1:3000). `extra`: origins allowed
 * besides (MCP_ALLOWED_ORIGINS). `null`, or anything that is not an http(s) origin, is never one.
 */
export function isOwnOrigin(origin: string, request: FastifyRequest, publicUrl: string | undefined, extra: readonly string[] = []): boolean {
  const sent = parseOrigin(origin);
  if (!sent) return false;
  const own = [connectionOrigin(request), ...(publicUrl ? [publicUrl] : []), ...extra];
  return own.some((candidate) => {
    const allowed = parseOrigin(candidate);
    if (!allowed) return false;
    if (allowed.origin === sent.origin) return true;
    return allowed.protocol === sent.protocol && allowed.port === sent.port && isLoopback(allowed.hostname) && LOOPBACK_HOSTS.includes(sent.hostname);
  });
}

/** An http(s) origin (scheme, host, port: nothing more), normalised by URL (case, default port), or undefined. */
function parseOrigin(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  return (url.protocol === 'http:' || url.protocol === 'https:') && bare ? url : undefined;
}

function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost') return true;
  const address = hostname.replace(/^\[|\]$/g, '');
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1';
}
