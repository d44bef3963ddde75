import { createHash } from 'node:crypto';
import { csrfTokenFor, newSecret, PORTAL_TOKEN_PREFIX, sameText } from './secrets';

describe('console secrets', () => {
  it('makes 256-bit URL-safe secrets and keeps only their SHA-256', () => {
    const { secret, hash } = newSecret(PORTAL_TOKEN_PREFIX);
    expect(secret).toMatch(/^agwp_[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(newSecret().secret).not.toBe(newSecret().secret);
  });

  it('derives a CSRF token per session that does not contain the session secret', () => {
    const a = newSecret().secret;
    const b = newSecret().secret;
    expect(csrfTokenFor(a)).toBe(csrfTokenFor(a));
    expect(csrfTokenFor(a)).not.toBe(csrfTokenFor(b));
    expect(csrfTokenFor(a)).not.toContain(a);
  });

  it('compares texts of any length', () => {
    expect(sameText('key', 'key')).toBe(true);
    expect(sameText('key', 'key2')).toBe(false);
    expect(sameText('', 'x'.repeat(10_000))).toBe(false);
  });
});
