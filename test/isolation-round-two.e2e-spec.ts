import { request as httpRequest } from 'node:http';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { call } from './support/http';
import { ok, Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Issue 27, tenant isolation round two: each row of the issue's table, replayed as the hostile tenant (or the
 * anonymous client) did, with what must now hold. The schema worker's latency is measured by bench/isolation.mjs
 * (docs/reliability.md); here the attacks' effects are checked, not timed to the millisecond.
 */

/** A GET with its path sent exactly as written (fetch and `new URL` would resolve its `..` segments first). */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; headers: Record<string, unknown>; body: unknown }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, path, method: 'GET' }, (response) => {
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
        const response = await rawGet(testApp.baseUrl, path);
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
      expect((await rawGet(testApp.baseUrl, script)).status).toBe(200);
    });
  });
});
