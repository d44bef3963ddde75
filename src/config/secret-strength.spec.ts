import { randomBytes } from 'node:crypto';
import { estimatedBits, isRepetition, keyWeakness, weakness } from './secret-strength';

describe('secret strength', () => {
  it('never refuses a random key of the sizes the docs suggest', () => {
    for (let i = 0; i < 2_000; i++) {
      expect(weakness(randomBytes(48).toString('base64'), 32, 'bytes')).toBeUndefined();
      expect(weakness(randomBytes(16).toString('hex'), 32, 'characters')).toBeUndefined();
      expect(keyWeakness(randomBytes(32))).toBeUndefined();
    }
  });

  it('finds a short unit repeated, a partial last copy included', () => {
    expect(isRepetition('aaaa')).toBe(true);
    expect(isRepetition('abcabcab')).toBe(true);
    expect(isRepetition(Buffer.from([1, 2, 1, 2, 1]))).toBe(true);
    expect(isRepetition('abcabcabd')).toBe(false);
  });

  it('estimates entropy from the symbols’ own frequencies', () => {
    expect(estimatedBits('a'.repeat(40))).toBe(0);
    expect(estimatedBits('ab'.repeat(20))).toBe(40);
    expect(estimatedBits('abcd'.repeat(10))).toBe(80);
  });
});
