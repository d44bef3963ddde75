import { BEARER_PROBLEMS, headerProblem, verificationProblem } from './bearer-problem';

describe('bearer problems (the 401 challenge\'s error_description)', () => {
  it.each([
    [undefined, undefined],
    ['Bearer aaa.bbb.ccc', undefined],
    ['bearer   aaa.bbb.', undefined],
    ['Basic dXNlcjpwdw==', 'scheme'],
    ['aaa.bbb.ccc', 'scheme'],
    [['Bearer a.b.c', 'Bearer a.b.c'], 'scheme'],
    ['Bearer', 'empty'],
    ['Bearer   ', 'empty'],
    ['Bearer aaa.bbb.ccc extra', 'trailing'],
    ['Bearer agw_abc', 'api_token'],
    ['agw_abc', 'api_token_without_scheme'],
    ['Bearer aaa.bbb', 'not_jwt'],
    ['Bearer aaa.b+b.ccc', 'not_jwt'],
    ['Bearer aaa.bbb.ccc.ddd', 'not_jwt'],
  ])('reads %j as %s', (header, problem) => {
    expect(headerProblem(header)).toBe(problem);
  });

  it.each([
    [{ name: 'TokenExpiredError', message: 'jwt expired' }, 'expired'],
    [{ name: 'JsonWebTokenError', message: 'invalid signature' }, 'signature'],
    [{ name: 'JsonWebTokenError', message: 'jwt signature is required' }, 'signature'],
    [{ name: 'JsonWebTokenError', message: 'jwt malformed' }, 'not_jwt'],
    [{ name: 'SyntaxError', message: 'Unexpected end of JSON input' }, 'not_jwt'],
    [{ name: 'JsonWebTokenError', message: 'jwt audience invalid. expected: action-gateway' }, 'foreign'],
    [{ name: 'JsonWebTokenError', message: 'invalid algorithm' }, 'foreign'],
    ['claims', 'foreign'],
    [undefined, 'foreign'],
  ])('reads jsonwebtoken\'s %j as %s', (failure, problem) => {
    expect(verificationProblem(failure)).toBe(problem);
  });

  it('words every problem as an RFC 6750 quoted-string may hold it, echoing nothing', () => {
    for (const text of Object.values(BEARER_PROBLEMS)) expect(text).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
  });
});
