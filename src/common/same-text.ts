import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant-time equality of two texts of any lengths (their digests are compared). */
export function sameText(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a, 'utf8').digest(), createHash('sha256').update(b, 'utf8').digest());
}
