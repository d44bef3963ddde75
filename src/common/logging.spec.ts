import { QueryFailedError } from 'typeorm';
import { serializeError } from './logging';

describe('serializeError', () => {
  it('keeps the SQL text and the error, never the parameter values or the key values pg repeats', () => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      severity: 'ERROR',
      detail: 'Key (name)=(acme-secret) already exists.',
    });
    const error = new QueryFailedError('INSERT INTO "tenants" ("name") VALUES ($1)', ['acme-secret'], driverError);
    const serialized = serializeError(error) as Record<string, unknown>;
    expect(serialized).toMatchObject({
      type: 'QueryFailedError',
      message: 'duplicate key value violates unique constraint',
      query: 'INSERT INTO "tenants" ("name") VALUES ($1)',
      driverError: { code: '23505', severity: 'ERROR', message: 'duplicate key value violates unique constraint' },
    });
    expect(JSON.stringify(serialized)).not.toContain('acme-secret');
  });

  it('leaves an ordinary error as pino writes it', () => {
    expect(serializeError(new TypeError('boom'))).toMatchObject({ type: 'TypeError', message: 'boom', stack: expect.any(String) });
  });
});
