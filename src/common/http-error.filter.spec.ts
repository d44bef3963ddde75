import { ArgumentsHost, Logger } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { DomainError } from './domain.error';
import { HttpErrorFilter } from './http-error.filter';
import { RouteTable } from './route-table';

/** A feature's error, as the features define theirs (common depends on no feature, its specs neither). */
class GadgetNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor() {
    super('Gadget not found');
  }
}

/** A reply that records what the filter sends. */
function capture() {
  const sent: { status?: number; body?: string; headers: Record<string, string> } = { headers: {} };
  const reply = {
    sent: false,
    status(code: number) {
      sent.status = code;
      return reply;
    },
    headers(values: Record<string, string>) {
      Object.assign(sent.headers, values);
      return reply;
    },
    type() {
      return reply;
    },
    send(body: string) {
      sent.body = body;
      return reply;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => reply, getRequest: () => ({ id: 'r1', url: '/x' }) }) } as unknown as ArgumentsHost;
  return { sent, host };
}

describe('HttpErrorFilter', () => {
  const filter = new HttpErrorFilter(new RouteTable());
  // The filter's log lines are part of what it does: captured and checked here, not printed among passing tests.
  let logged: { error: jest.SpyInstance; warn: jest.SpyInstance };
  beforeEach(() => {
    logged = {
      error: jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined),
      warn: jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined),
    };
  });
  afterEach(() => jest.restoreAllMocks());

  it('answers an unexpected failure with a 500 that reveals nothing, and logs it with its stack', () => {
    const { sent, host } = capture();
    const failure = new TypeError("Cannot read properties of undefined (reading 'secret') at /srv/app.js:12");
    filter.catch(failure, host);
    expect(sent.status).toBe(500);
    expect(sent.body).toBe('{"error":"Internal server error"}');
    expect(logged.error).toHaveBeenCalledWith({ err: failure, reqId: 'r1' }, 'unexpected failure');
  });

  it('does not leak SQL from a failed query', () => {
    const { sent, host } = capture();
    filter.catch(new QueryFailedError('SELECT * FROM actions WHERE x = $1', ['x'], Object.assign(new Error('syntax error'), { code: '42601' })), host);
    expect(sent.status).toBe(500);
    expect(sent.body).toBe('{"error":"Internal server error"}');
  });

  it('answers a lost database with 503 Service unavailable, logged as a warning without a stack', () => {
    const { sent, host } = capture();
    filter.catch(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), host);
    expect(sent.status).toBe(503);
    expect(sent.body).toBe('{"error":"Service unavailable"}');
    expect(logged.warn).toHaveBeenCalledWith(
      { reqId: 'r1', cause: { type: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:5432', code: 'ECONNREFUSED' } },
      'database unavailable',
    );
    expect(logged.error).not.toHaveBeenCalled();
  });

  it('answers 503 when the schema lacks a table (pending migrations), and says so in the log', () => {
    const { sent, host } = capture();
    const missing = Object.assign(new Error('relation "tenants" does not exist'), { code: '42P01' });
    filter.catch(new QueryFailedError('SELECT 1 FROM tenants', [], missing), host);
    expect(sent.status).toBe(503);
    expect(sent.body).toBe('{"error":"Service unavailable"}');
    expect(logged.warn).toHaveBeenCalledWith(
      { reqId: 'r1', cause: { type: 'QueryFailedError', message: 'relation "tenants" does not exist', code: '42P01' } },
      'database schema missing what this build needs: pending migrations? (npm run migration:run)',
    );
  });

  it('maps a domain error by its kind', () => {
    const { sent, host } = capture();
    filter.catch(new GadgetNotFoundError(), host);
    expect(sent.status).toBe(404);
    expect(sent.body).toBe('{"error":"Gadget not found"}');
  });
});
