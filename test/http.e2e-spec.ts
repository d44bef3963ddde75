import { request as httpRequest } from 'node:http';
import { RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ApplicationConfig, DiscoveryService, MetadataScanner } from '@nestjs/core';
import { JsonBodyInterceptor } from '../src/common/json-body.interceptor';
import { actionBody, createTenant, gateway, TestTenant } from './support/factories';
import { call } from './support/http';
import { Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

/** A JSON object of exactly `size` bytes. */
const jsonOfSize = (size: number) => {
  const head = '{"name":"sized","pad":"';
  return head + 'a'.repeat(size - head.length - 2) + '"}';
};

describe('HTTP conventions (contract "Conventions for every response")', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await startTestApp();
    tenant = await createTenant(testApp);
  });
  afterAll(() => testApp.close());

  it('parses bodies after the guards on every route but GET and HEAD, which go through no interceptor at all', () => {
    // A global interceptor would put every read through Nest's chain of Observables (docs/benchmarks.md).
    const global = testApp.app.get(ApplicationConfig);
    expect([global.getGlobalInterceptors(), global.getGlobalRequestInterceptors()]).toEqual([[], []]);
    const scanner = new MetadataScanner();
    const bodiless: string[] = [];
    const bodied: string[] = [];
    for (const { metatype, name } of testApp.app.get(DiscoveryService).getControllers()) {
      const prototype = (metatype as { prototype: Record<string, object> }).prototype;
      for (const method of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[method];
        const verb = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (verb === undefined) continue;
        const interceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];
        if (verb === RequestMethod.GET || verb === RequestMethod.HEAD) {
          expect([`${name}.${method}`, interceptors]).toEqual([`${name}.${method}`, []]);
          bodiless.push(method);
        } else {
          expect([`${name}.${method}`, interceptors.filter((i) => i instanceof JsonBodyInterceptor).length]).toEqual([`${name}.${method}`, 1]);
          bodied.push(method);
        }
      }
    }
    // Enough routes of each kind that the walk above saw the whole application.
    expect(bodiless.length).toBeGreaterThan(20);
    expect(bodied.length).toBeGreaterThan(20);
  });

  it('answers an unknown route with 404 Not found', async () => {
    // `/` leads to the console outside production (test/quickstart.e2e-spec), and is unknown in production.
    for (const path of ['/nothing', '/api/v1/gateway', '/api/v1/gateway/nothing', '/api/v2/gateway/actions']) {
      const response = await call(testApp.baseUrl, 'GET', path, { token: tenant.jwt });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'Not found' });
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
  });

  it('answers a wrong method on a known route with 405 Method not allowed and Allow', async () => {
    const collection = await gateway(testApp, 'PATCH', '/actions', { token: tenant.jwt });
    expect(collection.status).toBe(405);
    expect(collection.body).toEqual({ error: 'Method not allowed' });
    expect(collection.headers.get('allow')).toBe('GET, HEAD, POST');
    const exchange = await gateway(testApp, 'GET', '/token/exchange');
    expect(exchange.status).toBe(405);
    expect(exchange.body).toEqual({ error: 'Method not allowed' });
    const item = await gateway(testApp, 'POST', '/actions/some_name', { token: tenant.jwt, body: {} });
    expect(item.status).toBe(405);
    expect(item.headers.get('allow')).toBe('DELETE, GET, HEAD, PUT');
    // However long the name: the route is known whatever its parameter (the router takes up to 16,384 characters).
    for (const name of ['a'.repeat(101), 'a'.repeat(5_000)]) {
      const long = await gateway(testApp, 'POST', `/actions/${name}`, { token: tenant.jwt, body: {} });
      expect([long.status, long.body, long.headers.get('allow')]).toEqual([405, { error: 'Method not allowed' }, 'DELETE, GET, HEAD, PUT']);
      const execute = await gateway(testApp, 'GET', `/actions/${name}/execute`, { token: tenant.jwt });
      expect([execute.status, execute.headers.get('allow')]).toEqual([405, 'POST']);
    }
  });

  it('reads a body of exactly 1 MB and refuses one byte more with 413', async () => {
    const limit = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, raw: jsonOfSize(1_048_576) });
    expect(limit.status).toBe(400); // parsed, then refused by validation: the size itself was fine
    expect(limit.body.error).toBe('Invalid request');

    const over = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, raw: jsonOfSize(1_048_577) });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ error: 'Payload too large' });
  });

  it.each([
    ['malformed JSON', '{"name": ', 'body: malformed JSON'],
    ['a JSON array', '[1,2]', 'body: must be a JSON object'],
    ['a JSON string', '"text"', 'body: must be a JSON object'],
    ['JSON null', 'null', 'body: must be a JSON object'],
    ['an empty body', '', 'body: must be a JSON object'],
    ['a __proto__ key', '{"__proto__":{"admin":true},"name":"x"}', 'body: malformed JSON'],
    ['a constructor.prototype key', '{"constructor":{"prototype":{"admin":true}}}', 'body: malformed JSON'],
  ])('answers %s with 400 Invalid request and details', async (_, raw, details) => {
    const response = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, raw });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Invalid request');
    expect(response.body.details).toContain(details);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/merge-patch+json'])('answers a %s body with 400', async (type) => {
    const response = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, raw: 'name=x', headers: { 'content-type': type } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid request', details: 'body: Content-Type must be application/json' });
  });

  it('accepts application/json with a charset, and a JSON body with no Content-Type at all', async () => {
    const receiver = await Receiver.start();
    try {
      for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
        const response = await gateway(testApp, 'POST', '/actions', {
          token: tenant.jwt,
          raw: JSON.stringify(actionBody(receiver.url())),
          headers: { 'content-type': type },
        });
        expect([type, response.status]).toEqual([type, 201]);
      }
      // As Python's requests.post(url, data=json.dumps(...)) sends it: no Content-Type header.
      const body = JSON.stringify(actionBody(receiver.url()));
      const bare = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = httpRequest(
          `${testApp.baseUrl}/api/v1/gateway/actions`,
          { method: 'POST', headers: { authorization: `Bearer ${tenant.jwt}`, 'content-length': Buffer.byteLength(body) } },
          (response) => {
            let text = '';
            response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: response.statusCode ?? 0, text }));
          },
        );
        request.on('error', reject).end(body);
      });
      expect([bare.status, JSON.parse(bare.text).action.name]).toEqual([201, JSON.parse(body).name]);
    } finally {
      await receiver.stop();
    }
  });

  describe('X-Request-Id', () => {
    it('echoes a valid incoming id, on success and on errors', async () => {
      for (const path of ['/api/v1/gateway/actions', '/nowhere']) {
        const response = await call(testApp.baseUrl, 'GET', path, { token: tenant.jwt, headers: { 'x-request-id': 'trace-abc.123:4' } });
        expect(response.headers.get('x-request-id')).toBe('trace-abc.123:4');
      }
    });

    it('generates one when none, or an unusable one, is sent', async () => {
      const none = await gateway(testApp, 'GET', '/actions', { token: tenant.jwt });
      expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const bad = await gateway(testApp, 'GET', '/actions', { token: tenant.jwt, headers: { 'x-request-id': 'has spaces and "quotes"' } });
      expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const long = await gateway(testApp, 'GET', '/actions', { token: tenant.jwt, headers: { 'x-request-id': 'a'.repeat(129) } });
      expect(long.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});

describe('rate limits (contract "Rate limits")', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '5', TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE: '1000000' } });
  });
  afterAll(() => testApp.close());

  it('gives each tenant one budget across all routes, with the contract headers, then 429 with Retry-After', async () => {
    const tenant = await createTenant(testApp);
    const paths = ['/actions', '/actions/missing', '/actions', '/actions/other', '/actions'];
    for (const [index, path] of paths.entries()) {
      const response = await gateway(testApp, 'GET', path, { token: tenant.jwt });
      expect(response.status).not.toBe(429);
      expect(response.headers.get('x-ratelimit-limit')).toBe('5');
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(4 - index));
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(3500);
      expect(reset).toBeLessThanOrEqual(3600);
    }
    const limited = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: {} });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'Rate limit exceeded' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);

    const other = await createTenant(testApp);
    expect((await gateway(testApp, 'GET', '/actions', { token: other.jwt })).status).toBe(200);
  });

  it('does not count requests that fail authentication against any tenant', async () => {
    const tenant = await createTenant(testApp);
    for (let i = 0; i < 10; i++) expect((await gateway(testApp, 'GET', '/actions', { token: 'nope' })).status).toBe(401);
    expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt })).headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('limits the token exchange per client address', async () => {
    const limited = await startTestApp({ env: { TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await gateway(limited, 'POST', '/token/exchange', { body: { api_token: 'agw_guess' } })).status).toBe(401);
      }
      const response = await gateway(limited, 'POST', '/token/exchange', { body: { api_token: 'agw_guess' } });
      expect(response.status).toBe(429);
      expect(response.body).toEqual({ error: 'Rate limit exceeded' });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    } finally {
      await limited.close();
    }
  });
});

