import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../src/common/clock';
import { admin, createTenant } from './support/factories';
import { bareCall, call } from './support/http';
import { operatorSession, redeem, redeemPortalLink, sessionCookieOf, withSession } from './support/console-session';
import { startTestApp, testConfig, TestApp } from './support/test-app';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A clock the test moves forward. */
class MovableClock extends Clock {
  offsetMs = 0;
  override now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

describe('console sessions and portal links (issue 13)', () => {
  const clock = new MovableClock();
  let testApp: TestApp;
  let replica: TestApp;

  beforeAll(async () => {
    const config = await testConfig({ PUBLIC_URL: 'https://gateway.example.test' });
    testApp = await startTestApp({ config, override: (builder) => builder.overrideProvider(Clock).useValue(clock) });
    // A second replica on the same database and secrets (without PUBLIC_URL): sessions live in the database.
    replica = await startTestApp({ config: await testConfig({ ...secretsOf(testApp), ADMIN_API_KEY: config.adminApiKey }) });
  });
  afterAll(async () => {
    await replica?.close();
    await testApp?.close();
  });
  afterEach(() => {
    clock.offsetMs = 0;
  });

  const rows = (sql: string, parameters: unknown[]) => testApp.app.get(DataSource).query(sql, parameters);

  describe('operator sign-in', () => {
    it('refuses a wrong key with 401 and sets no cookie', async () => {
      const response = await call(testApp.baseUrl, 'POST', '/api/v1/admin/session', { body: { admin_api_key: 'not-the-key' } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'Invalid admin API key' });
      expect(response.headers.getSetCookie()).toEqual([]);
    });

    it('refuses a body without the key with 400', async () => {
      const response = await call(testApp.baseUrl, 'POST', '/api/v1/admin/session', { body: {} });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'Invalid request', details: 'admin_api_key: is required' });
    });

    it('trades the key for an HttpOnly, SameSite=Strict cookie scoped to the management API, storing only its hash', async () => {
      const session = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      const setCookie = session.response.headers.getSetCookie()[0];
      expect(setCookie).toMatch(/; HttpOnly/);
      expect(setCookie).toMatch(/; SameSite=Strict/);
      expect(setCookie).toMatch(/; Path=\/api\/v1\/admin/);
      expect(setCookie).not.toMatch(/; Secure/); // outside production (plain http on a developer's machine)
      expect(session.response.headers.get('cache-control')).toBe('no-store');
      const body = session.response.body;
      expect(Object.keys(body.session).sort()).toEqual(['csrf_token', 'expires_at', 'kind', 'tenant_id']);
      expect(body.session).toMatchObject({ kind: 'operator', tenant_id: null });
      expect(session.response.text).not.toContain(session.cookie);
      const expiresIn = Date.parse(body.session.expires_at) - Date.now();
      expect(expiresIn).toBeGreaterThan(479 * 60_000);
      expect(expiresIn).toBeLessThanOrEqual(480 * 60_000);

      const stored = await rows('SELECT secret_hash FROM console_sessions WHERE secret_hash = $1', [sha256(session.cookie)]);
      expect(stored).toHaveLength(1);
      const anywhere = await rows("SELECT count(*)::int AS n FROM console_sessions WHERE row_to_json(console_sessions)::text LIKE '%' || $1 || '%'", [session.cookie]);
      expect(anywhere[0].n).toBe(0);

      const current = await withSession(testApp.baseUrl, session, 'GET', '/session');
      expect(current.status).toBe(200);
      expect(current.body).toEqual(body);
      expect(current.headers.get('cache-control')).toBe('no-store'); // it carries the CSRF token
    });

    it('makes the cookie Secure in production', async () => {
      const production = await startTestApp({
        env: { NODE_ENV: 'production', RUN_MIGRATIONS: 'false', SHUTDOWN_DELAY_MS: '0', PUBLIC_URL: 'https://gateway.example.test' },
      });
      try {
        const session = await operatorSession(production.baseUrl, production.config.adminApiKey);
        expect(session.response.headers.getSetCookie()[0]).toMatch(/; Secure/);
      } finally {
        await production.close();
      }
    });
  });

