import { Clock } from '../common/clock';
import { PrincipalCache } from './principal-cache';

class FakeClock extends Clock {
  time = Date.parse('2026-11-22T00:00:00Z');
  override now(): Date {
    return new Date(this.time);
  }
}

describe('PrincipalCache', () => {
  const clock = new FakeClock();
  const cache = new PrincipalCache(clock);

  it('remembers an answer for at most 30 seconds, so another replica\'s revocation lands within 60', () => {
    cache.remember('token', 'tenant', true, null);
    expect(cache.isValid('token', 'tenant')).toBe(true);
    clock.time += PrincipalCache.TTL_MS - 1;
    expect(cache.isValid('token', 'tenant')).toBe(true);
    clock.time += 1;
    expect(cache.isValid('token', 'tenant')).toBeUndefined();
  });

  it('never vouches for a token under another tenant', () => {
    cache.remember('token', 'tenant', true, null);
    expect(cache.isValid('token', 'other')).toBe(false);
  });

  it('honours the API token expiry even while cached', () => {
    cache.remember('expiring', 'tenant', true, new Date(clock.time + 1000));
    expect(cache.isValid('expiring', 'tenant')).toBe(true);
    clock.time += 1000;
    expect(cache.isValid('expiring', 'tenant')).toBe(false);
  });

  it('forgets a token or a whole tenant at once', () => {
    cache.remember('a', 't1', true, null);
    cache.remember('b', 't1', true, null);
    cache.remember('c', 't2', true, null);
    cache.forgetToken('a');
    expect(cache.isValid('a', 't1')).toBeUndefined();
    cache.forgetTenant('t1');
    expect(cache.isValid('b', 't1')).toBeUndefined();
    expect(cache.isValid('c', 't2')).toBe(true);
  });
});