describe('order and shape of failures', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '3' } });
    tenant = await createTenant(testApp);
  });
  afterAll(() => testApp.close());

  it.each([
    ['POST', '/actions', '{"name": '],
    ['POST', '/actions', '{"__proto__":{}}'],
    ['PUT', '/actions/x', '{'],
  ])('checks the bearer token (401) before reading the body of %s %s', async (method, path, raw) => {
    const response = await gateway(testApp, method, path, { raw });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Invalid token' });
    const typed = await gateway(testApp, method, path, { raw: 'x=1', headers: { 'content-type': 'text/plain' } });
    expect(typed.status).toBe(401);
  });

  it('refuses a body over 1 MB with 413 before authenticating (its bytes are read first)', async () => {
    const response = await gateway(testApp, 'POST', '/actions', { raw: jsonOfSize(1_048_577) });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: 'Payload too large' });
  });

  it('refuses a body that is not valid UTF-8 instead of storing replacement characters', async () => {
    const raw = Buffer.concat([Buffer.from('{"name":"x","description":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const response = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, raw });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid request', details: 'body: not valid UTF-8' });
  });

  it('refuses numbers too large for a double instead of turning them into Infinity', async () => {
    const response = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, raw: '{"name":"x","json_schema":{"maximum":1e400}}' });
    expect(response.status).toBe(400);
    expect(response.body.details).toContain('number out of range');
  });

  it('answers a malformed percent-encoding and a trailing slash as unknown routes, with the request id', async () => {
    for (const path of ['/api/v1/gateway/actions/%ZZ', '/api/v1/gateway/actions/', '/api/v1/gateway/actions/abc/']) {
      const response = await call(testApp.baseUrl, 'GET', path, { token: tenant.jwt, headers: { 'x-request-id': 'bad-url-1' } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'Not found' });
      expect(response.headers.get('x-request-id')).toBe('bad-url-1');
    }
  });

  it('carries the request id on every kind of error response', async () => {
    const headers = { 'x-request-id': 'err-trace-7' };
    const responses = [
      await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, raw: '{', headers }), // 400
      await gateway(testApp, 'GET', '/actions', { headers }), // 401
      await gateway(testApp, 'PATCH', '/actions', { token: tenant.jwt, headers }), // 405
      await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, raw: jsonOfSize(1_048_577), headers }), // 413
    ];
    expect(responses.map((response) => response.status)).toEqual([400, 401, 405, 413]);
    for (const response of responses) expect(response.headers.get('x-request-id')).toBe('err-trace-7');
  });

  it('carries the rate-limit headers and the request id on a 429', async () => {
    const limited = await createTenant(testApp);
    for (let i = 0; i < 3; i++) await gateway(testApp, 'GET', '/actions', { token: limited.jwt });
    const response = await gateway(testApp, 'GET', '/actions', { token: limited.jwt, headers: { 'x-request-id': 'limited-1' } });
    expect(response.status).toBe(429);
    expect(response.headers.get('x-request-id')).toBe('limited-1');
    expect(response.headers.get('x-ratelimit-limit')).toBe('3');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
