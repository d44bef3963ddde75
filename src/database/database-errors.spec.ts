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
  ])('is true for %s', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    new Error('something else'),
    new QueryFailedError('INSERT', [], Object.assign(new Error('duplicate key'), { code: '23505' })),
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
