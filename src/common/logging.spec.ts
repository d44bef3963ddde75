import pino from 'pino';
import { QueryFailedError } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { loggerOptions, redactSecrets, serializeError } from './logging';

/** The lines a logger made with the service's options writes, parsed. */
function capture(): { logger: pino.Logger; lines: () => Record<string, unknown>[] } {
  const written: string[] = [];
  const logger = pino(loggerOptions({ logLevel: 'info' } as AppConfig), { write: (line: string) => written.push(line) });
  return { logger, lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('log redaction', () => {
  it('writes every secret field as [redacted], at the top of a line and one level down', () => {
    const { logger, lines } = capture();
    logger.info({ api_token: 'agw_live_1', admin_api_key: 'adm', jwt_token: 'eyJ', token: 't', key: 'k', secret: 's', name: 'kept' }, 'top');
    logger.info({ body: { token: 't2', key: 'k2', city: 'Oslo' }, other: { secret: 's2' } }, 'nested');
    expect(lines()[0]).toMatchObject({ api_token: '[redacted]', admin_api_key: '[redacted]', jwt_token: '[redacted]', token: '[redacted]', key: '[redacted]', secret: '[redacted]', name: 'kept', msg: 'top' });
    expect(lines()[1]).toMatchObject({ body: { token: '[redacted]', key: '[redacted]', city: 'Oslo' }, other: { secret: '[redacted]' } });
  });

  it("redacts the credentials of a logged request's headers", () => {
    const { logger, lines } = capture();
    logger.info({ req: { method: 'GET', headers: { authorization: 'Bearer abc', cookie: 'agw_console_session=x', accept: '*/*' } } }, 'request');
    expect(lines()[0].req).toEqual({ method: 'GET', headers: { authorization: '[redacted]', cookie: '[redacted]', accept: '*/*' } });
  });

  it('never changes the object logged, and returns it as it is when nothing is secret', () => {
    const body = { token: 't', nested: { ok: 1 } };
    const fields = { body, headers: { authorization: 'Bearer abc' } };
    const redacted = redactSecrets(fields);
    expect(redacted).toEqual({ body: { token: '[redacted]', nested: { ok: 1 } }, headers: { authorization: '[redacted]' } });
    expect(fields.body.token).toBe('t');
    expect(fields.headers.authorization).toBe('Bearer abc');
    const plain = { city: 'Oslo', count: 2 };
    expect(redactSecrets(plain)).toBe(plain);
  });

  it('names a request and its tenant in every line of a child logger, as bindings, untouched', () => {
    const { logger, lines } = capture();
    const child = logger.child({ reqId: 'r1' });
    child.setBindings({ tenantId: 't1' });
    child.warn({ key: 'k' }, 'child line');
    expect(lines()[0]).toMatchObject({ reqId: 'r1', tenantId: 't1', key: '[redacted]', msg: 'child line' });
  });
});

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
