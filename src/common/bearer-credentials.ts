// RFC 6750 section 2.1: `credentials = "Bearer" 1*SP b64token`, the scheme in any case.
const BEARER = /^Bearer +(\S+)$/i;

/**
 * The token of an `Authorization: Bearer <token>` header, the whole header or nothing (passport-jwt's own
 * extractor reads up to the first space and ignores whatever follows).
 */
export function bearerCredentials(header: string | string[] | undefined): string | null {
  const match = typeof header === 'string' ? BEARER.exec(header) : null;
  return match ? match[1] : null;
}
