import { v7 } from 'uuid';
import { shortId } from './format';

describe('shortId', () => {
  it('tells apart ids made in the same minute (UUID v7: the first digits are the time)', () => {
    const ids = Array.from({ length: 50 }, () => v7());
    expect(new Set(ids.map((id) => id.slice(0, 8))).size).toBeLessThan(3); // why the start will not do
    expect(new Set(ids.map(shortId)).size).toBe(50);
    expect(shortId(ids[0])).toBe(ids[0].slice(-8));
  });
});