  describe('the management API with a session cookie', () => {
    it('ends the session whose cookie a new sign-in or redemption replaces (the browser can no longer use it)', async () => {
      const first = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      const again = await call(testApp.baseUrl, 'POST', '/api/v1/admin/session', {
        body: { admin_api_key: testApp.config.adminApiKey },
        headers: { cookie: `agw_console_session=${first.cookie}` },
      });
      expect(again.status).toBe(200);
      const second = sessionCookieOf(again)!;
      const tenants = (cookie: string) => call(testApp.baseUrl, 'GET', '/api/v1/admin/tenants', { headers: { cookie: `agw_console_session=${cookie}` } });
      expect((await tenants(first.cookie)).status).toBe(401);
      expect((await tenants(second)).status).toBe(200);

      const { tenantId } = await createTenant(testApp);
      const link = (await admin(testApp, 'POST', `/tenants/${tenantId}/portal-links`)).body.portal_link;
      // Not unasked: a link opened in a signed-in browser is refused (409, the link unused) until replace_session says so.
      const unasked = await redeem(testApp.baseUrl, { token: link.token }, { cookie: second, headers: { 'x-csrf-token': again.body.session.csrf_token } });
      expect([unasked.status, unasked.body]).toEqual([
        409,
        {
          error: 'This browser already holds a console session',
          details: "replace_session: must be true, with the session's X-CSRF-Token, to end this browser's operator session and open this link's portal (the link is still unused)",
        },
      ]);
      expect(sessionCookieOf(unasked)).toBeUndefined();
      expect((await tenants(second)).status).toBe(200);
      const redeemed = await redeem(testApp.baseUrl, { token: link.token, replace_session: true }, { cookie: second, headers: { 'x-csrf-token': again.body.session.csrf_token } });
      expect(redeemed.status).toBe(200);
      expect(redeemed.headers.get('cache-control')).toBe('no-store'); // it sets the session cookie
      expect((await tenants(second)).status).toBe(401);
      // A wrong key replaces nothing: the session stays.
      const third = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      const refused = await call(testApp.baseUrl, 'POST', '/api/v1/admin/session', { body: { admin_api_key: 'wrong' }, headers: { cookie: `agw_console_session=${third.cookie}` } });
      expect(refused.status).toBe(401);
      expect((await tenants(third.cookie)).status).toBe(200);
    });

    it('lets an operator session read, and change only with the CSRF token in X-CSRF-Token', async () => {
      const session = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      expect((await withSession(testApp.baseUrl, session, 'GET', '/tenants', undefined, null)).status).toBe(200);

      for (const csrf of [null, '', 'wrong', session.csrf.slice(1)]) {
        const refused = await withSession(testApp.baseUrl, session, 'POST', '/tenants', { name: 'csrf-probe' }, csrf);
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({ error: 'Missing or invalid CSRF token' });
      }
      const created = await withSession(testApp.baseUrl, session, 'POST', '/tenants', { name: 'made-in-console' });
      expect(created.status).toBe(201);
      expect(created.body.tenant.name).toBe('made-in-console');
    });

    it('does not take another session\'s CSRF token', async () => {
      const first = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      const second = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      const response = await withSession(testApp.baseUrl, first, 'POST', '/tenants', { name: 'x' }, second.csrf);
      expect(response.status).toBe(403);
    });

    it('refuses an unknown cookie, and a wrong bearer key even alongside a valid cookie', async () => {
      const unknown = await withSession(testApp.baseUrl, { cookie: 'made-up', csrf: 'x' }, 'GET', '/tenants');
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual({ error: 'Invalid token' });

      const session = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      const response = await call(testApp.baseUrl, 'GET', '/api/v1/admin/tenants', {
        headers: { cookie: `agw_console_session=${session.cookie}`, authorization: 'Bearer wrong' },
      });
      expect(response.status).toBe(401);
    });

    it('works on every replica, and signing out on one ends it on all', async () => {
      const session = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      expect((await withSession(replica.baseUrl, session, 'GET', '/tenants')).status).toBe(200);

      expect((await withSession(replica.baseUrl, session, 'DELETE', '/session', undefined, null)).status).toBe(403);
      const signedOut = await withSession(replica.baseUrl, session, 'DELETE', '/session');
      expect(signedOut.status).toBe(204);
      expect(signedOut.headers.getSetCookie()[0]).toMatch(/^agw_console_session=;.*Expires=Thu, 01 Jan 1970/);
      expect(await rows('SELECT 1 FROM console_sessions WHERE secret_hash = $1', [sha256(session.cookie)])).toHaveLength(0);

      for (const app of [testApp, replica]) {
        expect((await withSession(app.baseUrl, session, 'GET', '/tenants')).status).toBe(401);
        expect((await withSession(app.baseUrl, session, 'GET', '/session')).body).toEqual({ session: null });
      }
      // Signing out again (or with no session at all) is harmless.
      expect((await withSession(testApp.baseUrl, session, 'DELETE', '/session')).status).toBe(204);
    });

    it('expires after CONSOLE_SESSION_TTL_MINUTES', async () => {
      const session = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      clock.offsetMs = testApp.config.console.sessionTtlMs - 1_000;
      expect((await withSession(testApp.baseUrl, session, 'GET', '/tenants')).status).toBe(200);
      clock.offsetMs = testApp.config.console.sessionTtlMs + 1_000;
      expect((await withSession(testApp.baseUrl, session, 'GET', '/tenants')).status).toBe(401);
      clock.offsetMs = 0;
      expect((await withSession(testApp.baseUrl, session, 'GET', '/tenants')).status).toBe(401);
    });

    it('ends operator sessions when the ADMIN_API_KEY changes', async () => {
      const session = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      const rotated = await startTestApp({ config: await testConfig({ ...secretsOf(testApp), ADMIN_API_KEY: 'b'.repeat(16) + randomUUID() }) });
      try {
        expect((await withSession(rotated.baseUrl, session, 'GET', '/tenants')).status).toBe(401);
      } finally {
        await rotated.close();
      }
    });
  });

