import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_TOKEN_PREFIX } from '../common/bearer-challenge';

const PREFIX_SHOWN = 12;

/** A new API token: `agw_` and 256 random bits, with what is stored of it. */
export function generateApiToken(): { token: string; hash: string; prefix: string } {
  const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashApiToken(token), prefix: token.slice(0, PREFIX_SHOWN) };
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
