import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { call } from './support/http';
import { ok, Receiver } from './support/receiver';
import { loadConfig } from '../src/config/load-config';
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
