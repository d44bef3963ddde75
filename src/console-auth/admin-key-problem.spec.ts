import { ADMIN_KEY_PROBLEMS, adminKeyProblem } from './admin-key-problem';

describe('admin key problems (the management API 401 challenge\'s error_description)', () => {
  it.each([
    ['Bearer not-the-key', 'wrong_key'],
    ['bearer   0123456789abcdef', 'wrong_key'],
    ['Bearer aaa.bbb.ccc', 'tenant_jwt'],
    ['Bearer aaa.bbb.', 'tenant_jwt'],
    ['aaa.bbb.ccc', 'tenant_jwt'],
    ['Bearer agw_abc', 'api_token'],
    ['agw_abc', 'api_token'],
    ['Bearer agwp_abc', 'portal_link'],
    ['the-key', 'scheme'],
    ['Basic dXNlcjpwdw==', 'scheme'],
    [['Bearer a', 'Bearer a'], 'scheme'],
    ['Bearer', 'empty'],
    ['Bearer   ', 'empty'],
    ['Bearer the-key extra', 'trailing'],
  ])('reads %j as %s', (header, problem) => {
    expect(adminKeyProblem(header)).toBe(problem);
  });

  it('words every problem as an RFC 6750 quoted-string may hold it, echoing nothing', () => {
    for (const text of Object.values(ADMIN_KEY_PROBLEMS)) expect(text).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
  });
});