  describe('portal links', () => {
    async function portalLink(tenantId: string) {
      const response = await admin(testApp, 'POST', `/tenants/${tenantId}/portal-links`);
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store'); // the answer carries the link's token
      return response.body.portal_link;
    }

    it('are single use, short-lived, and stored as a hash only', async () => {
      const { tenantId } = await createTenant(testApp);
      const link = await portalLink(tenantId);
      expect(Object.keys(link).sort()).toEqual(['expires_at', 'tenant_id', 'token', 'url']);
      expect(link.token).toMatch(/^agwp_[A-Za-z0-9_-]{43}$/);
      expect(link.url).toBe(`https://gateway.example.test/console/portal#token=${link.token}`);
      expect(link.tenant_id).toBe(tenantId);
      expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(290_000);
      expect(Date.parse(link.expires_at) - Date.now()).toBeLessThanOrEqual(300_000);
      const stored = await rows('SELECT token_hash FROM portal_links WHERE tenant_id = $1', [tenantId]);
      expect(stored).toEqual([{ token_hash: sha256(link.token) }]);

      const session = await redeemPortalLink(testApp.baseUrl, link.token);
      expect(session.response.body.session).toMatchObject({ kind: 'tenant', tenant_id: tenantId });
      expect(session.response.headers.getSetCookie()[0]).toMatch(/; HttpOnly; SameSite=Strict/);

      const again = await redeem(testApp.baseUrl, { token: link.token });
      expect(again.status).toBe(401);
      expect(again.body).toEqual({ error: 'Invalid portal link' });
      expect(sessionCookieOf(again)).toBeUndefined();
    });

    it('refuse an expired link, an unknown one, and one of a disabled tenant, all alike', async () => {
      const { tenantId } = await createTenant(testApp);
      const expired = await portalLink(tenantId);
      clock.offsetMs = testApp.config.console.portalLinkTtlMs + 1_000;
      const late = await redeem(testApp.baseUrl, { token: expired.token });
      clock.offsetMs = 0;
      expect([late.status, late.body]).toEqual([401, { error: 'Invalid portal link' }]);

      const unknown = await redeem(testApp.baseUrl, { token: 'agwp_nope' });
      expect([unknown.status, unknown.body]).toEqual([401, { error: 'Invalid portal link' }]);

      const forDisabled = await portalLink(tenantId);
      await admin(testApp, 'PATCH', `/tenants/${tenantId}`, { status: 'disabled' });
      const refused = await redeem(testApp.baseUrl, { token: forDisabled.token });
      expect([refused.status, refused.body]).toEqual([401, { error: 'Invalid portal link' }]);
    });

    it('are minted by operators only, for tenants that exist', async () => {
      const { tenantId } = await createTenant(testApp);
      expect((await call(testApp.baseUrl, 'POST', `/api/v1/admin/tenants/${tenantId}/portal-links`)).status).toBe(401);
      const unknown = await admin(testApp, 'POST', `/tenants/${randomUUID()}/portal-links`);
      expect([unknown.status, unknown.body]).toEqual([404, { error: 'Tenant not found' }]);

      const session = await redeemPortalLink(testApp.baseUrl, (await portalLink(tenantId)).token);
      const byTenant = await withSession(testApp.baseUrl, session, 'POST', `/tenants/${tenantId}/portal-links`);
      expect([byTenant.status, byTenant.body]).toEqual([403, { error: 'Operators only' }]);
    });

    it('use the address the connection reached when PUBLIC_URL is not set (outside production), whatever X-Forwarded-Host says', async () => {
      const { tenantId } = await createTenant(replica);
      const response = await call(replica.baseUrl, 'POST', `/api/v1/admin/tenants/${tenantId}/portal-links`, {
        token: replica.config.adminApiKey,
        headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      });
      expect(response.body.portal_link.url).toBe(`${replica.baseUrl}/console/portal#token=${response.body.portal_link.token}`);
    });
  });

