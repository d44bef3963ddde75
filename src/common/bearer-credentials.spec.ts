import { bearerCredentials } from './bearer-credentials';

describe('bearerCredentials', () => {
  it.each([
    ['Bearer abc.def', 'abc.def'],
    ['bearer abc', 'abc'],
    ['BEARER    abc', 'abc'],
  ])('reads %j as its token', (header, token) => {
    expect(bearerCredentials(header)).toBe(token);
  });

  it.each([[undefined], [''], ['Bearer'], ['Bearer '], ['Bearerabc'], ['Basic abc'], ['Bearer abc def'], ['Bearer\tabc'], [' Bearer abc'], [['Bearer a', 'Bearer b']]])(
    'finds no token in %j',
    (header) => {
      expect(bearerCredentials(header)).toBeNull();
    },
  );
});
