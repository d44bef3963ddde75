/**
 * What makes a configured secret too weak to run with. A secret here is a key (JWT_SECRET, ADMIN_API_KEY,
 * ENCRYPTION_KEY), never a password a person remembers, so the test is simple: long enough, not a known
 * placeholder, not a short pattern repeated, and with characters varied enough for the estimate below.
 */

const PLACEHOLDER = /change.?me|example|placeholder|^(secret|password)$/i;

/**
 * The least estimated entropy a secret may have, in bits: its length times the Shannon entropy of its own
 * character (or byte) frequencies. Random keys of the shortest accepted sizes score well above it (32 random
 * hex characters: 92 bits at the lowest in 200,000 draws; 32 random bytes: 138), while `aaaa…`, `abab…` or
 * `abcd` × 10 score 0, 40 and 80.
 */
const MIN_ESTIMATED_BITS = 85;

export function estimatedBits(symbols: ArrayLike<string | number>): number {
  const counts = new Map<string | number, number>();
  for (let i = 0; i < symbols.length; i++) counts.set(symbols[i], (counts.get(symbols[i]) ?? 0) + 1);
  let perSymbol = 0;
  for (const count of counts.values()) {
    const p = count / symbols.length;
    perSymbol -= p * Math.log2(p);
  }
  return perSymbol * symbols.length;
}

/** True when the sequence is a shorter unit repeated, a partial last copy included (`abcabcab`). */
export function isRepetition(symbols: ArrayLike<string | number>): boolean {
  const length = Math.min(symbols.length, 1024);
  for (let period = 1; period <= length / 2; period++) {
    let repeats = true;
    for (let i = period; i < length && repeats; i++) repeats = symbols[i] === symbols[i - period];
    if (repeats) return true;
  }
  return false;
}

/** Why a text secret is weak, or undefined when it is not. */
export function weakness(secret: string, minimum: number, unit: 'bytes' | 'characters'): string | undefined {
  const length = unit === 'bytes' ? Buffer.byteLength(secret, 'utf8') : [...secret].length;
  if (length < minimum) return `is shorter than ${minimum} ${unit}`;
  if (PLACEHOLDER.test(secret)) return 'is a placeholder';
  return patternWeakness([...secret]);
}

/** Why a key's bytes are weak (all zero, repeated, too uniform), or undefined. */
export function keyWeakness(key: Buffer): string | undefined {
  return patternWeakness(key);
}

function patternWeakness(symbols: ArrayLike<string | number>): string | undefined {
  if (isRepetition(symbols)) return 'repeats a short pattern';
  if (estimatedBits(symbols) < MIN_ESTIMATED_BITS) return 'has too little variety to be random';
  return undefined;
}
