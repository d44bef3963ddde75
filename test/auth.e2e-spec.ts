import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { DataSource } from 'typeorm';
import { BEARER_PROBLEMS, BearerProblem } from '../src/auth/bearer-problem';
import { admin, createTenant, gateway, TestTenant } from './support/factories';
import { call } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

describe('authentication (spec 5, contract "Token exchange")', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await startTestApp();
  });
  afterAll(() => testApp.close());
  beforeEach(async () => {
    tenant = await createTenant(testApp);
  });

  const exchange = (body: unknown) => gateway(testApp, 'POST', '/token/exchange', { body });
  const sign = (claims: object, options: jwt.SignOptions = {}, secret: string = testApp.config.jwt.secret) =>
    jwt.sign({ sub: tenant.apiTokenId, tenant_id: tenant.tenantId, jti: randomUUID(), ...claims }, secret, {
      algorithm: 'HS256',
      issuer: 'action-gateway',
      audience: 'action-gateway',
      expiresIn: 3600,
      ...options,
    });

  describe('POST /token/exchange', () => {
    it('answers 200 with the spec body and a JWT carrying the contract claims', async () => {
      const response = await exchange({ api_token: tenant.apiToken });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['expires_in', 'jwt_token', 'token_type']);
      expect(response.body.token_type).toBe('Bearer');
      expect(response.body.expires_in).toBe(86400);
      expect(response.headers.get('cache-control')).toBe('no-store'); // the answer carries a secret
      const decoded = jwt.decode(response.body.jwt_token, { complete: true })!;
      expect(decoded.header.alg).toBe('HS256');
      const claims = decoded.payload as jwt.JwtPayload;
      expect(claims).toMatchObject({ sub: tenant.apiTokenId, tenant_id: tenant.tenantId, iss: 'action-gateway', aud: 'action-gateway' });
      expect(claims.exp! - claims.iat!).toBe(86400);
      expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
      expect(jwt.verify(response.body.jwt_token, testApp.config.jwt.secret, { algorithms: ['HS256'] })).toBeTruthy();
    });

    it('records when the API token was last used', async () => {
      const before = (await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/api-tokens`)).body.api_tokens[0];
      await exchange({ api_token: tenant.apiToken });
      const after = (await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/api-tokens`)).body.api_tokens[0];
      expect(Date.parse(after.last_used_at)).toBeGreaterThanOrEqual(Date.parse(before.last_used_at));
      expect(after.last_used_at).toMatch(/Z$/);
    });

    it('stores only a SHA-256 hash of the API token', async () => {
      const rows = await testApp.app.get(DataSource).query('SELECT * FROM api_tokens WHERE id = $1', [tenant.apiTokenId]);
      expect(JSON.stringify(rows)).not.toContain(tenant.apiToken);
      expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(tenant.apiToken).toMatch(/^agw_[A-Za-z0-9_-]{43}$/);
    });

    it.each([
      [{}, 'api_token: is required'],
      [{ api_token: 42 }, 'api_token: must be a string'],
      [{ api_token: null }, 'api_token: is required'],
      [[], 'body: must be a JSON object'],
      ['agw_x', 'body: must be a JSON object'],
    ])('gives 400 Invalid request for %j', async (body, details) => {
      const response = await exchange(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'Invalid request', details });
    });

    it.each(['agw_unknown', '', 'not-even-prefixed', 'x'.repeat(512), `agw_${'y'.repeat(5000)}`])('gives 401 Invalid API token for an unknown token %#', async (apiToken) => {
      const response = await exchange({ api_token: apiToken });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'Invalid API token' });
    });

    it('gives 401 Invalid API token for a revoked token', async () => {
      expect((await admin(testApp, 'DELETE', `/tenants/${tenant.tenantId}/api-tokens/${tenant.apiTokenId}`)).status).toBe(204);
      const response = await exchange({ api_token: tenant.apiToken });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'Invalid API token' });
    });

    it('gives 401 Invalid API token for an expired token', async () => {
      await testApp.app.get(DataSource).query(`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [tenant.apiTokenId]);
      const response = await exchange({ api_token: tenant.apiToken });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'Invalid API token' });
    });

    it('gives 401 Invalid API token when the tenant is disabled, and works again once re-enabled', async () => {
      await admin(testApp, 'PATCH', `/tenants/${tenant.tenantId}`, { status: 'disabled' });
      expect((await exchange({ api_token: tenant.apiToken })).body).toEqual({ error: 'Invalid API token' });
      await admin(testApp, 'PATCH', `/tenants/${tenant.tenantId}`, { status: 'active' });
      expect((await exchange({ api_token: tenant.apiToken })).status).toBe(200);
    });
  });

  describe('bearer tokens', () => {
    /** 401 Invalid token (the body exactly the contract's), the challenge saying which mistake `problem` is. */
    const expectInvalid = async (headers: Record<string, string>, problem?: BearerProblem) => {
      const response = await gateway(testApp, 'GET', '/actions', { headers });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'Invalid token' });
      // RFC 6750: a 401 names the scheme; a token that was sent and refused is also invalid_token, with a description.
      const challenge = 'Bearer realm="action-gateway"';
      expect(response.headers.get('www-authenticate')).toBe(
        problem === undefined ? challenge : `${challenge}, error="invalid_token", error_description="${BEARER_PROBLEMS[problem]}"`,
      );
    };

    it('accepts the exchanged token', async () => {
      expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt })).status).toBe(200);
      // RFC 6750: the scheme in any case, then one or more spaces.
      for (const authorization of [`bearer ${tenant.jwt}`, `BEARER   ${tenant.jwt}`]) {
        expect((await gateway(testApp, 'GET', '/actions', { headers: { authorization } })).status).toBe(200);
      }
    });

    it('accepts a token the test signs with the service secret (the checks below are not vacuous)', async () => {
      expect((await gateway(testApp, 'GET', '/actions', { token: sign({}) })).status).toBe(200);
    });

    it.each<[string, Record<string, string>, BearerProblem | undefined]>([
      ['no Authorization header', {}, undefined],
      ['an empty bearer', { authorization: 'Bearer ' }, 'empty'],
      ['another scheme', { authorization: 'Basic dXNlcjpwdw==' }, 'scheme'],
      ['garbage', { authorization: 'Bearer not.a.jwt' }, 'not_jwt'],
      ['garbage of no JWT shape', { authorization: 'Bearer not-a-jwt' }, 'not_jwt'],
    ])('refuses %s', async (_, headers, problem) => {
      await expectInvalid(headers, problem);
    });

    it('says an API token must be exchanged first, whether it exists or not, with or without the Bearer scheme', async () => {
      const made = 'agw_' + 'x'.repeat(43);
      for (const apiToken of [tenant.apiToken, made]) {
        await expectInvalid({ authorization: `Bearer ${apiToken}` }, 'api_token');
        await expectInvalid({ authorization: apiToken }, 'api_token_without_scheme');
      }
      const response = await gateway(testApp, 'GET', '/actions', { headers: { authorization: `Bearer ${tenant.apiToken}` } });
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer realm="action-gateway", error="invalid_token", error_description="This is an API token (agw_...): exchange it for a bearer token at POST /api/v1/gateway/token/exchange first"',
      );
    });

    it('says the scheme is missing before a JWT, and that a JWT cut short is not whole or does not verify', async () => {
      await expectInvalid({ authorization: tenant.jwt }, 'scheme');
      await expectInvalid({ authorization: `Bearer ${tenant.jwt} extra` }, 'trailing');
      const [header, payload, signature] = tenant.jwt.split('.');
      await expectInvalid({ authorization: `Bearer ${header}.${payload}` }, 'not_jwt');
      await expectInvalid({ authorization: `Bearer ${header}.${payload.slice(0, 20)}` }, 'not_jwt');
      await expectInvalid({ authorization: `Bearer ${header}.${payload}.${signature.slice(0, 30)}` }, 'signature');
      await expectInvalid({ authorization: `Bearer ${header}.${payload}.` }, 'signature');
      await expectInvalid({ authorization: `Bearer ${header}.${payload.slice(0, -7)}.${signature}` }, 'not_jwt');
    });

    it('refuses alg "none"', async () => {
      const unsigned = jwt.sign({ sub: tenant.apiTokenId, tenant_id: tenant.tenantId, iss: 'action-gateway', aud: 'action-gateway' }, '', {
        algorithm: 'none',
      });
      await expectInvalid({ authorization: `Bearer ${unsigned}` }, 'signature');
    });

    it('refuses a token signed with a foreign key', async () => {
      await expectInvalid({ authorization: `Bearer ${sign({}, {}, 'another-secret-that-is-long-enough-0123456789')}` }, 'signature');
    });

    it('refuses another HMAC algorithm with the right key (the algorithm is pinned)', async () => {
      await expectInvalid({ authorization: `Bearer ${sign({}, { algorithm: 'HS512' })}` }, 'foreign');
    });

    it('refuses an expired token', async () => {
      const expired = jwt.sign(
        { sub: tenant.apiTokenId, tenant_id: tenant.tenantId, iat: Math.floor(Date.now() / 1000) - 90_000, exp: Math.floor(Date.now() / 1000) - 10 },
        testApp.config.jwt.secret,
        { algorithm: 'HS256', issuer: 'action-gateway', audience: 'action-gateway' },
      );
      await expectInvalid({ authorization: `Bearer ${expired}` }, 'expired');
    });

    it('refuses a token that expires after it was accepted (a token verified once is remembered, its expiry is not)', async () => {
      const shortLived = sign({}, { expiresIn: 60 });
      expect((await gateway(testApp, 'GET', '/actions', { token: shortLived })).status).toBe(200);
      expect((await gateway(testApp, 'GET', '/actions', { token: shortLived })).status).toBe(200);
      // Its expiry passes: the clock (Date.now, which the remembered tokens and jsonwebtoken read; the app runs in
      // this process) moved a second past it rather than waited for, so a busy machine cannot make the two
      // requests above outlast the token.
      const { exp } = jwt.decode(shortLived) as { exp: number };
      const now = Date.now.bind(Date);
      const later = jest.spyOn(Date, 'now').mockImplementation(() => Math.max(now(), exp * 1000 + 1_000));
      try {
        await expectInvalid({ authorization: `Bearer ${shortLived}` }, 'expired');
      } finally {
        later.mockRestore();
      }
    });

    it('refuses a remembered token with its signature changed, and its payload re-signed with another key', async () => {
      const token = sign({});
      expect((await gateway(testApp, 'GET', '/actions', { token })).status).toBe(200);
      const [header, payload, signature] = token.split('.');
      const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
      await expectInvalid({ authorization: `Bearer ${header}.${payload}.${flipped}` }, 'signature');
      const claims = jwt.decode(token) as object;
      await expectInvalid({ authorization: `Bearer ${jwt.sign(claims, 'another-secret-that-is-long-enough-0123456789', { algorithm: 'HS256' })}` }, 'signature');
    });

    it.each([
      ['a wrong issuer', { issuer: 'someone-else' }],
      ['a wrong audience', { audience: 'someone-else' }],
    ])('refuses %s', async (_, options) => {
      await expectInvalid({ authorization: `Bearer ${sign({}, options)}` }, 'foreign');
    });

    it('refuses a token whose tenant claim does not match its API token', async () => {
      const other = await createTenant(testApp);
      await expectInvalid({ authorization: `Bearer ${sign({ tenant_id: other.tenantId })}` }, 'no_longer_valid');
    });

    it('refuses a token without an exp claim', async () => {
      const forever = jwt.sign({ sub: tenant.apiTokenId, tenant_id: tenant.tenantId }, testApp.config.jwt.secret, {
        algorithm: 'HS256',
        issuer: 'action-gateway',
        audience: 'action-gateway',
      });
      await expectInvalid({ authorization: `Bearer ${forever}` }, 'foreign');
    });

    it('stops working once its API token is revoked', async () => {
      expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt })).status).toBe(200);
      await admin(testApp, 'DELETE', `/tenants/${tenant.tenantId}/api-tokens/${tenant.apiTokenId}`);
      await expectInvalid({ authorization: `Bearer ${tenant.jwt}` }, 'no_longer_valid');
    });

    it('stops working while its tenant is disabled', async () => {
      expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt })).status).toBe(200);
      await admin(testApp, 'PATCH', `/tenants/${tenant.tenantId}`, { status: 'disabled' });
      await expectInvalid({ authorization: `Bearer ${tenant.jwt}` }, 'no_longer_valid');
      await admin(testApp, 'PATCH', `/tenants/${tenant.tenantId}`, { status: 'active' });
      expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt })).status).toBe(200);
    });

    it('is not accepted by the management API, and the admin key is not accepted by the gateway, which says it is the admin key', async () => {
      const asTenant = await gateway(testApp, 'GET', '/actions', { token: testApp.config.adminApiKey });
      expect(asTenant.status).toBe(401);
      expect(asTenant.body).toEqual({ error: 'Invalid token' });
      expect(asTenant.headers.get('www-authenticate')).toBe(
        'Bearer realm="action-gateway", error="invalid_token", error_description="This is the admin key (ADMIN_API_KEY), which only the management API ' +
          '(/api/v1/admin) takes: the gateway API takes the bearer token that POST /api/v1/gateway/token/exchange gives for an API token"',
      );
    });

    it('compares a token with the admin key only while the address has admin-key guesses left (ADMIN_KEY_FAILURES_PER_MINUTE)', async () => {
      const limited = await startTestApp({ env: { ADMIN_KEY_FAILURES_PER_MINUTE: '3' } });
      try {
        const description = async (token: string) =>
          (await gateway(limited, 'GET', '/actions', { token })).headers.get('www-authenticate')?.replace(/^.*error_description="([^"]*)"$/, '$1');
        expect(await description(limited.config.adminApiKey)).toBe(BEARER_PROBLEMS.admin_key);
        expect(await description('guess-1')).toBe(BEARER_PROBLEMS.not_jwt);
        expect(await description('guess-2')).toBe(BEARER_PROBLEMS.not_jwt);
        // Each comparison counted: the key itself is now only "not a whole JWT", and the management API's guesses are spent too.
        expect(await description(limited.config.adminApiKey)).toBe(BEARER_PROBLEMS.not_jwt);
        const guess = await call(limited.baseUrl, 'GET', '/api/v1/admin/tenants', { token: 'guess-3' });
        expect([guess.status, guess.body]).toEqual([429, { error: 'Rate limit exceeded' }]);
        expect((await call(limited.baseUrl, 'GET', '/api/v1/admin/tenants', { token: limited.config.adminApiKey })).status).toBe(200);
      } finally {
        await limited.close();
      }
    });
  });
});
