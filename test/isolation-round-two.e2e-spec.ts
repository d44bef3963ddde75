import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { call, TestResponse } from './support/http';
import { redeem, redeemPortalLink, withSession } from './support/console-session';
import { ok, Receiver } from './support/receiver';
import { DataSource } from 'typeorm';
import { SchemaSandbox } from '../src/actions/schema/schema-sandbox';
import { CredentialsRetention } from '../src/admin/credentials-retention';
import { loadConfig } from '../src/config/load-config';
import { listedTenantsAmong } from './support/tenant-list';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Issue 27, tenant isolation round two: each row of the issue's table, replayed as the hostile tenant (or the
 * anonymous client) did, with what must now hold. The schema worker's latency is measured by bench/isolation.mjs
 * (docs/reliability.md); here the attacks' effects are checked, not timed to the millisecond.
 */

type RawResponse = { status: number; headers: Record<string, unknown>; body: any };

/**
 * A request over node:http with its path and headers exactly as written: fetch would resolve the path's `..`
 * segments first, and drops a `Host` header.
 */
function rawRequest(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, path, method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      const json = String(response.headers['content-type']).startsWith('application/json');
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: json && text ? JSON.parse(text) : text }));
    });
    request.on('error', reject).end();
  });
}

describe('tenant isolation, round two (issue 27)', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await Receiver.start((received, response) => {
      if (JSON.parse(received.body).test) return ok(received, response);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'a receiver\'s secret answer', error: '' }));
    });
    tenant = await createTenant(testApp);
  });
  afterAll(async () => {
    await testApp?.close();
    await receiver?.stop();
  });

  describe('the schema worker: one tenant\'s runaway checks hold up no other tenant\'s', () => {
    /** The issue's attack: a backreference (ECMAScript only, so checked in the worker) that backtracks for ever on 42 `a`s. */
    const BACKREFERENCE = { type: 'object', properties: { s: { type: 'string', pattern: '^(a|a)*(\\1)x$' } } };
    /** The neighbour's: `$dynamicAnchor` sends it to the worker too. */
    const DYNAMIC_TREE = {
      $id: 'https://example.com/tree',
      $dynamicAnchor: 'node',
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $dynamicRef: '#node' } } },
    };

    let workerApp: TestApp;
    let neighbour: TestTenant;
    beforeAll(async () => {
      // Three runaway checks' worth of worker time a minute, so that the test sees the budget refuse too.
      // The hourly budget out of the way: on a quiet machine the neighbour's loop makes more than 1,000 calls in 8 s.
      workerApp = await startTestApp({ env: { SCHEMA_WORKER_MS_PER_MINUTE: '4500', RATE_LIMIT_PER_HOUR: '1000000' } });
      neighbour = await createTenant(workerApp);
    });
    afterAll(() => workerApp?.close());

    it('4 concurrent loops of executions that hit the deadline: the neighbour\'s worker-checked executions are answered at once, and the attacker is quarantined, then refused', async () => {
      const testApp = workerApp;
      const tenant = neighbour;
      const attacker = await createTenant(testApp);
      const attack = actionBody(receiver.url('/attack'), { json_schema: BACKREFERENCE });
      const tree = actionBody(receiver.url('/tree'), { json_schema: DYNAMIC_TREE });
      expect((await gateway(testApp, 'POST', '/actions', { token: attacker.jwt, body: attack })).status).toBe(201);
      expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: tree })).status).toBe(201);
      const runTree = () => gateway(testApp, 'POST', `/actions/${tree.name}/execute`, { token: tenant.jwt, body: { parameters: { name: 'root', children: [{ name: 'leaf' }] } } });
      expect((await runTree()).status).toBe(200); // compiled in the worker before the attack

      const attackerStatuses: number[] = [];
      let retryAfter: string | null = null;
      let attacking = true;
      const loop = async () => {
        while (attacking) {
          const response = await gateway(testApp, 'POST', `/actions/${attack.name}/execute`, { token: attacker.jwt, body: { parameters: { s: 'a'.repeat(42) } } });
          attackerStatuses.push(response.status);
          if (response.status === 429) {
            retryAfter = response.headers.get('retry-after');
            return;
          }
          expect(response.body).toEqual({ error: 'Invalid parameters', details: 'parameters: could not be checked against the json_schema within 1500 ms' });
        }
      };
      const loops = Array.from({ length: 4 }, loop);
      const neighbourMs: number[] = [];
      const until = Date.now() + 8_000;
      while (Date.now() < until) {
        const started = performance.now();
        const response = await runTree();
        neighbourMs.push(performance.now() - started);
        expect([response.status, response.body.execution?.status ?? response.body]).toEqual([200, 'succeeded']);
      }
      attacking = false;
      await Promise.all(loops);
      // Before issue 27 every one of these waited behind the attacker's 1.5 s checks and a restarted worker
      // (p50 3.2 s). The issue's bound is the usual time + 100 ms at p99 (bench/isolation.mjs measures it);
      // this shared machine gets a generous one.
      // (Its 90th percentile: one answer of this loaded machine's slowest moments is not what is tested.)
      const sorted = [...neighbourMs].sort((x, y) => x - y).map(Math.round);
      expect({ sorted, heldUp: sorted[Math.floor(sorted.length * 0.9)] > 1_000 }).toEqual({ sorted, heldUp: false });
      expect(neighbourMs.length).toBeGreaterThan(20);
      // The attacker's own checks ran into the deadline, then into its budget of worker time per minute.
      expect(new Set(attackerStatuses)).toEqual(new Set([400, 429]));
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(testApp.app.get(SchemaSandbox).isQuarantined(attacker.tenantId)).toBe(true);
      expect(testApp.app.get(SchemaSandbox).isQuarantined(tenant.tenantId)).toBe(false);
    });
  });

  describe('every request a tenant\'s portal session makes is budgeted', () => {
    const BUDGET = 12;
    let limited: TestApp;
    let hooks: Receiver;

    beforeAll(async () => {
      limited = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: String(BUDGET) } });
      hooks = await Receiver.start();
    });
    afterAll(async () => {
      await limited?.close();
      await hooks?.stop();
    });

    async function portalSession(tenantId: string) {
      const link = (await admin(limited, 'POST', `/tenants/${tenantId}/portal-links`)).body.portal_link;
      return redeemPortalLink(limited.baseUrl, link.token);
    }

    /** Sends `step` until the answer is a 429 (at most `max` times); the answers before it. */
    async function untilRefused(max: number, step: (i: number) => Promise<TestResponse[]>): Promise<{ answered: TestResponse[]; refused: TestResponse }> {
      const answered: TestResponse[] = [];
      for (let i = 0; i < max; i++) {
        for (const response of await step(i)) {
          if (response.status === 429) return { answered, refused: response };
          answered.push(response);
        }
      }
      throw new Error(`no 429 after ${answered.length} answers`);
    }

    it('register/delete loops count against the tenant\'s hourly budget: no more registration POSTs than the budget', async () => {
      const { tenantId, jwt } = await createTenant(limited);
      const session = await portalSession(tenantId);
      const before = hooks.calls.length;
      const { answered, refused } = await untilRefused(100, async (i) => {
        const body = actionBody(hooks.url(`/churn-${i}`));
        const created = await withSession(limited.baseUrl, session, 'POST', `/tenants/${tenantId}/actions`, body);
        if (created.status !== 201) return [created];
        return [created, await withSession(limited.baseUrl, session, 'DELETE', `/tenants/${tenantId}/actions/${body.name}`)];
      });
      expect(answered).toHaveLength(BUDGET);
      expect(answered.map((response) => response.status)).toEqual(Array.from({ length: BUDGET }, (_, i) => (i % 2 === 0 ? 201 : 204)));
      expect(answered.map((response) => response.headers.get('x-ratelimit-remaining'))).toEqual(Array.from({ length: BUDGET }, (_, i) => String(BUDGET - 1 - i)));
      expect(answered[0].headers.get('x-ratelimit-limit')).toBe(String(BUDGET));
      expect([refused.status, refused.body, refused.headers.get('x-ratelimit-remaining')]).toEqual([429, { error: 'Rate limit exceeded' }, '0']);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // One registration test per create that was let in, and none for the refused one.
      expect(hooks.calls.length - before).toBe(BUDGET / 2);
      // The same counter as the tenant's bearer requests: the gateway refuses them now too.
      expect((await gateway(limited, 'GET', '/actions', { token: jwt })).status).toBe(429);
    });

    it('bearer requests and session requests share the one budget, reads included', async () => {
      const { tenantId, jwt } = await createTenant(limited);
      const session = await portalSession(tenantId);
      for (let i = 0; i < BUDGET / 2; i++) expect((await gateway(limited, 'GET', '/actions', { token: jwt })).status).toBe(200);
      const { answered } = await untilRefused(BUDGET, async () => [await withSession(limited.baseUrl, session, 'GET', `/tenants/${tenantId}/api-tokens`)]);
      expect(answered).toHaveLength(BUDGET / 2);
      expect((await call(limited.baseUrl, 'GET', '/api/v1/admin/session', { headers: { cookie: `agw_console_session=${session.cookie}` } })).status).toBe(429);
      // Signing out is never refused.
      expect((await withSession(limited.baseUrl, session, 'DELETE', '/session')).status).toBe(204);
    });

    it.each([
      ['API tokens', 'api-tokens', { name: 'churn' }, 'api_token'],
      ['HMAC keys', 'hmac-keys', undefined, 'hmac_key'],
    ])('%s: create/revoke loops stop at the budget', async (_what, path, body, field) => {
      const { tenantId } = await createTenant(limited);
      const session = await portalSession(tenantId);
      const { answered } = await untilRefused(100, async () => {
        const created = await withSession(limited.baseUrl, session, 'POST', `/tenants/${tenantId}/${path}`, body);
        if (created.status !== 201) return [created];
        return [created, await withSession(limited.baseUrl, session, 'DELETE', `/tenants/${tenantId}/${path}/${created.body[field as string].id}`)];
      });
      expect(answered).toHaveLength(BUDGET);
    });

    it('an operator\'s management calls have a budget of their own (OPERATOR_RATE_LIMIT_PER_MINUTE), apart from the tenants\'', async () => {
      const operatorLimited = await startTestApp({ env: { OPERATOR_RATE_LIMIT_PER_MINUTE: '5' } });
      try {
        const statuses: number[] = [];
        let last: TestResponse | undefined;
        for (let i = 0; i < 7; i++) {
          last = await admin(operatorLimited, 'GET', '/tenants');
          statuses.push(last.status);
          if (i === 0) expect([last.headers.get('x-ratelimit-limit'), last.headers.get('x-ratelimit-remaining')]).toEqual(['5', '4']);
        }
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
        expect([last?.body, last?.headers.get('x-ratelimit-remaining')]).toEqual([{ error: 'Rate limit exceeded' }, '0']);
        // An operator's console session is an operator too.
        const signedIn = await call(operatorLimited.baseUrl, 'POST', '/api/v1/admin/session', { body: { admin_api_key: operatorLimited.config.adminApiKey } });
        expect(signedIn.status).toBe(429);
      } finally {
        await operatorLimited.close();
      }
    });
  });

  describe('what a tenant piles up is bounded: revoked credentials are capped and pruned, every list pages', () => {
    /** Every item of a management list, page after page, with the pages' sizes. */
    async function everyPage(path: string, key: string, limit: number): Promise<{ items: { id: string; name?: string }[]; sizes: number[] }> {
      const items: { id: string }[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const response = await admin(testApp, 'GET', `${path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(response.status).toBe(200);
        expect(Object.keys(response.body).sort()).toEqual([key, 'next_cursor'].sort());
        items.push(...response.body[key]);
        sizes.push(response.body[key].length);
        cursor = response.body.next_cursor;
      } while (cursor !== null);
      return { items, sizes };
    }

    it.each([
      ['api-tokens', 'api_tokens', 'api_token', { name: 'churn' }],
      ['hmac-keys', 'hmac_keys', 'hmac_key', undefined],
    ])('%s: 150 create/revoke pairs leave the 100 newest revoked ones and the live ones, paged by 100 at most', async (path, key, field, body) => {
      const owner = await createTenant(testApp);
      const base = `/tenants/${owner.tenantId}/${path}`;
      for (let i = 0; i < 150; i++) {
        const created = await admin(testApp, 'POST', base, body);
        expect(created.status).toBe(201);
        expect((await admin(testApp, 'DELETE', `${base}/${created.body[field].id}`)).status).toBe(204);
      }
      const last = await admin(testApp, 'POST', base, body);
      const first = await admin(testApp, 'GET', base);
      expect([first.body[key].length, typeof first.body.next_cursor]).toEqual([100, 'string']);
      const { items, sizes } = await everyPage(base, key, 40);
      expect(sizes).toEqual([40, 40, 22]);
      // The live one made with the tenant, 100 revoked ones (the newest), and the one made last.
      expect(items).toHaveLength(102);
      expect(new Set(items.map((item) => item.id)).size).toBe(102);
      expect(items.map((item) => item.id)).toContain(last.body[field].id);
      expect(items.filter((item) => (item as { revoked_at?: string | null }).revoked_at)).toHaveLength(100);
    });

    it('prunes credentials revoked more than 30 days ago, whoever they belong to', async () => {
      const owner = await createTenant(testApp);
      const token = (await admin(testApp, 'POST', `/tenants/${owner.tenantId}/api-tokens`, { name: 'old' })).body.api_token;
      const key = (await admin(testApp, 'POST', `/tenants/${owner.tenantId}/hmac-keys`)).body.hmac_key;
      await admin(testApp, 'DELETE', `/tenants/${owner.tenantId}/api-tokens/${token.id}`);
      await admin(testApp, 'DELETE', `/tenants/${owner.tenantId}/hmac-keys/${key.id}`);
      const database = testApp.app.get(DataSource);
      await database.query(`UPDATE api_tokens SET revoked_at = now() - interval '31 days' WHERE id = $1`, [token.id]);
      await database.query(`UPDATE hmac_keys SET revoked_at = now() - interval '29 days' WHERE id = $1`, [key.id]);
      await testApp.app.get(CredentialsRetention).prune();
      const tokens = (await admin(testApp, 'GET', `/tenants/${owner.tenantId}/api-tokens`)).body.api_tokens.map((item: { id: string }) => item.id);
      const keys = (await admin(testApp, 'GET', `/tenants/${owner.tenantId}/hmac-keys`)).body.hmac_keys.map((item: { id: string }) => item.id);
      expect([tokens.includes(token.id), keys.includes(key.id)]).toEqual([false, true]);
      expect(tokens).toContain(owner.apiTokenId);
    });

    it('pages the tenant list and a tenant\'s actions by position: nothing repeats or is skipped when rows come and go', async () => {
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await admin(testApp, 'POST', '/tenants', { name: `paged-${i}` })).body.tenant.id);
      // Page through in at least four pages, newest first, with a tenant made after the first page: it belongs
      // before the first page, so the walk neither shows it nor shifts anything else; a new walk starts with it.
      // On a shared database other suites make (and may delete) tenants all the while: the walk is checked against
      // the tenants that were there before it began and still are after it, and against ours.
      const database = testApp.app.get(DataSource);
      const ordered = async () => ((await database.query('SELECT id FROM tenants ORDER BY created_at DESC, id DESC')) as Array<{ id: string }>).map((row) => row.id);
      const before = await ordered();
      const limit = Math.min(100, Math.max(2, Math.ceil(before.length / 4)));
      const seen: string[] = [];
      let cursor: string | null = null;
      let late: string | undefined;
      do {
        const response = await admin(testApp, 'GET', `/tenants?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        seen.push(...response.body.tenants.map((tenant: { id: string }) => tenant.id));
        cursor = response.body.next_cursor;
        late ??= (await admin(testApp, 'POST', '/tenants', { name: 'paged-late' })).body.tenant.id;
      } while (cursor !== null);
      const all = await ordered();
      const [allSet, seenSet] = [new Set(all), new Set(seen)];
      const stayed = new Set(before.filter((id) => allSet.has(id)));
      expect(seenSet.size).toBe(seen.length); // nothing repeats
      expect(seen).not.toContain(late);
      expect(seen.filter((id) => stayed.has(id))).toEqual(all.filter((id) => stayed.has(id))); // nothing skipped, in order
      expect(seen.filter((id) => allSet.has(id))).toEqual(all.filter((id) => seenSet.has(id))); // the rest in order too
      expect(seen.filter((id) => made.includes(id))).toEqual([...made].reverse());
      // A new walk lists the late one, before ours (newest first).
      expect((await listedTenantsAmong(testApp, [late!, ...made])).map((tenant) => tenant.id)).toEqual([late, ...[...made].reverse()]);

      const owner = await createTenant(testApp);
      const names = ['b_two', 'a_one', 'c_three', 'd_four'];
      for (const name of names) expect((await admin(testApp, 'POST', `/tenants/${owner.tenantId}/actions`, actionBody(receiver.url(), { name }))).status).toBe(201);
      const firstActions = await admin(testApp, 'GET', `/tenants/${owner.tenantId}/actions?limit=2`);
      expect(firstActions.body.actions.map((action: { name: string }) => action.name)).toEqual(['a_one', 'b_two']);
      await admin(testApp, 'DELETE', `/tenants/${owner.tenantId}/actions/a_one`);
      const nextActions = await admin(testApp, 'GET', `/tenants/${owner.tenantId}/actions?limit=2&cursor=${encodeURIComponent(firstActions.body.next_cursor)}`);
      expect([nextActions.body.actions.map((action: { name: string }) => action.name), nextActions.body.next_cursor]).toEqual([['c_three', 'd_four'], null]);
    });

    it('refuses a cursor it did not give, or gave another tenant or list, and a limit that is not a positive integer', async () => {
      const owner = await createTenant(testApp);
      const other = await createTenant(testApp);
      for (let i = 0; i < 2; i++) await admin(testApp, 'POST', `/tenants/${owner.tenantId}/api-tokens`, { name: `t${i}` });
      const cursor = (await admin(testApp, 'GET', `/tenants/${owner.tenantId}/api-tokens?limit=1`)).body.next_cursor as string;
      const invalidCursor = { error: 'Invalid request', details: 'cursor: is not a cursor this list gave (send next_cursor as it came)' };
      for (const path of [
        `/tenants/${other.tenantId}/api-tokens?cursor=${encodeURIComponent(cursor)}`,
        `/tenants/${owner.tenantId}/hmac-keys?cursor=${encodeURIComponent(cursor)}`,
        `/tenants?cursor=${encodeURIComponent(cursor)}`,
        `/tenants/${owner.tenantId}/api-tokens?cursor=${encodeURIComponent(`${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`)}`,
        `/tenants/${owner.tenantId}/api-tokens?cursor=`,
        `/tenants/${owner.tenantId}/actions?cursor=abc&cursor=def`,
      ]) {
        const refused = await admin(testApp, 'GET', path);
        expect({ path, status: refused.status, body: refused.body }).toEqual({ path, status: 400, body: invalidCursor });
      }
      for (const limit of ['0', '-1', 'ten', '1.5', '']) {
        const refused = await admin(testApp, 'GET', `/tenants?limit=${limit}`);
        expect([refused.status, refused.body]).toEqual([400, { error: 'Invalid request', details: 'limit: must be a positive integer' }]);
      }
      expect((await admin(testApp, 'GET', `/tenants/${owner.tenantId}/api-tokens?limit=1000`)).body.api_tokens).toHaveLength(3);
    });
  });

  describe('failed sign-ins are limited apart from the token exchange and redemption, and only failures count', () => {
    let guarded: TestApp;
    let guardedTenant: TestTenant;

    beforeAll(async () => {
      guarded = await startTestApp({ env: { ADMIN_KEY_FAILURES_PER_MINUTE: '10', TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE: '20' } });
      guardedTenant = await createTenant(guarded);
    });
    afterAll(() => guarded?.close());

    const signIn = (key: string) => call(guarded.baseUrl, 'POST', '/api/v1/admin/session', { body: { admin_api_key: key } });

    it('58 wrong sign-ins: the 11th on is 429, yet the right key signs in, and the token exchange is untouched', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 58; i++) statuses.push((await signIn(`wrong-${i}`)).status);
      expect(statuses).toEqual([...Array(10).fill(401), ...Array(48).fill(429)]);
      const refused = await signIn('wrong-again');
      expect([refused.status, refused.body]).toEqual([429, { error: 'Rate limit exceeded' }]);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

      const right = await signIn(guarded.config.adminApiKey);
      expect(right.status).toBe(200);
      const exchange = await gateway(guarded, 'POST', '/token/exchange', { body: { api_token: guardedTenant.apiToken } });
      expect(exchange.status).toBe(200);
      // Bearer guesses of the admin key on management routes draw on the same failures, so they are 429 now.
      const guess = await call(guarded.baseUrl, 'GET', '/api/v1/admin/tenants', { token: 'a-guess' });
      expect([guess.status, guess.body]).toEqual([429, { error: 'Rate limit exceeded' }]);
      // The right key as a bearer is never refused for them.
      expect((await admin(guarded, 'GET', '/tenants')).status).toBe(200);
    });

    it('bearer guesses of the admin key on management routes are limited the same way, in a fresh app', async () => {
      const fresh = await startTestApp({ env: { ADMIN_KEY_FAILURES_PER_MINUTE: '10' } });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 100; i++) statuses.push((await call(fresh.baseUrl, 'GET', '/api/v1/admin/tenants', { token: `guess-${i}` })).status);
        expect(statuses).toEqual([...Array(10).fill(401), ...Array(90).fill(429)]);
        expect((await admin(fresh, 'GET', '/tenants')).status).toBe(200);
        expect((await call(fresh.baseUrl, 'POST', '/api/v1/admin/session', { body: { admin_api_key: fresh.config.adminApiKey } })).status).toBe(200);
      } finally {
        await fresh.close();
      }
    });

    it('portal-link redemptions have a budget of their own: spending it leaves sign-in and the exchange alone', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 22; i++) statuses.push((await redeem(guarded.baseUrl, { token: `agwp_${i}` })).status);
      expect(statuses).toEqual([...Array(20).fill(401), 429, 429]);
      expect((await signIn(guarded.config.adminApiKey)).status).toBe(200);
      expect((await gateway(guarded, 'POST', '/token/exchange', { body: { api_token: guardedTenant.apiToken } })).status).toBe(200);
    });
  });

  describe('portal links: no request header chooses their origin', () => {
    it.each([
      ['Host', { host: 'evil.example' }],
      ['X-Forwarded-Host', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }],
    ])('mints the link on the address the connection reached, whatever %s says (no PUBLIC_URL, outside production)', async (_header, headers) => {
      const response = await rawRequest(testApp.baseUrl, 'POST', `/api/v1/admin/tenants/${tenant.tenantId}/portal-links`, { authorization: `Bearer ${testApp.config.adminApiKey}`, ...headers });
      expect(response.status).toBe(201);
      expect(response.body.portal_link.url).toBe(`${testApp.baseUrl}/console/portal#token=${response.body.portal_link.token}`);
    });

    it('behind TRUST_PROXY too', async () => {
      const proxied = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
      try {
        const { tenantId } = await createTenant(proxied);
        const response = await rawRequest(proxied.baseUrl, 'POST', `/api/v1/admin/tenants/${tenantId}/portal-links`, {
          authorization: `Bearer ${proxied.config.adminApiKey}`,
          'x-forwarded-host': 'evil.example',
          'x-forwarded-proto': 'https',
          'x-forwarded-for': '203.0.113.9',
        });
        expect(response.body.portal_link.url).toBe(`${proxied.baseUrl}/console/portal#token=${response.body.portal_link.token}`);
      } finally {
        await proxied.close();
      }
    });

    it('refuses to start in production without PUBLIC_URL, naming it', async () => {
      const secrets = { JWT_SECRET: randomBytes(48).toString('base64'), ADMIN_API_KEY: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };
      const env = { NODE_ENV: 'production', DATABASE_URL: 'postgres://app@db:5432/gateway', ...secrets };
      expect(() => loadConfig(env)).toThrow(/^Configuration error: PUBLIC_URL is required in production/);
      expect(loadConfig({ ...env, PUBLIC_URL: 'https://gateway.example.com' }).console.publicUrl).toBe('https://gateway.example.com');
    });
  });

  describe('answers carrying receivers\' data or secrets, and the console\'s file server', () => {
    it('says Cache-Control: no-store on executions, execute answers, MCP tool results and the management API', async () => {
      const action = actionBody(receiver.url());
      expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: action })).status).toBe(201);
      const answers = {
        execute: await gateway(testApp, 'POST', `/actions/${action.name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'Oslo' } } }),
        executions: await gateway(testApp, 'GET', `/actions/${action.name}/executions`, { token: tenant.jwt }),
        actions: await gateway(testApp, 'GET', '/actions', { token: tenant.jwt }),
        mcp: await gateway(testApp, 'POST', '/mcp', {
          token: tenant.jwt,
          body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: action.name, arguments: { city: 'Oslo' } } },
        }),
        adminExecute: await admin(testApp, 'POST', `/tenants/${tenant.tenantId}/actions/${action.name}/execute`, { parameters: { city: 'Oslo' } }),
        adminExecutions: await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/actions/${action.name}/executions`),
        adminTokens: await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/api-tokens`),
        unknownRoute: await gateway(testApp, 'GET', '/nothing-here', { token: tenant.jwt }),
      };
      expect(answers.execute.body.execution.result).toBe('a receiver\'s secret answer');
      expect(answers.mcp.text).toContain('a receiver\'s secret answer');
      expect(Object.fromEntries(Object.entries(answers).map(([what, response]) => [what, [response.status, response.headers.get('cache-control')]]))).toEqual({
        execute: [200, 'no-store'],
        executions: [200, 'no-store'],
        actions: [200, 'no-store'],
        mcp: [200, 'no-store'],
        adminExecute: [200, 'no-store'],
        adminExecutions: [200, 'no-store'],
        adminTokens: [200, 'no-store'],
        unknownRoute: [404, 'no-store'],
      });
    });

    it.each(['/console/assets/', '/console/assets/../index.html', '/console/assets/%2e%2e/index.html', '/console/assets/..%2f..%2fpackage.json', '/console/assets/sub/'])(
      'answers a path the file server refuses (%s) 404 Not found, not 401 Invalid token',
      async (path) => {
        const response = await rawRequest(testApp.baseUrl, 'GET', path);
        expect({ status: response.status, body: response.body, type: response.headers['content-type'] }).toEqual({
          status: 404,
          body: { error: 'Not found' },
          type: 'application/json; charset=utf-8',
        });
      },
    );

    it('still serves the console\'s page and its assets', async () => {
      const page = await call(testApp.baseUrl, 'GET', '/console/');
      expect(page.status).toBe(200);
      const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page.text)?.[1] as string;
      expect(script).toBeDefined();
      expect((await rawRequest(testApp.baseUrl, 'GET', script)).status).toBe(200);
    });
  });
});
