import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { join } from 'node:path';
import { actionBody, admin, createTenant, gateway } from './support/factories';
import { Receiver } from './support/receiver';
import { bareCall, call, TestResponse } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

type Operation = {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; schema?: unknown }[];
  responses: Record<string, { description?: string; headers?: Record<string, { $ref: string }> }>;
};

function operationsOf(document: any): Operation[] {
  return Object.values(document.paths as Record<string, Record<string, Operation>>).flatMap((item) => Object.values(item));
}

function operation(document: any, id: string): Operation {
  const found = operationsOf(document).find((candidate) => candidate.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
}

/** The header names the document promises on one response of one operation. */
function documentedHeaders(document: any, id: string, status: number): string[] {
  const response = operation(document, id).responses[String(status)];
  if (!response) throw new Error(`${id} does not document ${status}`);
  return Object.values(response.headers ?? {}).map(({ $ref }) => $ref.replace('#/components/headers/', ''));
}

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
      'GET /api/v1/admin/tenants/{tenant_id}/actions/{action_name}/circuit',
      'GET /api/v1/admin/tenants/{tenant_id}/actions/{action_name}/executions',
      'GET /api/v1/admin/tenants/{tenant_id}/actions/{action_name}/executions/{execution_id}',
      'GET /api/v1/admin/tenants/{tenant_id}/actions/{action_name}/log-settings',
      'GET /api/v1/admin/tenants/{tenant_id}/actions/{action_name}/replays/{replay_id}',
      'GET /api/v1/admin/tenants/{tenant_id}/api-tokens',
      'GET /api/v1/admin/tenants/{tenant_id}/executions',
      'GET /api/v1/admin/tenants/{tenant_id}/executions/{execution_id}',
      'GET /api/v1/admin/tenants/{tenant_id}/hmac-keys',
      'GET /api/v1/admin/tenants/{tenant_id}/stats',
      'GET /api/v1/gateway/actions',
      'GET /api/v1/gateway/actions/{action_name}',
      'GET /api/v1/gateway/actions/{action_name}/executions',
      'GET /api/v1/gateway/actions/{action_name}/executions/{execution_id}',
      'GET /api/v1/gateway/actions/{action_name}/log-settings',
      'GET /api/v1/gateway/actions/{action_name}/replays/{replay_id}',
      'GET /api/v1/gateway/executions',
      'GET /api/v1/gateway/executions/{execution_id}',
      'GET /api/v1/gateway/stats',
      'GET /api/v1/gateway/tools',
      'PATCH /api/v1/admin/tenants/{tenant_id}',
      'POST /api/v1/admin/portal-links/inspect',
      'POST /api/v1/admin/portal-links/redeem',
      'POST /api/v1/admin/session',
      'POST /api/v1/admin/tenants',
      'POST /api/v1/admin/tenants/{tenant_id}/actions',
      'POST /api/v1/admin/tenants/{tenant_id}/actions/{action_name}/execute',
      'POST /api/v1/admin/tenants/{tenant_id}/actions/{action_name}/executions/replay',
      'POST /api/v1/admin/tenants/{tenant_id}/actions/{action_name}/executions/{execution_id}/replay',
      'POST /api/v1/admin/tenants/{tenant_id}/api-tokens',
      'POST /api/v1/admin/tenants/{tenant_id}/hmac-keys',
      'POST /api/v1/admin/tenants/{tenant_id}/portal-links',
      'POST /api/v1/gateway/actions',
      'POST /api/v1/gateway/actions/{action_name}/execute',
      'POST /api/v1/gateway/actions/{action_name}/executions/replay',
      'POST /api/v1/gateway/actions/{action_name}/executions/{execution_id}/replay',
      'POST /api/v1/gateway/mcp',
      'POST /api/v1/gateway/token/exchange',
      'PUT /api/v1/admin/tenants/{tenant_id}/actions/{action_name}',
      'PUT /api/v1/admin/tenants/{tenant_id}/actions/{action_name}/log-settings',
      'PUT /api/v1/gateway/actions/{action_name}',
      'PUT /api/v1/gateway/actions/{action_name}/log-settings',
    ]);
    const create = document.paths['/api/v1/gateway/actions'].post;
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '409', '413', '429', '503']);
    expect(create.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/CreateActionRequest');
    expect(document.components.schemas.CreateActionRequest.required).toEqual(['name', 'description', 'webhook_url', 'json_schema']);
    expect(document.components.schemas.ActionDto.properties.name.pattern).toBe('^[a-z0-9_]+$');
    expect(document.paths['/api/v1/gateway/tools'].get.parameters).toEqual([
      { name: 'format', required: true, in: 'query', schema: { enum: ['openai', 'openai-responses', 'anthropic', 'mcp'], type: 'string' } },
    ]);
    const mcp = document.paths['/api/v1/gateway/mcp'].post;
    expect(Object.keys(mcp.responses).sort()).toEqual(['200', '202', '400', '401', '403', '406', '413', '429', '503']);
    expect(mcp.responses['403'].content['application/json'].example).toEqual({ error: 'Origin not allowed', details: "Origin: must be this service's own or one of MCP_ALLOWED_ORIGINS (or no Origin at all)" });
    expect(mcp.responses['401'].headers['WWW-Authenticate']).toEqual({ $ref: '#/components/headers/WWW-Authenticate' });
  });

  it('names operations for generated clients and documents the 400/413 of a body, the 503 of every operation and the 403 of console sessions', async () => {
    const document = (await call(testApp.baseUrl, 'GET', '/api/v1/gateway/openapi.json')).body;
    expect(operationsOf(document).map((candidate) => candidate.operationId).sort()).toEqual(
      [
        'exchangeToken', 'listActions', 'createAction', 'getAction', 'updateAction', 'deleteAction', 'executeAction', 'listExecutions',
        'createTenant', 'listTenants', 'getTenant', 'updateTenant', 'createApiToken', 'listApiTokens', 'revokeApiToken',
        'createHmacKey', 'listHmacKeys', 'revokeHmacKey', 'listTools', 'mcpRequest',
        // The console's calls (issue 13): sessions, portal links, a tenant's actions and executions.
        'signIn', 'getSession', 'signOut', 'createPortalLink', 'redeemPortalLink', 'inspectPortalLink',
        'listTenantActions', 'createTenantAction', 'getTenantAction', 'updateTenantAction', 'deleteTenantAction',
        'executeTenantAction', 'listTenantActionExecutions', 'getTenantActionExecution', 'getTenantActionCircuit',
        // The delivery log (issue 29).
        'getExecution', 'replayExecution', 'listTenantExecutions', 'getExecutionStats', 'getLogSettings', 'updateLogSettings',
        'replayTenantActionExecution', 'getTenantActionLogSettings', 'updateTenantActionLogSettings',
        'replayFailedExecutions', 'getBulkReplay', 'replayFailedTenantActionExecutions', 'getTenantBulkReplay',
        // The console's tenant-wide log and charts.
        'listTenantLog', 'getTenantExecution', 'getTenantStats',
        // A tenant's developer holding only an execution id (issue 41).
        'getExecutionById',
      ].sort(),
    );
    // Every operation that takes a body can meet the 1 MB limit; a DELETE or a POST that needs none still reads
    // one that is sent (a malformed one is a 400).
    const bodyTaking = Object.values(document.paths as Record<string, Record<string, Operation>>).flatMap((item) =>
      Object.entries(item).filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method)).map(([, candidate]) => candidate),
    );
    expect(bodyTaking.map((candidate) => candidate.operationId)).toEqual(
      expect.arrayContaining([
        'exchangeToken', 'createAction', 'updateAction', 'executeAction', 'createTenant', 'updateTenant', 'createApiToken', 'createHmacKey',
        'signIn', 'redeemPortalLink', 'createTenantAction', 'updateTenantAction', 'executeTenantAction', 'createPortalLink',
        'deleteAction', 'revokeApiToken', 'revokeHmacKey', 'deleteTenantAction', 'signOut',
        'replayFailedExecutions', 'replayFailedTenantActionExecutions', 'replayExecution', 'replayTenantActionExecution',
        'updateLogSettings', 'updateTenantActionLogSettings',
      ]),
    );
    for (const candidate of bodyTaking) {
      expect([candidate.operationId, Object.keys(candidate.responses)]).toEqual([candidate.operationId, expect.arrayContaining(['400', '413'])]);
    }
    // Every operation reads the database: 503 when it is unreachable or its migrations are pending (contract).
    for (const candidate of operationsOf(document)) expect([candidate.operationId, candidate.responses['503']?.description]).toEqual([candidate.operationId, expect.any(String)]);
    // The management API with a console session: 403 for a change without X-CSRF-Token, or a tenant session on an
    // operation for operators; and every id in a path is a UUID.
    for (const candidate of operationsOf(document).filter((candidate) => JSON.stringify(candidate.security).includes('"admin"'))) {
      expect([candidate.operationId, candidate.responses['403']?.description]).toEqual([candidate.operationId, expect.stringContaining('X-CSRF-Token')]);
    }
    expect(operation(document, 'revokeHmacKey').parameters?.map((parameter) => [parameter.name, parameter.schema])).toEqual([
      ['tenant_id', { type: 'string', format: 'uuid' }],
      ['key_id', { type: 'string', format: 'uuid' }],
    ]);
    expect(operation(document, 'exchangeToken').security).toEqual([]);
    expect(operation(document, 'listActions').security).toEqual([{ bearer: [] }]);
    expect(operation(document, 'createTenant').security).toEqual([{ console: [] }, { admin: [] }]);
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(document.components.securitySchemes.admin).toEqual({ type: 'http', scheme: 'bearer', description: expect.any(String) });
    // The console signs in without credentials, then uses its cookie where the admin key is taken.
    expect(operation(document, 'signIn').security).toEqual([]);
    expect(operation(document, 'redeemPortalLink').security).toEqual([]);
    // Reading and ending the session answer without one too ({"session":null}, 204): the cookie is optional.
    expect(operation(document, 'getSession').security).toEqual([{ console: [] }, {}]);
    expect(operation(document, 'signOut').security).toEqual([{ console: [] }, {}]);
    expect(operation(document, 'executeTenantAction').security).toEqual(expect.arrayContaining([{ admin: [] }, { console: [] }]));
    expect(document.components.securitySchemes.console).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'agw_console_session' });
  });

  it('describes the bare origin as the server, and the schemas as the spec states them', async () => {
    const document = (await call(testApp.baseUrl, 'GET', '/api/v1/gateway/openapi.json')).body;
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: '/', description: expect.stringContaining('/api/v1/gateway') }]);
    expect(document.info.description).toContain('`{base_url}` ends in `/api/v1/gateway`');
    expect(document.components.schemas.TokenExchangeResponse.properties.expires_in).toMatchObject({ type: 'integer', example: 86400 });
    // What the schemas accept is what the service accepts: an update needs one of its three fields, and a
    // webhook URL the service takes (a query with ids[]) is one its answers may carry.
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: document.components });
    const updateBody = ajv.compile({ $ref: 'doc#/components/schemas/UpdateActionRequest' });
    expect([{ description: 'd' }, { webhook_url: 'https://x.example/h' }, { json_schema: {}, name: 'ignored' }].map((body) => updateBody(body))).toEqual([true, true, true]);
    expect([{ name: 'renamed' }, { id: 'x' }, {}].map((body) => updateBody(body))).toEqual([false, false, false]);
    const action = ajv.compile({ $ref: 'doc#/components/schemas/ActionDto' });
    const stored = { id: '01a211aa-0b1a-71e6-90d9-c6da6490b1e0', tenant_id: '01a211aa-0b1a-71e6-90d9-c6da6490b1e0', name: 'a', description: 'd', json_schema: {} };
    const times = { created_at: '2026-11-22T01:02:03.456Z', updated_at: '2026-11-22T01:02:03.456Z' };
    expect(action({ ...stored, ...times, webhook_url: 'http://127.0.0.1:4714/hook?ids[]=1#a#b' })).toBe(true);
    expect(action({ ...stored, ...times, webhook_url: 'ftp://example.com/' })).toBe(false);
    // An execution's body may be left out (parameters default to {}); other bodies are required.
    expect((operation(document, 'executeAction') as any).requestBody).toMatchObject({ required: false, content: { 'application/json': { schema: { $ref: '#/components/schemas/ExecuteActionRequest' } } } });
    expect((operation(document, 'executeTenantAction') as any).requestBody.required).toBe(false);
    expect((operation(document, 'createAction') as any).requestBody.required).toBe(true);
    for (const id of ['getAction', 'updateAction', 'deleteAction', 'executeAction', 'listExecutions']) {
      const parameter = (operation(document, id) as any).parameters.find((candidate: { name: string }) => candidate.name === 'action_name');
      expect(parameter).toMatchObject({ in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9_]+$', minLength: 1, maxLength: 100 } });
    }
    // The example json_schema is a real one (it once held the Object constructor, which broke Swagger UI).
    expect(document.components.schemas.CreateActionRequest.properties.json_schema.example).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
  });

  it("gives each operation's own error texts as its examples, and they are the texts the service answers", async () => {
    const document = (await call(testApp.baseUrl, 'GET', '/api/v1/gateway/openapi.json')).body;
    const examplesOf = (id: string, status: number): unknown[] => {
      const content = (operation(document, id).responses[String(status)] as any).content['application/json'];
      return content.examples ? Object.values(content.examples).map((named: any) => named.value) : [content.example];
    };
    const receiver = await Receiver.start();
    try {
      const keyless = await createTenant(testApp, { hmacKey: false });
      const created = await gateway(testApp, 'POST', '/actions', { token: keyless.jwt, body: actionBody(receiver.url()) });
      expect(created.status).toBe(201);
      const unknownTenant = '01a211aa-0b1a-71e6-90d9-c6da6490b1e0';
      const cases: Array<[string, number, TestResponse]> = [
        ['executeAction', 409, await gateway(testApp, 'POST', `/actions/${created.body.action.name}/execute`, { token: keyless.jwt, body: { parameters: { city: 'Oslo' } } })],
        ['executeAction', 400, await gateway(testApp, 'POST', `/actions/${created.body.action.name}/execute`, { token: keyless.jwt, body: { parameters: 1 } })],
        ['listExecutions', 400, await gateway(testApp, 'GET', `/actions/${created.body.action.name}/executions?limit=0`, { token: keyless.jwt })],
        ['exchangeToken', 400, await gateway(testApp, 'POST', '/token/exchange', { body: {} })],
        ['listTools', 400, await gateway(testApp, 'GET', '/tools?format=x', { token: keyless.jwt })],
        ['getTenant', 404, await admin(testApp, 'GET', `/tenants/${unknownTenant}`)],
        ['createApiToken', 400, await admin(testApp, 'POST', `/tenants/${keyless.tenantId}/api-tokens`, {})],
        ['createHmacKey', 400, await call(testApp.baseUrl, 'POST', `/api/v1/admin/tenants/${keyless.tenantId}/hmac-keys`, { token: testApp.config.adminApiKey, raw: '[]' })],
        ['revokeApiToken', 404, await admin(testApp, 'DELETE', `/tenants/${keyless.tenantId}/api-tokens/${unknownTenant}`)],
        ['revokeHmacKey', 404, await admin(testApp, 'DELETE', `/tenants/${keyless.tenantId}/hmac-keys/${unknownTenant}`)],
        ['updateTenant', 400, await admin(testApp, 'PATCH', `/tenants/${keyless.tenantId}`, { status: 'deleted' })],
        ['signIn', 400, await call(testApp.baseUrl, 'POST', '/api/v1/admin/session', { body: {} })],
        ['deleteAction', 400, await gateway(testApp, 'DELETE', `/actions/${created.body.action.name}`, { token: keyless.jwt, raw: '[]' })],
        ['signOut', 400, await call(testApp.baseUrl, 'DELETE', '/api/v1/admin/session', { raw: '[]' })],
      ];
      // A GET's body is ignored, as the description says.
      const read = await bareCall(`${testApp.baseUrl}/api/v1/gateway/actions/${created.body.action.name}`, 'GET', { authorization: `Bearer ${keyless.jwt}` }, '[');
      expect(read.status).toBe(200);
      for (const [id, status, response] of cases) {
        expect([id, response.status]).toEqual([id, status]);
        expect([id, examplesOf(id, status)]).toEqual([id, expect.arrayContaining([response.body])]);
      }
    } finally {
      await receiver.stop();
    }
  });

  it('documents the response headers: X-Request-Id everywhere, the budget on tenant endpoints, Retry-After on 429', async () => {
    const document = (await call(testApp.baseUrl, 'GET', '/api/v1/gateway/openapi.json')).body;
    const budget = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
    for (const candidate of operationsOf(document)) {
      for (const [status, response] of Object.entries(candidate.responses)) {
        expect([candidate.operationId, status, Object.keys(response.headers ?? {})]).toEqual([candidate.operationId, status, expect.arrayContaining(['X-Request-Id'])]);
      }
    }
    expect(documentedHeaders(document, 'getAction', 200)).toEqual(['X-Request-Id', ...budget]);
    expect(documentedHeaders(document, 'getAction', 404)).toEqual(['X-Request-Id', ...budget]);
    expect(documentedHeaders(document, 'getAction', 401)).toEqual(['X-Request-Id', 'WWW-Authenticate']);
    expect(documentedHeaders(document, 'createAction', 413)).toEqual(['X-Request-Id']);
    expect(documentedHeaders(document, 'getAction', 429)).toEqual(['X-Request-Id', ...budget, 'Retry-After']);
    expect(documentedHeaders(document, 'exchangeToken', 200)).toEqual(['X-Request-Id']);
    expect(documentedHeaders(document, 'exchangeToken', 429)).toEqual(['X-Request-Id', ...budget, 'Retry-After']);
    expect(documentedHeaders(document, 'createTenant', 201)).toEqual(['X-Request-Id']);
    expect(documentedHeaders(document, 'createTenant', 401)).toEqual(['X-Request-Id', 'WWW-Authenticate']);
    expect(Object.keys(document.components.headers).sort()).toEqual(['Retry-After', 'WWW-Authenticate', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id']);
  });

  it('sends the headers it documents', async () => {
    const document = (await call(testApp.baseUrl, 'GET', '/api/v1/gateway/openapi.json')).body;
    const tenant = await createTenant(testApp);
    const check = (id: string, response: TestResponse) => {
      for (const name of documentedHeaders(document, id, response.status)) expect([id, response.status, name, response.headers.has(name)]).toEqual([id, response.status, name, true]);
      // And no budget where none is documented (a 401 was refused before the tenant was known).
      if (!documentedHeaders(document, id, response.status).includes('X-RateLimit-Limit')) expect(response.headers.has('x-ratelimit-limit')).toBe(false);
    };
    check('listActions', await gateway(testApp, 'GET', '/actions', { token: tenant.jwt }));
    check('getAction', await gateway(testApp, 'GET', '/actions/nothing_here', { token: tenant.jwt }));
    check('getAction', await gateway(testApp, 'GET', '/actions/nothing_here', { token: 'not-a-jwt' }));
    check('createAction', await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: { name: 'x' } }));
    check('exchangeToken', await gateway(testApp, 'POST', '/token/exchange', { body: { api_token: tenant.apiToken } }));
    check('listTenants', await call(testApp.baseUrl, 'GET', '/api/v1/admin/tenants', { token: tenant.jwt }));
    const limited = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '1' } });
    try {
      const limitedTenant = await createTenant(limited);
      await gateway(limited, 'GET', '/actions', { token: limitedTenant.jwt });
      const refused = await gateway(limited, 'GET', '/actions', { token: limitedTenant.jwt });
      expect(refused.status).toBe(429);
      check('listActions', refused);
    } finally {
      await limited.close();
    }
  });

  it('describes the webhook call and answer (spec 2.4, 2.5) with the Standard Webhooks headers', async () => {
    const document = (await call(testApp.baseUrl, 'GET', '/api/v1/gateway/openapi.json')).body;
    expect(Object.keys(document.webhooks).sort()).toEqual(['actionExecution', 'registrationTest']);
    // Read by tenants' developers in the served reference (the console links it): no file of this repository is
    // named as the place to look, the verification is said in place.
    expect(JSON.stringify([document.webhooks, document.components.securitySchemes])).not.toMatch(/docs\/[\w-]+\.md/);
    expect(document.components.securitySchemes.webhookSignature.description).toContain('any Standard Webhooks library');
    const execution = document.webhooks.actionExecution.post;
    expect(execution.operationId).toBe('receiveActionExecution');
    expect(execution.parameters.map((parameter: { name: string; in: string; required: boolean }) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ['webhook-id', 'header', true],
      ['webhook-timestamp', 'header', true],
      ['webhook-signature', 'header', true],
      // W3C Trace Context (issue 31): every call carries traceparent, tracestate when the trace has one.
      ['traceparent', 'header', true],
      ['tracestate', 'header', false],
    ]);
    expect(execution.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/WebhookCallDto');
    expect(execution.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/WebhookAnswerDto');
    expect(execution.responses['401'].content['application/json'].example).toEqual({ error: 'Invalid signature' });
    const test = document.webhooks.registrationTest.post;
    expect(test.parameters.find((parameter: { name: string }) => parameter.name === 'webhook-signature').required).toBe(false);
    expect(test.security).toEqual([{ webhookSignature: [] }, {}]);
    const webhookCall = document.components.schemas.WebhookCallDto;
    expect(Object.keys(webhookCall.properties)).toEqual(['action_name', 'parameters', 'timestamp', 'test', 'signature']);
    expect(webhookCall.required).toEqual(['action_name', 'parameters', 'timestamp']);
    expect(webhookCall.properties.timestamp.type).toBe('integer');
    expect(document.components.schemas.WebhookAnswerDto.required).toEqual(['result', 'error']);
  });

  it('describes every response, and the body POST .../hmac-keys takes (none, or an ignored JSON object) as it is', async () => {
    const document = (await call(testApp.baseUrl, 'GET', '/api/v1/gateway/openapi.json')).body;
    const undescribed = operationsOf(document).flatMap((op) => Object.entries(op.responses).filter(([, response]) => !response.description).map(([status]) => `${op.operationId} ${status}`));
    expect(undescribed).toEqual([]);
    const create = operation(document, 'createHmacKey') as Operation & { requestBody?: { required?: boolean; content: Record<string, { schema: object }> } };
    expect(create.requestBody?.required).toBe(false);
    const schema = create.requestBody!.content['application/json'].schema;
    const accepts = new Ajv2020({ strict: false }).compile(schema);
    // What the console and other clients send is what the document allows, and the service takes it.
    const tenant = await createTenant(testApp, { hmacKey: false });
    for (const body of [undefined, {}, { note: 'ignored' }]) {
      if (body !== undefined) expect(accepts(body)).toBe(true);
      expect((await admin(testApp, 'POST', `/tenants/${tenant.tenantId}/hmac-keys`, body)).status).toBe(201);
    }
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
