import { closingQuote } from './json-text';

describe('closingQuote', () => {
  it.each([
    ['"abc" x', 4],
    ['"" x', 1],
    ['"a\\"b" x', 5],
    ['"a\\\\" x', 4],
    ['"a\\\\\\"b" x', 7],
    ['"unterminated', 13],
  ])('finds the end of the string opened at 0 in %j', (text, end) => {
    expect(closingQuote(text, 0)).toBe(end);
  });

  it('counts long runs of backslashes and escaped quotes right', () => {
    const text = `"${'\\\\'.repeat(200_000)}${'\\"'.repeat(200_000)}"`;
    expect(closingQuote(text, 0)).toBe(text.length - 1);
  });
});
