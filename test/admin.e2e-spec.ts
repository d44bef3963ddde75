import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { ADMIN_KEY_PROBLEMS, AdminKeyProblem } from '../src/console-auth/admin-key-problem';
import { actionBody, admin, createTenant, gateway } from './support/factories';
import { call } from './support/http';
import { Receiver } from './support/receiver';
import { listedTenantsAmong } from './support/tenant-list';
import { startTestApp, TestApp } from './support/test-app';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('management API (contract "Management API")', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });
  afterAll(() => testApp.close());

  describe('authorization', () => {
    const challenge = 'Bearer realm="action-gateway-admin"';
    it.each<[string, Record<string, string>, AdminKeyProblem | undefined]>([
      ['no header', {}, undefined],
      ['a wrong key', { authorization: 'Bearer not-the-admin-key' }, 'wrong_key'],
      ['a tenant bearer token', { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x' }, 'tenant_jwt'],
      ['a tenant bearer token without the scheme', { authorization: 'eyJhbGciOiJIUzI1NiJ9.e30.x' }, 'tenant_jwt'],
      ['an API token', { authorization: `Bearer agw_${'x'.repeat(43)}` }, 'api_token'],
      ['a portal link token', { authorization: `Bearer agwp_${'x'.repeat(43)}` }, 'portal_link'],
      ['another scheme', { authorization: 'Basic dXNlcjpwdw==' }, 'scheme'],
      ['an empty bearer', { authorization: 'Bearer ' }, 'empty'],
    ])('refuses %s with 401 Invalid token and a challenge saying which mistake it was', async (_, headers, problem) => {
      const response = await call(testApp.baseUrl, 'GET', '/api/v1/admin/tenants', { headers });
      expect(response.status).toBe(401);
      // The contract's body, exactly; the hint is in the header, as the gateway API gives it.
      expect(response.body).toEqual({ error: 'Invalid token' });
      expect(response.headers.get('www-authenticate')).toBe(
        problem === undefined ? challenge : `${challenge}, error="invalid_token", error_description="${ADMIN_KEY_PROBLEMS[problem]}"`,
      );
    });

    it('tells a tenant\'s real bearer token, and the key without its scheme, what the management API takes', async () => {
      const tenant = await createTenant(testApp);
      const asTenant = await call(testApp.baseUrl, 'GET', `/api/v1/admin/tenants/${tenant.tenantId}`, { token: tenant.jwt });
      expect([asTenant.status, asTenant.body]).toEqual([401, { error: 'Invalid token' }]);
      expect(asTenant.headers.get('www-authenticate')).toBe(
        `${challenge}, error="invalid_token", error_description="This is a tenant's bearer token (a JWT), which the gateway API (/api/v1/gateway) takes: ` +
          `the management API takes the admin key, 'Bearer <ADMIN_API_KEY>'"`,
      );
      const bare = await call(testApp.baseUrl, 'GET', '/api/v1/admin/tenants', { headers: { authorization: testApp.config.adminApiKey } });
      expect(bare.headers.get('www-authenticate')).toBe(`${challenge}, error="invalid_token", error_description="${ADMIN_KEY_PROBLEMS.scheme}"`);
    });

    it('takes the key with the scheme in any case and one or more spaces (RFC 6750)', async () => {
      for (const authorization of [`bearer ${testApp.config.adminApiKey}`, `BEARER  ${testApp.config.adminApiKey}`]) {
        expect((await call(testApp.baseUrl, 'GET', '/api/v1/admin/tenants', { headers: { authorization } })).status).toBe(200);
      }
      const spaceAfter = await call(testApp.baseUrl, 'GET', '/api/v1/admin/tenants', { headers: { authorization: `Bearer ${testApp.config.adminApiKey} x` } });
      expect([spaceAfter.status, spaceAfter.body]).toEqual([401, { error: 'Invalid token' }]);
    });
  });

  describe('tenants', () => {
    it('creates, lists, reads and updates a tenant', async () => {
      const name = `acme-${randomUUID()}`;
      const created = await admin(testApp, 'POST', '/tenants', { name, id: 'ignored' });
      expect(created.status).toBe(201);
      const tenant = created.body.tenant;
      expect(Object.keys(tenant).sort()).toEqual(['created_at', 'id', 'name', 'status', 'updated_at']);
      expect(tenant).toMatchObject({ name, status: 'active' });
      expect(tenant.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(tenant.created_at).toMatch(ISO_MS);

      const list = await admin(testApp, 'GET', '/tenants');
      expect(list.status).toBe(200);
      // Listed as created (other suites on a shared database may have pushed it past the first page meanwhile).
      expect(await listedTenantsAmong(testApp, [tenant.id])).toEqual([tenant]);

      expect((await admin(testApp, 'GET', `/tenants/${tenant.id}`)).body).toEqual({ tenant });

      const renamed = await admin(testApp, 'PATCH', `/tenants/${tenant.id}`, { name: 'Acme Ltd', status: 'disabled' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.tenant).toMatchObject({ id: tenant.id, name: 'Acme Ltd', status: 'disabled', created_at: tenant.created_at });
      expect((await admin(testApp, 'GET', `/tenants/${tenant.id}`)).body.tenant.status).toBe('disabled');
      // A PATCH that changes nothing (no field, or the values it has) leaves the tenant as it was, updated_at too.
      for (const unchanged of [{}, { name: 'Acme Ltd' }, { status: 'disabled' }]) {
        const response = await admin(testApp, 'PATCH', `/tenants/${tenant.id}`, unchanged);
        expect([response.status, response.body]).toEqual([200, { tenant: renamed.body.tenant }]);
      }
    });

    it('keeps both of two concurrent PATCHes of different fields: a rename never undoes a disable', async () => {
      for (let round = 0; round < 10; round++) {
        const tenant = (await admin(testApp, 'POST', '/tenants', { name: `race-${round}` })).body.tenant;
        const [renamed, disabled] = await Promise.all([
          admin(testApp, 'PATCH', `/tenants/${tenant.id}`, { name: `race-${round}-renamed` }),
          admin(testApp, 'PATCH', `/tenants/${tenant.id}`, { status: 'disabled' }),
        ]);
        expect([renamed.status, disabled.status]).toEqual([200, 200]);
        expect((await admin(testApp, 'GET', `/tenants/${tenant.id}`)).body.tenant).toMatchObject({ name: `race-${round}-renamed`, status: 'disabled' });
      }
    });

    it.each([
      ['POST', '/tenants', {}, 'name: is required'],
      ['POST', '/tenants', { name: '' }, 'name: must be 1 to 200 characters'],
      ['POST', '/tenants', { name: 7 }, 'name: must be a string'],
      ['POST', '/tenants', { name: '   ' }, 'name: must not be blank'],
    ])('gives 400 for %s %s %j', async (method, path, body, details) => {
      const response = await admin(testApp, method, path, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'Invalid request', details });
    });

    it('refuses a blank name on PATCH too, and keeps the name it had', async () => {
      const created = await admin(testApp, 'POST', '/tenants', { name: ' Acme ' });
      expect([created.status, created.body.tenant.name]).toEqual([201, ' Acme ']);
      const response = await admin(testApp, 'PATCH', `/tenants/${created.body.tenant.id}`, { name: '\n' });
      expect([response.status, response.body]).toEqual([400, { error: 'Invalid request', details: 'name: must not be blank' }]);
      expect((await admin(testApp, 'GET', `/tenants/${created.body.tenant.id}`)).body.tenant.name).toBe(' Acme ');
    });

    it('refuses an unknown status', async () => {
      const { tenantId } = await createTenant(testApp);
      const response = await admin(testApp, 'PATCH', `/tenants/${tenantId}`, { status: 'deleted' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'Invalid request', details: 'status: must be "active" or "disabled"' });
    });

    it.each([
      ['GET', ''],
      ['PATCH', ''],
      ['POST', '/api-tokens'],
      ['GET', '/api-tokens'],
      ['POST', '/hmac-keys'],
      ['GET', '/hmac-keys'],
    ])('gives 404 Tenant not found for %s of an unknown tenant%s', async (method, suffix) => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const response = await admin(testApp, method, `/tenants/${id}${suffix}`, method === 'GET' ? undefined : { name: 'x' });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: 'Tenant not found' });
      }
    });
  });

  describe('API tokens', () => {
    it('shows the token once, then lists it without its value', async () => {
      const { tenantId } = await createTenant(testApp);
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const created = await admin(testApp, 'POST', `/tenants/${tenantId}/api-tokens`, { name: 'deploy bot', expires_at: expiresAt });
      expect(created.status).toBe(201);
      expect(created.headers.get('cache-control')).toBe('no-store'); // the answer carries a secret
      const token = created.body.api_token;
      expect(Object.keys(token).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at', 'token']);
      expect(token).toMatchObject({ name: 'deploy bot', expires_at: expiresAt, last_used_at: null, revoked_at: null });
      expect(token.token.startsWith(token.prefix)).toBe(true);
      expect(token.prefix).toMatch(/^agw_.{8}$/);
      // A leap day is a day; February 29 of a common year is not (above).
      const leap = await admin(testApp, 'POST', `/tenants/${tenantId}/api-tokens`, { name: 'leap', expires_at: '2032-02-29T12:00:00Z' });
      expect([leap.status, leap.body.api_token?.expires_at]).toEqual([201, '2032-02-29T12:00:00.000Z']);

      const list = await admin(testApp, 'GET', `/tenants/${tenantId}/api-tokens`);
      expect(list.headers.get('cache-control')).toBe('no-store'); // every API answer (issue 27)
      const listed = list.body.api_tokens.find((entry: { id: string }) => entry.id === token.id);
      const { token: _shownOnce, ...withoutValue } = token;
      expect(listed).toEqual(withoutValue);
      expect(JSON.stringify(list.body)).not.toContain(token.token);
    });

    it('revokes with 204; revoking again is 204 and keeps the first revoked_at; an unknown id is 404', async () => {
      const { tenantId, apiTokenId } = await createTenant(testApp);
      const revoked = await admin(testApp, 'DELETE', `/tenants/${tenantId}/api-tokens/${apiTokenId}`);
      expect(revoked.status).toBe(204);
      expect(revoked.text).toBe('');
      const listed = (await admin(testApp, 'GET', `/tenants/${tenantId}/api-tokens`)).body.api_tokens[0];
      expect(listed.revoked_at).toMatch(ISO_MS);
      // The token is still there (listed, revoked): a repeated DELETE, say a retry after a lost answer, succeeds
      // and changes nothing.
      const again = await admin(testApp, 'DELETE', `/tenants/${tenantId}/api-tokens/${apiTokenId}`);
      expect(again.status).toBe(204);
      expect(again.text).toBe('');
      expect((await admin(testApp, 'GET', `/tenants/${tenantId}/api-tokens`)).body.api_tokens[0]).toEqual(listed);
      for (const id of [randomUUID(), 'nope']) {
        const response = await admin(testApp, 'DELETE', `/tenants/${tenantId}/api-tokens/${id}`);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: 'API token not found' });
      }
    });

    it('does not let one tenant revoke another tenant\'s token', async () => {
      const owner = await createTenant(testApp);
      const other = await createTenant(testApp);
      const response = await admin(testApp, 'DELETE', `/tenants/${other.tenantId}/api-tokens/${owner.apiTokenId}`);
      expect(response.status).toBe(404);
      expect((await gateway(testApp, 'GET', '/actions', { token: owner.jwt })).status).toBe(200);
    });

    it.each([
      [{ name: 'x', expires_at: 'tomorrow' }, 'expires_at: must be an ISO 8601 date-time'],
      [{ name: 'x', expires_at: '2001-01-01T00:00:00Z' }, 'expires_at: must be in the future'],
      [{ name: 'x', expires_at: '2030-W01' }, 'expires_at: must be an ISO 8601 date-time'],
      [{ name: 'x', expires_at: '20300101' }, 'expires_at: must be an ISO 8601 date-time'],
      [{ name: 'x', expires_at: '2030-02-30T00:00:00Z' }, 'expires_at: must be an ISO 8601 date-time'],
      [{ name: 'x', expires_at: '2031-02-29T12:00:00Z' }, 'expires_at: must be an ISO 8601 date-time'],
      [{ name: 'x', expires_at: '2030-04-31T00:00:00+02:00' }, 'expires_at: must be an ISO 8601 date-time'],
      [{ name: '  \t\u00a0' }, 'name: must not be blank'],
      [{ name: 'a\uFE0F'.repeat(200) }, 'name: must be 1 to 200 characters'],
      [{}, 'name: is required'],
    ])('gives 400 for %j', async (body, details) => {
      const { tenantId } = await createTenant(testApp);
      const response = await admin(testApp, 'POST', `/tenants/${tenantId}/api-tokens`, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'Invalid request', details });
    });

    it('keeps a tenant to 100 usable tokens, even when asked concurrently; a revoked or expired one frees its place', async () => {
      const { tenantId } = await createTenant(testApp); // with one token already
      const create = (body: object = { name: 'more' }) => admin(testApp, 'POST', `/tenants/${tenantId}/api-tokens`, body);
      const answers = await Promise.all(Array.from({ length: 110 }, () => create()));
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(99);
      const refused = answers.filter((answer) => answer.status !== 201);
      expect(refused.map((answer) => [answer.status, answer.body])).toEqual(
        Array(11).fill([403, { error: 'api token limit reached: a tenant may have at most 100 usable API tokens' }]),
      );
      const tokens = (await admin(testApp, 'GET', `/tenants/${tenantId}/api-tokens`)).body.api_tokens;
      expect(tokens).toHaveLength(100);
      expect((await admin(testApp, 'DELETE', `/tenants/${tenantId}/api-tokens/${tokens[5].id}`)).status).toBe(204);
      expect((await create()).status).toBe(201);
      expect((await create()).status).toBe(403);
      // A token that has expired no longer counts.
      const database = testApp.app.get(DataSource);
      await database.query("UPDATE api_tokens SET expires_at = now() - interval '1 minute' WHERE id = $1", [tokens[6].id]);
      expect((await create()).status).toBe(201);
      // Other tenants are not affected.
      expect((await admin(testApp, 'POST', `/tenants/${(await createTenant(testApp)).tenantId}/api-tokens`, { name: 'x' })).status).toBe(201);
    });
  });

  describe('HMAC keys', () => {
    it('generates whsec_ keys shown once and stored encrypted; the newest active key is primary', async () => {
      const { tenantId, hmacKey: first } = await createTenant(testApp);
      expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(first.slice(6), 'base64')).toHaveLength(32);

      const second = await admin(testApp, 'POST', `/tenants/${tenantId}/hmac-keys`);
      expect(second.status).toBe(201);
      expect(second.headers.get('cache-control')).toBe('no-store'); // the answer carries a secret
      expect(Object.keys(second.body.hmac_key).sort()).toEqual(['created_at', 'id', 'key', 'primary', 'revoked_at']);
      expect(second.body.hmac_key.primary).toBe(true);

      const list = await admin(testApp, 'GET', `/tenants/${tenantId}/hmac-keys`);
      expect(list.body.hmac_keys.map((key: { primary: boolean }) => key.primary)).toEqual([true, false]);
      expect(JSON.stringify(list.body)).not.toContain('whsec_');

      const stored = await testApp.app.get(DataSource).query('SELECT key_ciphertext FROM hmac_keys WHERE tenant_id = $1', [tenantId]);
      const everything = JSON.stringify(stored);
      expect(everything).not.toContain(first);
      expect(everything).not.toContain(first.slice(6));
      expect(everything).not.toContain(second.body.hmac_key.key.slice(6));
    });

    it('signs the body with the primary key and the header with every active key; a revoked key signs nothing', async () => {
      const receiver = await Receiver.start();
      try {
        const tenant = await createTenant(testApp);
        const newer = (await admin(testApp, 'POST', `/tenants/${tenant.tenantId}/hmac-keys`)).body.hmac_key;

        await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) });
        let call = receiver.calls[receiver.calls.length - 1];
        const signedPart = (body: string) => body.slice(0, body.indexOf(',"signature"')) + '}';
        expect(JSON.parse(call.body).signature).toBe(createHmac('sha256', newer.key).update(signedPart(call.body)).digest('hex'));
        expect(String(call.headers['webhook-signature']).split(' ')).toHaveLength(2);
        for (const key of [tenant.hmacKey, newer.key]) {
          expect(new Webhook(key).verify(call.body, call.headers as Record<string, string>)).toBeTruthy();
        }

        expect((await admin(testApp, 'DELETE', `/tenants/${tenant.tenantId}/hmac-keys/${newer.id}`)).status).toBe(204);
        await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) });
        call = receiver.calls[receiver.calls.length - 1];
        expect(JSON.parse(call.body).signature).toBe(createHmac('sha256', tenant.hmacKey).update(signedPart(call.body)).digest('hex'));
        expect(String(call.headers['webhook-signature']).split(' ')).toHaveLength(1);
        expect(() => new Webhook(newer.key).verify(call.body, call.headers as Record<string, string>)).toThrow();
        expect(new Webhook(tenant.hmacKey).verify(call.body, call.headers as Record<string, string>)).toBeTruthy();

        const keys = (await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/hmac-keys`)).body.hmac_keys;
        expect(keys.find((key: { id: string }) => key.id === newer.id)).toMatchObject({ primary: false, revoked_at: expect.stringMatching(ISO_MS) });
        expect(keys.find((key: { id: string }) => key.id !== newer.id).primary).toBe(true);
      } finally {
        await receiver.stop();
      }
    });

    it('keeps a tenant to 10 active keys, even when asked concurrently; a revoked one frees its place', async () => {
      const { tenantId } = await createTenant(testApp); // with one key already
      const create = () => admin(testApp, 'POST', `/tenants/${tenantId}/hmac-keys`);
      const answers = await Promise.all(Array.from({ length: 15 }, () => create()));
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(9);
      expect(answers.filter((answer) => answer.status !== 201).map((answer) => [answer.status, answer.body])).toEqual(
        Array(6).fill([403, { error: 'hmac key limit reached: a tenant may have at most 10 active HMAC keys' }]),
      );
      const keys = (await admin(testApp, 'GET', `/tenants/${tenantId}/hmac-keys`)).body.hmac_keys;
      expect(keys).toHaveLength(10);
      expect((await admin(testApp, 'DELETE', `/tenants/${tenantId}/hmac-keys/${keys[3].id}`)).status).toBe(204);
      expect((await create()).status).toBe(201);
      expect((await create()).status).toBe(403);
    });

    it('revokes with 204; revoking again is 204 and keeps the first revoked_at', async () => {
      const { tenantId } = await createTenant(testApp);
      const key = (await admin(testApp, 'POST', `/tenants/${tenantId}/hmac-keys`)).body.hmac_key;
      const revoked = await admin(testApp, 'DELETE', `/tenants/${tenantId}/hmac-keys/${key.id}`);
      expect(revoked.status).toBe(204);
      expect(revoked.text).toBe('');
      const listed = (await admin(testApp, 'GET', `/tenants/${tenantId}/hmac-keys`)).body.hmac_keys;
      expect(listed.find((entry: { id: string }) => entry.id === key.id).revoked_at).toMatch(ISO_MS);
      const again = await admin(testApp, 'DELETE', `/tenants/${tenantId}/hmac-keys/${key.id}`);
      expect(again.status).toBe(204);
      expect(again.text).toBe('');
      expect((await admin(testApp, 'GET', `/tenants/${tenantId}/hmac-keys`)).body.hmac_keys).toEqual(listed);
    });

    it('gives 404 HMAC key not found for an unknown key or another tenant\'s key', async () => {
      const owner = await createTenant(testApp);
      const other = await createTenant(testApp);
      const ownerKeyId = (await admin(testApp, 'GET', `/tenants/${owner.tenantId}/hmac-keys`)).body.hmac_keys[0].id;
      for (const [tenantId, keyId] of [[other.tenantId, ownerKeyId], [owner.tenantId, randomUUID()], [owner.tenantId, 'x']]) {
        const response = await admin(testApp, 'DELETE', `/tenants/${tenantId}/hmac-keys/${keyId}`);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: 'HMAC key not found' });
      }
    });
  });
});
