import { v4, v7 } from 'uuid';
import { uuidV7Time } from './uuid';

describe('uuidV7Time', () => {
  it('reads the milliseconds of a UUID v7, and nothing of any other id', () => {
    const before = Date.now();
    const time = uuidV7Time(v7());
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
    expect(uuidV7Time('019ac4a0-1234-7000-8000-000000000001')).toBe(0x019ac4a01234);
    expect(uuidV7Time(v4())).toBeUndefined();
    expect(uuidV7Time('not a uuid')).toBeUndefined();
  });
});
