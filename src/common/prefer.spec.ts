import { prefersRespondAsync } from './prefer';

describe('prefersRespondAsync (RFC 7240)', () => {
  it.each([
    ['respond-async', true],
    ['Respond-Async', true],
    ['respond-async, wait=10', true],
    ['wait=10, respond-async', true],
    ['return=minimal; foo, respond-async ;x=y', true],
    [['return=minimal', 'respond-async'], true],
    ['', false],
    ['wait=10', false],
    ['respond-asynchronously', false],
    ['return=respond-async', false],
    [undefined, false],
  ])('reads %j as %s', (header, expected) => {
    expect(prefersRespondAsync(header)).toBe(expected);
  });
});
