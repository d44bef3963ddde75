import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { call } from './support/http';
import { ReceivedCall, Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Issue 32: what a client sends never chooses the tenant, and no tenant's data or budget reaches another's.
 * Each test here failed under a mutation that survived every earlier e2e test (docs/reliability.md, "Tenant
 * isolation, mutations"): another tenant's signing keys, a per-token rate limit, a tenant id read from the
 * request.
 */

/** Whether a Standard Webhooks signature in `call` is by `key`. */
function verifiesWith(call: ReceivedCall, key: string): boolean {
  try {
    new Webhook(key).verify(call.body, call.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

const signatures = (call: ReceivedCall) => String(call.headers['webhook-signature']).split(' ');

describe('tenant boundaries, end to end', () => {
  let testApp: TestApp;
  let receiverA: Receiver;
  let receiverB: Receiver;
  let a: TestTenant;
  let b: TestTenant;
  /** B's two keys, both made after A's: the newest keys in the database are B's. */
  let bKeys: string[];
  /** One action name that both tenants have, each with its own receiver. */
  let name: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiverA = await Receiver.start();
    receiverB = await Receiver.start();
    a = await createTenant(testApp);
    b = await createTenant(testApp);
    const second = (await admin(testApp, 'POST', `/tenants/${b.tenantId}/hmac-keys`)).body.hmac_key.key as string;
    bKeys = [b.hmacKey, second];
    const body = actionBody(receiverA.url('/a'), { json_schema: { type: 'object', properties: { city: { type: 'string' } } } });
    name = body.name;
    expect((await gateway(testApp, 'POST', '/actions', { token: a.jwt, body })).status).toBe(201);
    expect((await gateway(testApp, 'POST', '/actions', { token: b.jwt, body: { ...body, webhook_url: receiverB.url('/b') } })).status).toBe(201);
  });
  beforeEach(() => {
    receiverA.calls.length = 0;
    receiverB.calls.length = 0;
  });
  afterAll(async () => {
    await testApp?.close();
    await receiverA?.stop();
    await receiverB?.stop();
  });

  /** A's stored executions of `name`, and B's. */
  async function executions(): Promise<{ a: unknown[]; b: unknown[] }> {
    const list = async (tenant: TestTenant) => (await gateway(testApp, 'GET', `/actions/${name}/executions`, { token: tenant.jwt })).body.executions as unknown[];
    return { a: await list(a), b: await list(b) };
  }

  describe('signing keys', () => {
    it("signs A's webhook with A's one key only, never with B's newer keys, in the body and in the headers", async () => {
      const executed = await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: a.jwt, body: { parameters: { city: 'Oslo' } } });
      expect(executed.status).toBe(200);
      expect(receiverB.calls).toEqual([]);
      const [received] = receiverA.calls;
      expect(signatures(received)).toHaveLength(1);
      expect(verifiesWith(received, a.hmacKey)).toBe(true);
      for (const key of bKeys) expect(verifiesWith(received, key)).toBe(false);
      const { signature } = JSON.parse(received.body) as { signature: string };
      const signed = received.body.slice(0, received.body.lastIndexOf(',"signature"')) + '}';
      expect(signature).toBe(createHmac('sha256', a.hmacKey).update(signed).digest('hex'));
    });

    it("signs B's webhook with B's two keys, and A's registration test with A's key only", async () => {
      expect((await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: b.jwt, body: { parameters: { city: 'Bergen' } } })).status).toBe(200);
      const [received] = receiverB.calls;
      expect(signatures(received)).toHaveLength(2);
      for (const key of bKeys) expect(verifiesWith(received, key)).toBe(true);
      expect(verifiesWith(received, a.hmacKey)).toBe(false);

      const registered = await gateway(testApp, 'POST', '/actions', { token: a.jwt, body: actionBody(receiverA.url('/registration')) });
      expect(registered.status).toBe(201);
      const [test] = receiverA.calls;
      expect(signatures(test)).toHaveLength(1);
      expect(verifiesWith(test, a.hmacKey)).toBe(true);
    });
  });

  describe('a tenant id in the request is ignored', () => {
    it('in execute: the query string, a header, or the parameters (which go to A\'s webhook as they are)', async () => {
      const before = await executions();
      const executed = await call(testApp.baseUrl, 'POST', `/api/v1/gateway/actions/${name}/execute?tenant_id=${b.tenantId}`, {
        token: a.jwt,
        headers: { 'x-tenant-id': b.tenantId },
        body: { parameters: { city: 'Oslo', tenant_id: b.tenantId } },
      });
      expect(executed.status).toBe(200);
      expect(receiverB.calls).toEqual([]);
      expect(receiverA.calls).toHaveLength(1);
      expect(JSON.parse(receiverA.calls[0].body).parameters).toEqual({ city: 'Oslo', tenant_id: b.tenantId });
      const after = await executions();
      expect(after.a).toHaveLength(before.a.length + 1);
      expect(after.b).toEqual(before.b);
    });

    it('beside the parameters of execute: a 400 naming it, nothing sent or stored', async () => {
      const before = await executions();
      const refused = await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: a.jwt, body: { parameters: { city: 'Oslo' }, tenant_id: b.tenantId } });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('tenant_id');
      expect(receiverA.calls).toEqual([]);
      expect(receiverB.calls).toEqual([]);
      expect(await executions()).toEqual(before);
    });

    const mcp = (token: string, body: unknown) =>
      call(testApp.baseUrl, 'POST', '/api/v1/gateway/mcp', { token, body, headers: { accept: 'application/json, text/event-stream' } });

    it('in an MCP tools/call: params._meta.tenant_id, params.arguments.tenant_id, params.parameters.tenant_id', async () => {
      const before = await executions();
      const response = await mcp(a.jwt, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name,
          arguments: { city: 'Oslo', tenant_id: b.tenantId },
          parameters: { tenant_id: b.tenantId },
          _meta: { tenant_id: b.tenantId },
        },
      });
      expect(response.status).toBe(200);
      expect(response.body.result.isError).toBe(false);
      expect(receiverB.calls).toEqual([]);
      expect(receiverA.calls).toHaveLength(1);
      expect(JSON.parse(receiverA.calls[0].body).parameters).toEqual({ city: 'Oslo', tenant_id: b.tenantId });
      expect(verifiesWith(receiverA.calls[0], a.hmacKey)).toBe(true);
      const after = await executions();
      expect(after.a).toHaveLength(before.a.length + 1);
      expect(after.b).toEqual(before.b);
    });

    it("in an MCP tools/call with only B's tool name and B's tenant id: unknown to A, nothing sent", async () => {
      const onlyB = actionBody(receiverB.url('/only-b'));
      expect((await gateway(testApp, 'POST', '/actions', { token: b.jwt, body: onlyB })).status).toBe(201);
      receiverB.calls.length = 0;
      const response = await mcp(a.jwt, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: onlyB.name, arguments: { tenant_id: b.tenantId }, parameters: { tenant_id: b.tenantId }, _meta: { tenant_id: b.tenantId } },
      });
      expect(response.body.error).toEqual({ code: -32602, message: `Unknown tool: ${onlyB.name}` });
      expect(receiverB.calls).toEqual([]);
      expect(receiverA.calls).toEqual([]);
    });

    it("in an MCP tools/list: params._meta.tenant_id lists A's tools, not B's", async () => {
      const response = await mcp(a.jwt, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { tenant_id: b.tenantId } } });
      expect(response.status).toBe(200);
      const listed = (response.body.result.tools as Array<{ name: string }>).map((tool) => tool.name);
      const own = (await gateway(testApp, 'GET', '/actions', { token: a.jwt })).body.actions.map((action: { name: string }) => action.name);
      expect(listed.sort()).toEqual(own.sort());
      const bOnly = (await gateway(testApp, 'GET', '/actions', { token: b.jwt })).body.actions.map((action: { name: string }) => action.name).filter((n: string) => !own.includes(n));
      expect(bOnly.length).toBeGreaterThan(0);
      for (const other of bOnly) expect(listed).not.toContain(other);
    });
  });
});

