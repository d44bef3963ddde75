import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

describe('OpenAPI description', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });
  afterAll(() => testApp.close());

  it('is served as JSON and describes every endpoint with its errors', async () => {
    const response = await call(testApp.baseUrl, 'GET', '/api/v1/gateway/openapi.json');
    expect(response.status).toBe(200);
    const document = response.body;
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe('1.0.0');
    const operations = Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>).flatMap(
      ([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    const names = operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort();
    expect(names).toEqual([
      'DELETE /api/v1/admin/session',
      'DELETE /api/v1/admin/tenants/{tenant_id}/actions/{action_name}',
      'DELETE /api/v1/admin/tenants/{tenant_id}/api-tokens/{token_id}',
      'DELETE /api/v1/admin/tenants/{tenant_id}/hmac-keys/{key_id}',
      'DELETE /api/v1/gateway/actions/{action_name}',
      'GET /api/v1/admin/session',
      'GET /api/v1/admin/tenants',
      'GET /api/v1/admin/tenants/{tenant_id}',
      'GET /api/v1/admin/tenants/{tenant_id}/actions',
      'GET /api/v1/admin/tenants/{tenant_id}/actions/{action_name}',
      'GET /api/v1/admin/tenants/{tenant_id}/actions/{action_name}/executions',
      'GET /api/v1/admin/tenants/{tenant_id}/actions/{action_name}/executions/{execution_id}',
      'GET /api/v1/admin/tenants/{tenant_id}/api-tokens',
      'GET /api/v1/admin/tenants/{tenant_id}/hmac-keys',
      'GET /api/v1/gateway/actions',
      'GET /api/v1/gateway/actions/{action_name}',
      'GET /api/v1/gateway/actions/{action_name}/executions',
      'PATCH /api/v1/admin/tenants/{tenant_id}',
      'POST /api/v1/admin/portal-links/redeem',
      'POST /api/v1/admin/session',
      'POST /api/v1/admin/tenants',
      'POST /api/v1/admin/tenants/{tenant_id}/actions',
      'POST /api/v1/admin/tenants/{tenant_id}/actions/{action_name}/execute',
      'POST /api/v1/admin/tenants/{tenant_id}/api-tokens',
      'POST /api/v1/admin/tenants/{tenant_id}/hmac-keys',
      'POST /api/v1/admin/tenants/{tenant_id}/portal-links',
      'POST /api/v1/gateway/actions',
      'POST /api/v1/gateway/actions/{action_name}/execute',
      'POST /api/v1/gateway/token/exchange',
      'PUT /api/v1/admin/tenants/{tenant_id}/actions/{action_name}',
      'PUT /api/v1/gateway/actions/{action_name}',
    ]);
    const create = document.paths['/api/v1/gateway/actions'].post;
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '409', '413', '429']);
    expect(create.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/CreateActionRequest');
    expect(document.components.schemas.CreateActionRequest.required).toEqual(['name', 'description', 'webhook_url', 'json_schema']);
    expect(document.components.schemas.ActionDto.properties.name.pattern).toBe('^[a-z0-9_]+$');
  });

  it('serves Swagger UI', async () => {
    const response = await call(testApp.baseUrl, 'GET', '/api/v1/gateway/docs');
    expect(response.status).toBe(200);
    expect(response.text).toContain('swagger');
  });

  it('matches the committed openapi.json (npm run openapi regenerates it)', async () => {
    const served = (await call(testApp.baseUrl, 'GET', '/api/v1/gateway/openapi.json')).body;
    const committed = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8'));
    expect(served).toEqual(committed);
  });
});
