import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-errors';

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
