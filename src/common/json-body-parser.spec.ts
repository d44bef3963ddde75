import { InvalidRequestError } from './common.errors';
import { MAX_BODY_DEPTH, RawBody } from './json-body-parser';
import { nestsDeeperThan } from './json-text';

const parse = (text: string) => new RawBody('application/json', Buffer.from(text)).parseObject({ forwardsAsWritten: true });

describe('RawBody.parseObject', () => {
  it('reads bodies nested up to the limit', () => {
    const deepest = `{"a":${'['.repeat(MAX_BODY_DEPTH - 1)}${']'.repeat(MAX_BODY_DEPTH - 1)}}`;
    expect(parse(deepest)).toEqual({ a: expect.any(Array) });
  });

  it('refuses deeper bodies at once, however deep, with a 400 naming the limit', () => {
    for (const depth of [MAX_BODY_DEPTH + 1, 500_000]) {
      const text = `{"a":${'['.repeat(depth - 1)}12345678901234567890${']'.repeat(depth - 1)}}`;
      expect(() => parse(text)).toThrow(new InvalidRequestError(`body: nested deeper than ${MAX_BODY_DEPTH} levels`));
    }
  });
});

describe('nestsDeeperThan', () => {
  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(`{"a":"${'['.repeat(500)}\\"${'{'.repeat(500)}"}`, 2)).toBe(false);
    expect(nestsDeeperThan('[[["\\\\"]]]', 2)).toBe(true);
    expect(nestsDeeperThan('[[],[],[]]', 2)).toBe(false);
  });
});