  describe('redeeming a portal link from this service\'s own pages only (issue 37)', () => {
    const portalLink = async (tenantId: string) => (await admin(testApp, 'POST', `/tenants/${tenantId}/portal-links`)).body.portal_link;
    const unused = async (token: string) => expect(await rows('SELECT redeemed_at FROM portal_links WHERE token_hash = $1', [sha256(token)])).toEqual([{ redeemed_at: null }]);
    const tenants = (cookie: string) => call(testApp.baseUrl, 'GET', '/api/v1/admin/tenants', { headers: { cookie: `agw_console_session=${cookie}` } });
    const CROSS_ORIGIN = { error: 'Cross-origin request refused', details: "Origin: must be this service's own (or Sec-Fetch-Site: same-origin without Origin)" };
    const NOT_JSON = { error: 'Unsupported media type', details: 'Content-Type: must be application/json' };

    it('refuses another origin of the same site, a missing or non-JSON Content-Type, and no Origin without Sec-Fetch-Site: same-origin', async () => {
      const { tenantId } = await createTenant(testApp);
      const link = await portalLink(tenantId);
      const operator = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      const port = Number(new URL(testApp.baseUrl).port);
      const refusals: Array<[Record<string, string>, number, unknown]> = [
        // Another port of the same host: the same site, so the SameSite=Strict cookie travels with it.
        [{ origin: `http://127.0.0.1:${port + 1}` }, 403, CROSS_ORIGIN],
        [{ origin: `http://localhost:${port + 1}` }, 403, CROSS_ORIGIN],
        [{ origin: `https://127.0.0.1:${port}` }, 403, CROSS_ORIGIN],
        [{ origin: 'http://app.gateway.example.test' }, 403, CROSS_ORIGIN],
        // A rebound name: the Host header says it too, and counts for nothing.
        [{ origin: 'http://evil.example.com', host: 'evil.example.com' }, 403, CROSS_ORIGIN],
        [{ origin: 'null' }, 403, CROSS_ORIGIN],
        [{}, 403, CROSS_ORIGIN],
        [{ 'sec-fetch-site': 'same-site' }, 403, CROSS_ORIGIN],
        [{ 'sec-fetch-site': 'cross-site' }, 403, CROSS_ORIGIN],
        [{ 'sec-fetch-site': 'none' }, 403, CROSS_ORIGIN],
        [{ origin: testApp.baseUrl, 'content-type': 'text/plain' }, 415, NOT_JSON],
        [{ origin: testApp.baseUrl, 'content-type': 'application/x-www-form-urlencoded' }, 415, NOT_JSON],
        [{ origin: testApp.baseUrl, 'content-type': 'application/json-patch+json' }, 415, NOT_JSON],
        [{ origin: testApp.baseUrl }, 415, NOT_JSON], // no Content-Type at all
      ];
      const body = JSON.stringify({ token: link.token, replace_session: true });
      for (const [headers, status, error] of refusals) {
        // With and without the browser's session, with its CSRF token even: what is refused is where it comes from.
        for (const session of [undefined, operator]) {
          const cookie: Record<string, string> = session ? { cookie: `agw_console_session=${session.cookie}`, 'x-csrf-token': session.csrf } : {};
          const answer = await bareCall(`${testApp.baseUrl}/api/v1/admin/portal-links/redeem`, 'POST', { ...headers, ...cookie }, body);
          expect([answer.status, JSON.parse(answer.text), answer.setCookie]).toEqual([status, error, undefined]);
        }
      }
      await unused(link.token);
      expect((await tenants(operator.cookie)).status).toBe(200);

      // No Origin but Sec-Fetch-Site: same-origin (what a browser says of its own page) is the service's own page.
      const fetched = await bareCall(`${testApp.baseUrl}/api/v1/admin/portal-links/redeem`, 'POST', { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, JSON.stringify({ token: link.token }));
      expect(fetched.status).toBe(200);
      // The console opened at localhost reaches a service whose connection says 127.0.0.1: the same server.
      const viaLocalhost = await redeem(testApp.baseUrl, { token: (await portalLink(tenantId)).token }, { headers: { origin: `http://localhost:${port}` } });
      expect(viaLocalhost.status).toBe(200);
      // PUBLIC_URL is this service's origin too (behind its proxy).
      const viaPublicUrl = await redeem(testApp.baseUrl, { token: (await portalLink(tenantId)).token }, { headers: { origin: 'https://gateway.example.test' } });
      expect(viaPublicUrl.status).toBe(200);
    });

    it('replaces the browser\'s session only with that session\'s CSRF token: else 403, no cookie, the session kept, the link unused', async () => {
      const acme = await createTenant(testApp);
      const link = await portalLink(acme.tenantId);
      const operator = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      const otherSession = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      for (const csrf of [undefined, '', 'not-the-token', otherSession.csrf]) {
        const refused = await redeem(testApp.baseUrl, { token: link.token, replace_session: true }, { cookie: operator.cookie, headers: csrf === undefined ? {} : { 'x-csrf-token': csrf } });
        expect([refused.status, refused.body, sessionCookieOf(refused)]).toEqual([403, { error: 'Missing or invalid CSRF token' }, undefined]);
      }
      await unused(link.token);
      expect((await tenants(operator.cookie)).status).toBe(200);

      const replaced = await redeem(testApp.baseUrl, { token: link.token, replace_session: true }, { cookie: operator.cookie, headers: { 'x-csrf-token': operator.csrf } });
      expect([replaced.status, replaced.body.session.tenant_id]).toEqual([200, acme.tenantId]);
      expect(sessionCookieOf(replaced)).toEqual(expect.any(String));
      expect((await tenants(operator.cookie)).status).toBe(401);
      // A cookie whose session has ended holds nothing to replace: no token needed.
      const afterEnded = await redeem(testApp.baseUrl, { token: (await portalLink(acme.tenantId)).token }, { cookie: operator.cookie });
      expect(afterEnded.status).toBe(200);
    });
  });

  describe('a tenant session', () => {
    it('reaches its own tenant and nothing else', async () => {
      const own = await createTenant(testApp);
      const other = await createTenant(testApp);
      const link = (await admin(testApp, 'POST', `/tenants/${own.tenantId}/portal-links`)).body.portal_link;
      const session = await redeemPortalLink(testApp.baseUrl, link.token);

      expect((await withSession(testApp.baseUrl, session, 'GET', `/tenants/${own.tenantId}`)).body.tenant.id).toBe(own.tenantId);
      expect((await withSession(testApp.baseUrl, session, 'GET', `/tenants/${own.tenantId}/api-tokens`)).status).toBe(200);
      const token = await withSession(testApp.baseUrl, session, 'POST', `/tenants/${own.tenantId}/api-tokens`, { name: 'from the portal' });
      expect(token.status).toBe(201);

      for (const [method, path] of [
        ['GET', `/tenants/${other.tenantId}`],
        ['GET', `/tenants/${other.tenantId}/api-tokens`],
        ['GET', `/tenants/${other.tenantId}/hmac-keys`],
        ['POST', `/tenants/${other.tenantId}/hmac-keys`],
        ['DELETE', `/tenants/${other.tenantId}/api-tokens/${other.apiTokenId}`],
        ['GET', `/tenants/${other.tenantId}/actions`],
        ['GET', `/tenants/${randomUUID()}`],
      ]) {
        const response = await withSession(testApp.baseUrl, session, method, path);
        expect([method, path, response.status, response.body]).toEqual([method, path, 404, { error: 'Tenant not found' }]);
      }
      for (const [method, path, body] of [
        ['GET', '/tenants', undefined],
        ['POST', '/tenants', { name: 'mine now' }],
        ['PATCH', `/tenants/${own.tenantId}`, { status: 'disabled' }],
      ] as const) {
        const response = await withSession(testApp.baseUrl, session, method, path, body);
        expect([method, path, response.status, response.body]).toEqual([method, path, 403, { error: 'Operators only' }]);
      }
      // The other tenant's token was not revoked.
      expect((await admin(testApp, 'GET', `/tenants/${other.tenantId}/api-tokens`)).body.api_tokens[0].revoked_at).toBeNull();
    });

    it('ends when its tenant is disabled, and stays ended when it is enabled again', async () => {
      const { tenantId } = await createTenant(testApp);
      const link = (await admin(testApp, 'POST', `/tenants/${tenantId}/portal-links`)).body.portal_link;
      const session = await redeemPortalLink(testApp.baseUrl, link.token);
      expect((await withSession(testApp.baseUrl, session, 'GET', `/tenants/${tenantId}`)).status).toBe(200);

      await admin(testApp, 'PATCH', `/tenants/${tenantId}`, { status: 'disabled' });
      expect((await withSession(testApp.baseUrl, session, 'GET', `/tenants/${tenantId}`)).status).toBe(401);
      expect(await rows('SELECT 1 FROM console_sessions WHERE tenant_id = $1', [tenantId])).toHaveLength(0);
      await admin(testApp, 'PATCH', `/tenants/${tenantId}`, { status: 'active' });
      expect((await withSession(testApp.baseUrl, session, 'GET', `/tenants/${tenantId}`)).status).toBe(401);
    });

    it('is still told apart once ended: GET /session says the cookie was a portal session, and nothing more', async () => {
      const current = async (cookie?: string) =>
        (await call(testApp.baseUrl, 'GET', '/api/v1/admin/session', cookie ? { headers: { cookie: `agw_console_session=${cookie}` } } : {})).body;
      const { tenantId } = await createTenant(testApp);
      const session = await redeemPortalLink(testApp.baseUrl, (await admin(testApp, 'POST', `/tenants/${tenantId}/portal-links`)).body.portal_link.token);
      expect((await current(session.cookie)).session.kind).toBe('tenant');
      await admin(testApp, 'PATCH', `/tenants/${tenantId}`, { status: 'disabled' });
      expect(await current(session.cookie)).toEqual({ session: null, ended: 'tenant' });
      // An operator's ended session, a made-up cookie and no cookie at all: no session, nothing else said.
      const operator = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      await withSession(testApp.baseUrl, operator, 'DELETE', '/session');
      for (const cookie of [operator.cookie, 'made-up', undefined]) expect(await current(cookie)).toEqual({ session: null });
      await admin(testApp, 'PATCH', `/tenants/${tenantId}`, { status: 'active' });
    });

    it('ask before replacing a session: inspect names both sessions, nothing is used up until replace_session says so (login CSRF)', async () => {
      const acme = await createTenant(testApp);
      const globex = await createTenant(testApp);
      const names = Object.fromEntries(
        await Promise.all([acme, globex].map(async ({ tenantId }) => [tenantId, (await admin(testApp, 'GET', `/tenants/${tenantId}`)).body.tenant.name])),
      );
      const portalLink = async (tenantId: string) => (await admin(testApp, 'POST', `/tenants/${tenantId}/portal-links`)).body.portal_link;
      const link = await portalLink(acme.tenantId);
      const inspect = (token: string, cookie?: string) =>
        call(testApp.baseUrl, 'POST', '/api/v1/admin/portal-links/inspect', { body: { token }, headers: cookie ? { cookie: `agw_console_session=${cookie}` } : {} });
      const redeemWith = (body: Record<string, unknown>, session: { cookie: string; csrf?: string }) =>
        redeem(testApp.baseUrl, body, { cookie: session.cookie, headers: session.csrf ? { 'x-csrf-token': session.csrf } : {} });
      const preview = { tenant_id: acme.tenantId, tenant_name: names[acme.tenantId], expires_at: link.expires_at };

      // No session held: the link's tenant, and nothing to replace. Inspecting twice uses nothing up.
      for (let i = 0; i < 2; i++) expect((await inspect(link.token)).body).toEqual({ portal_link: preview, current_session: null });
      const operator = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
      const asOperator = await inspect(link.token, operator.cookie);
      expect([asOperator.status, asOperator.body]).toEqual([200, { portal_link: preview, current_session: { kind: 'operator', tenant_id: null, tenant_name: null } }]);
      expect(asOperator.headers.get('cache-control')).toBe('no-store');

      // A portal session of another tenant: named, and refused unasked, the link still unused.
      const inGlobex = await redeemPortalLink(testApp.baseUrl, (await portalLink(globex.tenantId)).token);
      expect((await inspect(link.token, inGlobex.cookie)).body.current_session).toEqual({ kind: 'tenant', tenant_id: globex.tenantId, tenant_name: names[globex.tenantId] });
      const refused = await redeemWith({ token: link.token }, inGlobex);
      expect([refused.status, refused.body]).toEqual([
        409,
        {
          error: 'This browser already holds a console session',
          details: "replace_session: must be true, with the session's X-CSRF-Token, to end this browser's portal session of another tenant and open this link's portal (the link is still unused)",
        },
      ]);
      expect((await redeemWith({ token: link.token, replace_session: false }, inGlobex)).status).toBe(409);
      const notBoolean = await redeemWith({ token: link.token, replace_session: 'yes' }, inGlobex);
      expect([notBoolean.status, notBoolean.body]).toEqual([400, { error: 'Invalid request', details: 'replace_session: must be a boolean' }]);
      expect((await withSession(testApp.baseUrl, inGlobex, 'GET', `/tenants/${globex.tenantId}`)).status).toBe(200);
      const unused = await rows('SELECT redeemed_at FROM portal_links WHERE token_hash = $1', [sha256(link.token)]);
      expect(unused).toEqual([{ redeemed_at: null }]);

      // An invalid link gets redemption's one answer, asked or not, whatever the browser holds.
      for (const cookie of [undefined, operator.cookie]) {
        const answer = await inspect('agwp_nope', cookie);
        expect([answer.status, answer.body]).toEqual([401, { error: 'Invalid portal link' }]);
      }
      expect([(await redeemWith({ token: 'agwp_nope' }, operator)).status]).toEqual([401]);
      const missing = await call(testApp.baseUrl, 'POST', '/api/v1/admin/portal-links/inspect', { body: {} });
      expect([missing.status, missing.body]).toEqual([400, { error: 'Invalid request', details: 'token: is required' }]);

      // A portal session of the link's own tenant is replaced without asking (nothing changes hands), but with its
      // CSRF token only, as any session is.
      const inAcme = await redeemPortalLink(testApp.baseUrl, (await portalLink(acme.tenantId)).token);
      const withoutToken = await redeemWith({ token: link.token }, { cookie: inAcme.cookie });
      expect([withoutToken.status, withoutToken.body, sessionCookieOf(withoutToken)]).toEqual([403, { error: 'Missing or invalid CSRF token' }, undefined]);
      expect((await withSession(testApp.baseUrl, inAcme, 'GET', `/tenants/${acme.tenantId}`)).status).toBe(200);
      const again = await redeemWith({ token: link.token }, inAcme);
      expect([again.status, again.body.session.tenant_id]).toEqual([200, acme.tenantId]);
      expect((await withSession(testApp.baseUrl, inAcme, 'GET', `/tenants/${acme.tenantId}`)).status).toBe(401);
      expect((await inspect(link.token)).status).toBe(401); // used now
    });

    it('ends at once on another replica too when the tenant is disabled there', async () => {
      const { tenantId } = await createTenant(testApp);
      const link = (await admin(testApp, 'POST', `/tenants/${tenantId}/portal-links`)).body.portal_link;
      const session = await redeemPortalLink(replica.baseUrl, link.token);
      await admin(testApp, 'PATCH', `/tenants/${tenantId}`, { status: 'disabled' });
      expect((await withSession(replica.baseUrl, session, 'GET', `/tenants/${tenantId}`)).status).toBe(401);
    });
  });
});

function secretsOf(testApp: TestApp): Record<string, string> {
  return {
    JWT_SECRET: testApp.config.jwt.secret,
    ENCRYPTION_KEY: testApp.config.encryptionKey.toString('base64'),
  };
}
