import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable, isSchemaMissing } from './database-errors';

describe('isDatabaseUnavailable', () => {
  it.each([
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new QueryFailedError('SELECT 1', [], Object.assign(new Error('terminating connection'), { code: '57P01' })),
    new QueryFailedError('SELECT 1', [], Object.assign(new Error('connection failure'), { code: '08006' })),
    new QueryFailedError('SELECT 1', [], Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })),
    // Logins refused: the database dropped or closed to connections, the role's password changed.
    Object.assign(new Error('database "gateway" does not exist'), { code: '3D000' }),
    Object.assign(new Error('database "gateway" is not currently accepting connections'), { code: '55000' }),
    Object.assign(new Error('password authentication failed for user "gateway"'), { code: '28P01' }),
    Object.assign(new Error('role "gateway" is not permitted to log in'), { code: '28000' }),
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P04' }),
    Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' }),
  ])('is true for %s', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    new Error('something else'),
    new QueryFailedError('INSERT', [], Object.assign(new Error('duplicate key'), { code: '23505' })),
    new QueryFailedError('SELECT', [], Object.assign(new Error('currval of sequence "s" is not yet defined in this session'), { code: '55000' })),
    new QueryFailedError('SELECT', [], Object.assign(new Error('temporary file size exceeds temp_file_limit'), { code: '53400' })),
    new TypeError('x is undefined'),
    undefined,
  ])('is false for %s', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('isSchemaMissing', () => {
  const failed = (code: string, message: string) => new QueryFailedError('SELECT 1', [], Object.assign(new Error(message), { code }));

  it.each([
    failed('42P01', 'relation "tenants" does not exist'),
    failed('42703', 'column "primary" does not exist'),
    failed('42704', 'type "tenant_status" does not exist'),
    failed('3F000', 'schema "gateway" does not exist'),
    Object.assign(new Error('relation "api_tokens" does not exist'), { code: '42P01' }),
  ])('is true for %s', (error) => {
    expect(isSchemaMissing(error)).toBe(true);
  });

  it.each([failed('23505', 'duplicate key'), failed('42601', 'syntax error'), new Error('relation "x" does not exist'), undefined])(
    'is false for %s',
    (error) => {
      expect(isSchemaMissing(error)).toBe(false);
    },
  );
});