describe('the rate limit, end to end', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '4', TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE: '1000000' } });
  });
  afterAll(() => testApp?.close());

  it("gives two API tokens of one tenant one budget: requests with either count against both, and another tenant's stays whole", async () => {
    const tenant = await createTenant(testApp);
    const second = (await admin(testApp, 'POST', `/tenants/${tenant.tenantId}/api-tokens`, { name: 'second' })).body.api_token.token as string;
    const exchanged = await gateway(testApp, 'POST', '/token/exchange', { body: { api_token: second } });
    expect(exchanged.status).toBe(200);
    const jwts = [tenant.jwt, exchanged.body.jwt_token as string];

    const remaining: string[] = [];
    for (let index = 0; index < 4; index++) {
      const response = await gateway(testApp, 'GET', '/actions', { token: jwts[index % 2] });
      expect(response.status).toBe(200);
      remaining.push(response.headers.get('x-ratelimit-remaining') ?? '');
    }
    expect(remaining).toEqual(['3', '2', '1', '0']);
    for (const jwt of jwts) {
      const limited = await gateway(testApp, 'GET', '/actions', { token: jwt });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ error: 'Rate limit exceeded' });
    }

    const other = await createTenant(testApp);
    const fresh = await gateway(testApp, 'GET', '/actions', { token: other.jwt });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-ratelimit-remaining')).toBe('3');
  });
});
