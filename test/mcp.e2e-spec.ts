import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ListToolsResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { verifyWebhook } from '@action-gateway/receiver-kit';
import { EXECUTION_META_KEY, TOOLS_PAGE_SIZE } from '../src/tools/mcp/mcp-endpoint';
import { bareCall, call } from './support/http';
import { actionBody, createTenant, gateway, TestTenant } from './support/factories';
import { eventually } from './support/eventually';
import { Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

const MCP_PATH = '/api/v1/gateway/mcp';
const JSON_RPC_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** The SDK's own client over Streamable HTTP, with the bearer token as a header; `fetch` may route each request. */
async function connect(baseUrl: string, token: string, fetchImpl?: typeof fetch): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(MCP_PATH, baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: fetchImpl,
  });
  await client.connect(transport);
  return client;
}

/** One raw JSON-RPC request, as any HTTP client would send it. */
function rpc(testApp: TestApp, body: unknown, headers: Record<string, string> = {}) {
  return call(testApp.baseUrl, 'POST', MCP_PATH, { body, headers: { ...JSON_RPC_HEADERS, ...headers } });
}

function textOf(result: unknown): string {
  const [first] = (result as { content: { type: string; text: string }[] }).content;
  expect(first.type).toBe('text');
  return first.text;
}

describe('the MCP server (/mcp) with the SDK client', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let tenant: TestTenant;
  let client: Client;
  let weather: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await Receiver.start();
    tenant = await createTenant(testApp);
    const body = actionBody(receiver.url(), {
      description: 'Current weather for a city',
      json_schema: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'] },
    });
    weather = body.name;
    expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body })).status).toBe(201);
    client = await connect(testApp.baseUrl, tenant.jwt);
  });
  afterAll(async () => {
    await client?.close();
    await receiver.stop();
    await testApp.close();
  });

  it('introduces itself with the tools capability', () => {
    expect(client.getServerVersion()).toEqual({ name: 'action-gateway', version: '1.0.0' });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
  });

  it("lists the tenant's actions as tools whose inputSchema is the action's json_schema", async () => {
    const listed = await client.listTools();
    expect(ListToolsResultSchema.safeParse(listed).success).toBe(true);
    expect(listed.tools).toEqual([
      {
        name: weather,
        description: 'Current weather for a city',
        inputSchema: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'] },
        execution: { taskSupport: 'optional' },
        // Every call may carry an idempotency key: where it goes, and how long it holds.
        _meta: { 'action-gateway/idempotency-key': { header: 'Idempotency-Key', mcp_meta_key: 'io.modelcontextprotocol/idempotency-key', retention_hours: 24 } },
      },
    ]);
    expect(listed.nextCursor).toBeUndefined();
  });

  it('runs a call as execute does: a signed POST the receiver verifies, the result as text, the execution id in _meta', async () => {
    receiver.calls.length = 0;
    receiver.behaviour = (_, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"Sunny in Oslo","error":""}');
    const result = await client.callTool({ name: weather, arguments: { city: 'Oslo' } });
    expect(CallToolResultSchema.safeParse(result).success).toBe(true);
    expect(textOf(result)).toBe('Sunny in Oslo');
    expect(result.isError).toBe(false);

    expect(receiver.calls).toHaveLength(1);
    const [received] = receiver.calls;
    const verified = verifyWebhook(received.body, received.headers, tenant.hmacKey);
    expect(verified).toEqual({ ok: true, payload: expect.objectContaining({ action_name: weather, parameters: { city: 'Oslo' } }) });

    const execution = (result._meta as Record<string, any>)[EXECUTION_META_KEY];
    expect(execution).toMatchObject({ action_name: weather, status: 'succeeded', http_status: 200, result: 'Sunny in Oslo', error: '', attempts: 1 });
    expect(received.headers['webhook-id']).toBe(execution.id);
    const log = await gateway(testApp, 'GET', `/actions/${weather}/executions`, { token: tenant.jwt });
    expect(log.body.executions[0]).toEqual({ ...execution, replay_of: null });
  });

  it('forwards numbers and key order as the caller wrote them, as execute does', async () => {
    receiver.calls.length = 0;
    receiver.behaviour = (_, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok","error":""}');
    const auth = { authorization: `Bearer ${tenant.jwt}` };
    const raw = (args: string) =>
      call(testApp.baseUrl, 'POST', MCP_PATH, {
        raw: `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"${weather}","arguments":${args}}}`,
        headers: { ...JSON_RPC_HEADERS, ...auth },
      });
    const big = await raw('{"city":"Oslo","count":9007199254740993}');
    expect(big.body.result.isError).toBe(false);
    expect(receiver.calls[0].body).toContain('"count":9007199254740993');
    const ordered = await raw('{"city":"Oslo","2":"b","1":"a"}');
    expect(ordered.body.result.isError).toBe(false);
    expect(receiver.calls[1].body).toContain('"parameters":{"city":"Oslo","2":"b","1":"a"}');
    const inexact = await raw('{"city":"Oslo","ratio":0.1000000000000000055511151231257827}');
    expect(inexact.body.result.isError).toBe(true);
    expect(inexact.body.result.content[0].text).toMatch(/^Invalid parameters: parameters\.ratio: /);
    expect(receiver.calls).toHaveLength(2);
  });

  it('answers a task-augmented tools/call with its task at once, and processes other methods as plain ones (MCP 2025-11-25, Tasks)', async () => {
    receiver.behaviour = (_, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"Sunny in Oslo","error":""}');
    const auth = { authorization: `Bearer ${tenant.jwt}` };
    const ids: string[] = [];
    for (const task of [{ ttl: 60_000 }, {}]) {
      const response = await rpc(testApp, { jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: weather, arguments: { city: 'Oslo' }, task } }, auth);
      expect(response.body.result.task).toMatchObject({ status: 'working', ttl: 30 * 86_400_000, pollInterval: 1_000 });
      ids.push(response.body.result.task.taskId);
    }
    const malformed = await rpc(testApp, { jsonrpc: '2.0', id: 13, method: 'tools/call', params: { name: weather, arguments: { city: 'Oslo' }, task: 5 } }, auth);
    expect(malformed.body.error).toEqual({ code: -32602, message: 'Invalid params: params.task: must be an object' });
    // tools/list takes no task: the field is ignored, as the protocol asks of a request type without task support.
    const listed = await rpc(testApp, { jsonrpc: '2.0', id: 14, method: 'tools/list', params: { task: {} } }, auth);
    expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual([weather]);
    // The tasks run in the background; the next tests count the receiver's calls.
    await eventually(() => expect(ids.map((id) => receiver.calls.some((received) => received.headers['webhook-id'] === id))).toEqual([true, true]));
  });

  it("marks a call isError when the receiver answers an error, with the receiver's text", async () => {
    receiver.behaviour = (_, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"","error":"city not found"}');
    const result = await client.callTool({ name: weather, arguments: { city: 'Atlantis' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('city not found');
    expect((result._meta as Record<string, any>)[EXECUTION_META_KEY]).toMatchObject({ status: 'failed', error: 'city not found' });
  });

  it('marks a call isError when the delivery fails, after the retries', async () => {
    receiver.calls.length = 0;
    receiver.behaviour = (_, response) => response.writeHead(500).end();
    const result = await client.callTool({ name: weather, arguments: { city: 'Oslo' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('webhook endpoint returned status 500');
    expect((result._meta as Record<string, any>)[EXECUTION_META_KEY]).toMatchObject({ status: 'failed', http_status: 500, attempts: 3 });
    expect(receiver.calls).toHaveLength(3);
  });

  it('answers invalid parameters with a tool error naming the problem, sending and storing nothing', async () => {
    receiver.calls.length = 0;
    const before = (await gateway(testApp, 'GET', `/actions/${weather}/executions`, { token: tenant.jwt })).body.executions.length;
    for (const [parameters, problem] of [
      [{ city: 7 }, 'Invalid parameters: parameters.city: must be string'],
      [{}, "Invalid parameters: parameters: must have required property 'city'"],
      [{ city: '' }, 'Invalid parameters: parameters.city: must NOT have fewer than 1 characters'],
    ] as const) {
      const result = await client.callTool({ name: weather, arguments: parameters });
      expect(result).toEqual({ content: [{ type: 'text', text: problem }], isError: true });
    }
    expect(receiver.calls).toHaveLength(0);
    expect((await gateway(testApp, 'GET', `/actions/${weather}/executions`, { token: tenant.jwt })).body.executions).toHaveLength(before);
  });

  it("cannot tell another tenant's tool from one that does not exist", async () => {
    const other = await createTenant(testApp);
    const otherClient = await connect(testApp.baseUrl, other.jwt);
    try {
      expect((await otherClient.listTools()).tools).toEqual([]);
      const errors: McpError[] = [];
      for (const name of [weather, 'no_such_action']) {
        errors.push(await otherClient.callTool({ name, arguments: { city: 'Oslo' } }).then(() => undefined as never, (error: McpError) => error));
      }
      expect(errors.map((error) => [error.code, error.message])).toEqual([
        [-32602, `MCP error -32602: Unknown tool: ${weather}`],
        [-32602, 'MCP error -32602: Unknown tool: no_such_action'],
      ]);
      const raw = await Promise.all(
        [weather, 'no_such_action'].map((name) =>
          rpc(testApp, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: {} } }, { authorization: `Bearer ${other.jwt}` }),
        ),
      );
      expect(raw.map((response) => response.body.error)).toEqual([
        { code: -32602, message: `Unknown tool: ${weather}` },
        { code: -32602, message: 'Unknown tool: no_such_action' },
      ]);
      // A name no action can have (outside [a-z0-9_], empty, a path) is unknown in the same words.
      for (const name of ['Act_01', ` ${weather}`, '', '../actions', 'tool\nname', 'ünïcode']) {
        const refused = await rpc(testApp, { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name, arguments: {} } }, { authorization: `Bearer ${tenant.jwt}` });
        expect([name, refused.body.error]).toEqual([name, { code: -32602, message: `Unknown tool: ${name}` }]);
      }
    } finally {
      await otherClient.close();
    }
  });

  it('tells the model when the tenant has no HMAC key, without sending anything', async () => {
    const keyless = await createTenant(testApp, { hmacKey: false });
    const body = actionBody(receiver.url());
    receiver.behaviour = (_, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok","error":""}');
    expect((await gateway(testApp, 'POST', '/actions', { token: keyless.jwt, body })).status).toBe(201);
    const keylessClient = await connect(testApp.baseUrl, keyless.jwt);
    try {
      expect(await keylessClient.callTool({ name: body.name, arguments: { city: 'Oslo' } })).toEqual({
        content: [{ type: 'text', text: 'no active HMAC key for this tenant' }],
        isError: true,
      });
    } finally {
      await keylessClient.close();
    }
  });

  it('refuses a missing, invalid or expired token with 401 and a WWW-Authenticate challenge', async () => {
    const expired = jwt.sign(
      { sub: tenant.apiTokenId, tenant_id: tenant.tenantId, iat: Math.floor(Date.now() / 1000) - 90_000, exp: Math.floor(Date.now() / 1000) - 10 },
      testApp.config.jwt.secret,
      { algorithm: 'HS256', issuer: 'action-gateway', audience: 'action-gateway' },
    );
    const failure = await connect(testApp.baseUrl, expired).then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(StreamableHTTPError);
    expect((failure as StreamableHTTPError).code).toBe(401);

    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    const missing = await rpc(testApp, initialize);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: 'Invalid token' });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="action-gateway"');
    expect(missing.headers.get('x-request-id')).toBeTruthy();
    for (const [token, description] of [
      [expired, 'The bearer token expired: exchange the API token for a new one'],
      ['not-a-jwt', 'The bearer token is not a whole JWT (three dot-separated parts): was it cut short when copied?'],
    ]) {
      const invalid = await rpc(testApp, initialize, { authorization: `Bearer ${token}` });
      expect(invalid.status).toBe(401);
      expect(invalid.body).toEqual({ error: 'Invalid token' });
      expect(invalid.headers.get('www-authenticate')).toBe(`Bearer realm="action-gateway", error="invalid_token", error_description="${description}"`);
    }
    // The same challenge as every other bearer route's 401.
    expect((await gateway(testApp, 'GET', '/actions')).headers.get('www-authenticate')).toBe('Bearer realm="action-gateway"');
  });

  it('keeps the gateway conventions: X-Request-Id echoed, rate-limit headers, 405 for GET and DELETE', async () => {
    const response = await rpc(testApp, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { authorization: `Bearer ${tenant.jwt}`, 'x-request-id': 'mcp-req-1' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-request-id')).toBe('mcp-req-1');
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(response.body).toEqual({ jsonrpc: '2.0', id: 3, result: { tools: [expect.objectContaining({ name: weather })] } });

    const notification = await rpc(testApp, { jsonrpc: '2.0', method: 'notifications/initialized' }, { authorization: `Bearer ${tenant.jwt}` });
    expect(notification.status).toBe(202);
    expect(notification.text).toBe('');

    for (const method of ['GET', 'DELETE']) {
      const refused = await call(testApp.baseUrl, method, MCP_PATH, { token: tenant.jwt });
      expect(refused.status).toBe(405);
      expect(refused.headers.get('allow')).toBe('POST');
      expect(refused.body).toEqual({ error: 'Method not allowed' });
    }
  });

  it('keeps hostile calls bounded: deeply nested arguments, a huge tool name; a batch is the gateway\'s 400', async () => {
    const auth = { authorization: `Bearer ${tenant.jwt}` };
    // Deeper than the body parser takes is its 400, as on every route (test/bad-input.e2e-spec.ts); within it,
    // the call reaches the tool.
    const nestedCall = (depth: number) =>
      call(testApp.baseUrl, 'POST', MCP_PATH, {
        raw: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"${weather}","arguments":{"city":"Oslo","extra":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}}`,
        headers: { ...JSON_RPC_HEADERS, ...auth },
      });
    const tooDeep = await nestedCall(500);
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body).toEqual({ error: 'Invalid request', details: 'body: nested deeper than 128 levels' });
    const nested = await nestedCall(100);
    expect(nested.status).toBe(200);
    expect(nested.body.result).toMatchObject({ isError: expect.any(Boolean) });
    const longName = await rpc(testApp, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'x'.repeat(500_000), arguments: {} } }, auth);
    expect(longName.body).toEqual({ jsonrpc: '2.0', id: 6, error: { code: -32602, message: `Unknown tool: ${'x'.repeat(500_000)}` } });
    const batch = await rpc(testApp, [{ jsonrpc: '2.0', id: 7, method: 'tools/list' }, { jsonrpc: '2.0', id: 8, method: 'tools/list' }], auth);
    expect(batch.status).toBe(400);
    expect(batch.body).toEqual({ error: 'Invalid request', details: 'body: must be a JSON object' });
  });

  it('answers arbitrary JSON and arbitrary JSON-RPC messages without a 5xx, and stores nothing for what it refuses', async () => {
    const auth = { authorization: `Bearer ${tenant.jwt}` };
    const methods = fc.constantFrom('initialize', 'tools/list', 'tools/call', 'ping', 'resources/list', 'notifications/initialized', '');
    const message = fc.record(
      { jsonrpc: fc.constantFrom('2.0', '1.0'), id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)), method: methods, params: fc.jsonValue({ maxDepth: 3 }) },
      { requiredKeys: ['method'] },
    );
    const before = (await gateway(testApp, 'GET', `/actions/${weather}/executions?limit=100`, { token: tenant.jwt })).body.executions.length;
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue({ maxDepth: 3 }), message, fc.array(message, { maxLength: 3 })), async (body) => {
        const response = await rpc(testApp, body, auth);
        if (![200, 202, 400].includes(response.status) || !response.headers.get('x-request-id')) {
          throw new Error(`${JSON.stringify(body)} -> ${response.status} ${response.text}`);
        }
        if (response.status !== 202) expect(typeof response.body).toBe('object');
        // Errors are short sentences: never a library's dump, and an internal error never says more than that.
        const error = response.body?.error;
        if (typeof error === 'object' && error !== null) {
          if (/\n/.test(error.message) || (error.code === -32603 && !['Internal server error', 'Service unavailable'].includes(error.message))) {
            throw new Error(`${JSON.stringify(body)} -> ${response.text}`);
          }
        }
      }),
      { seed: 14, numRuns: 150 },
    );
    expect((await gateway(testApp, 'GET', `/actions/${weather}/executions?limit=100`, { token: tenant.jwt })).body.executions).toHaveLength(before);
  });

  it('serves any client that accepts JSON, and a body with no Content-Type, as generic HTTP tools send them', async () => {
    const auth = { authorization: `Bearer ${tenant.jwt}` };
    const list = { jsonrpc: '2.0', id: 9, method: 'tools/list' };
    for (const accept of ['*/*', 'application/json', 'application/*;q=0.5', 'text/html, application/json;q=0.1', 'application/json;charset=utf-8', 'Application/JSON', '']) {
      const response = await call(testApp.baseUrl, 'POST', MCP_PATH, { body: list, headers: { ...auth, accept } });
      expect([accept, response.status, response.body.id, Array.isArray(response.body.result?.tools)]).toEqual([accept, 200, 9, true]);
    }
    // No Accept and no Content-Type at all (fetch would add both): a bare HTTP client.
    const bare = await bareCall(`${testApp.baseUrl}${MCP_PATH}`, 'POST', auth, JSON.stringify(list));
    expect([bare.status, JSON.parse(bare.text).id]).toEqual([200, 9]);
  });

  it('refuses what is not a Streamable HTTP request: JSON-RPC errors from the transport, the gateway\'s 400 for a body that is not JSON', async () => {
    const auth = { authorization: `Bearer ${tenant.jwt}` };
    for (const accept of ['text/html', 'text/event-stream', 'application/json;q=0, text/event-stream', '*/*, application/json;q=0', 'application/*, application/json;q=0', 'application/json;charset=latin1', '*/*;q=0', 'not a media range']) {
      const notAccepting = await call(testApp.baseUrl, 'POST', MCP_PATH, { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { ...auth, accept } });
      expect([accept, notAccepting.status, notAccepting.body?.error?.code]).toEqual([accept, 406, -32000]);
    }
    const notJsonRpc = await rpc(testApp, { hello: 'world' }, auth);
    expect(notJsonRpc.status).toBe(400);
    expect(notJsonRpc.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
    const malformed = await call(testApp.baseUrl, 'POST', MCP_PATH, { raw: '{"jsonrpc":', headers: { ...JSON_RPC_HEADERS, ...auth } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('Invalid request');
    const unknownMethod = await rpc(testApp, { jsonrpc: '2.0', id: 4, method: 'resources/list' }, auth);
    expect(unknownMethod.body).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'Method not found' } });
    // Params that are not even a JSON-RPC structured value: the transport's -32700, whatever the method.
    for (const method of ['tools/call', 'tools/list']) {
      const unstructured = await rpc(testApp, { jsonrpc: '2.0', id: 'c', method, params: 'x' }, auth);
      expect([method, unstructured.status, unstructured.body.error?.code]).toEqual([method, 400, -32700]);
    }
  });

  it("answers params of the wrong shape for any method with -32602 Invalid params, saying briefly which field and why", async () => {
    const auth = { authorization: `Bearer ${tenant.jwt}` };
    const clientInfo = { name: 'raw', version: '1' };
    for (const [method, params, problem] of [
      ['tools/call', { name: weather, arguments: 'x' }, 'params.arguments: must be an object'],
      ['tools/call', { name: weather, arguments: [1] }, 'params.arguments: must be an object'],
      ['tools/call', { name: 3, arguments: {} }, 'params.name: must be a string'],
      ['tools/call', { arguments: {} }, 'params.name: is required'],
      ['tools/call', undefined, 'params: is required'],
      ['tools/list', { cursor: 5 }, 'params.cursor: must be a string'],
      ['initialize', {}, 'params.protocolVersion: is required; params.capabilities: is required; params.clientInfo: is required'],
      ['initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {} }, 'params.clientInfo.name: is required; params.clientInfo.version: is required'],
      ['initialize', { protocolVersion: 2025, capabilities: [], clientInfo }, 'params.protocolVersion: must be a string; params.capabilities: must be an object'],
      ['initialize', { protocolVersion: '2025-06-18', capabilities: { sampling: 5 }, clientInfo: { ...clientInfo, icons: [{ src: 'x', theme: 'blue' }] } },
        'params.capabilities.sampling: must be an object; params.clientInfo.icons.0.theme: must be one of "light", "dark"'],
    ] as const) {
      const refused = await rpc(testApp, { jsonrpc: '2.0', id: 'c', method, ...(params === undefined ? {} : { params }) }, auth);
      expect([method, refused.status, refused.body]).toEqual([method, 200, { jsonrpc: '2.0', id: 'c', error: { code: -32602, message: `Invalid params: ${problem}` } }]);
    }
    // The transport's own refusals still come first: an Accept without JSON is its 406, whatever the params.
    const notAccepting = await call(testApp.baseUrl, 'POST', MCP_PATH, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 5 } },
      headers: { ...auth, accept: 'text/html' },
    });
    expect(notAccepting.status).toBe(406);
  });
});

describe('the MCP server and the Origin header (issue 37)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
  const REFUSED = { error: 'Origin not allowed', details: "Origin: must be this service's own or one of MCP_ALLOWED_ORIGINS (or no Origin at all)" };

  beforeAll(async () => {
    testApp = await startTestApp({ env: { PUBLIC_URL: 'https://gateway.example.test', MCP_ALLOWED_ORIGINS: 'https://agent.example.com, http://127.0.0.1:6274' } });
    tenant = await createTenant(testApp);
  });
  afterAll(() => testApp.close());

  it('answers 403 to an Origin that is not its own nor allowed, before the token is read; without Origin it serves as before', async () => {
    const port = Number(new URL(testApp.baseUrl).port);
    const before = (await rpc(testApp, ping, { authorization: `Bearer ${tenant.jwt}` })).headers.get('x-ratelimit-remaining');
    for (const origin of ['http://evil.example.com', `http://127.0.0.1:${port + 1}`, `https://127.0.0.1:${port}`, 'https://agent.example.com.evil.test', 'null', 'not an origin']) {
      // With the tenant's token, a wrong one, or none: the same 403.
      for (const authorization of [`Bearer ${tenant.jwt}`, 'Bearer nope', undefined]) {
        const refused = await rpc(testApp, ping, { origin, ...(authorization ? { authorization } : {}) });
        expect([refused.status, refused.body]).toEqual([403, REFUSED]);
      }
    }
    // A DNS-rebinding page: its name in Host and Origin alike; Host is not believed.
    const rebound = await bareCall(`${testApp.baseUrl}${MCP_PATH}`, 'POST', { ...JSON_RPC_HEADERS, host: 'evil.example.com', origin: 'http://evil.example.com', authorization: `Bearer ${tenant.jwt}` }, JSON.stringify(ping));
    expect([rebound.status, JSON.parse(rebound.text)]).toEqual([403, REFUSED]);
    // Refused before the rate limit too: the tenant's budget did not move.
    expect((await rpc(testApp, ping, { authorization: `Bearer ${tenant.jwt}` })).headers.get('x-ratelimit-remaining')).toBe(String(Number(before) - 1));

    const served: Array<Record<string, string>> = [
      {},
      { origin: testApp.baseUrl },
      { origin: `http://localhost:${port}` },
      { origin: 'https://gateway.example.test' },
      { origin: 'https://agent.example.com' },
      { origin: 'http://127.0.0.1:6274' },
    ];
    for (const headers of served) {
      const answer = await rpc(testApp, ping, { ...headers, authorization: `Bearer ${tenant.jwt}` });
      expect([answer.status, answer.body]).toEqual([200, { jsonrpc: '2.0', id: 1, result: {} }]);
    }
    // An allowed origin still needs the token.
    expect((await rpc(testApp, ping, { origin: 'https://agent.example.com' })).status).toBe(401);
  });

  it('serves the SDK client from an allowed origin, and refuses it from another', async () => {
    const from = (origin: string): typeof fetch => (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), origin } });
    const allowed = await connect(testApp.baseUrl, tenant.jwt, from('https://agent.example.com'));
    expect(await allowed.ping()).toEqual({});
    await allowed.close();
    const refused = await connect(testApp.baseUrl, tenant.jwt, from('http://evil.example.com')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(403);
    expect((refused as Error).message).toContain('Origin not allowed');
  });
});

describe('tools/list paging', () => {
  let testApp: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await testApp.close();
  });

  it(`gives ${TOOLS_PAGE_SIZE} tools a page and a cursor to the next; a tool added between pages does not shift them`, async () => {
    const tenant = await createTenant(testApp);
    const names: string[] = [];
    for (let index = 0; index < TOOLS_PAGE_SIZE + 3; index++) {
      const name = `tool_${String(index).padStart(3, '0')}`;
      names.push(name);
      expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url(), { name }) })).status).toBe(201);
    }
    const client = await connect(testApp.baseUrl, tenant.jwt);
    try {
      const first = await client.listTools();
      expect(first.tools.map((tool) => tool.name)).toEqual(names.slice(0, TOOLS_PAGE_SIZE));
      expect(typeof first.nextCursor).toBe('string');
      // An action that sorts before the cursor appears on no later page; the next page starts where the last ended.
      expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url(), { name: 'tool_000a' }) })).status).toBe(201);
      const second = await client.listTools({ cursor: first.nextCursor });
      expect(second.tools.map((tool) => tool.name)).toEqual(names.slice(TOOLS_PAGE_SIZE));
      expect(second.nextCursor).toBeUndefined();

      const invalid = await client.listTools({ cursor: 'not a cursor' }).then(() => undefined, (error: McpError) => error);
      expect(invalid).toBeInstanceOf(McpError);
      expect((invalid as McpError).code).toBe(-32602);
      expect((invalid as McpError).message).toBe('MCP error -32602: Invalid cursor');

      // Only a cursor the server gave, for this tenant, reads back: not a name encoded by hand (enp6 is "zzz"),
      // not the server's own cursor altered, not another tenant's.
      const cursor = first.nextCursor as string;
      const altered = Buffer.from(cursor, 'base64url');
      altered[0] ^= 1;
      const forged = ['enp6', Buffer.from('tool_049', 'utf8').toString('base64url'), altered.toString('base64url'), `${cursor}A`, cursor.slice(0, -1), ''];
      const other = await createTenant(testApp);
      const attempts = [
        ...forged.map((forgery) => ({ token: tenant.jwt, cursor: forgery })),
        { token: other.jwt, cursor },
      ];
      for (const attempt of attempts) {
        const refused = await call(testApp.baseUrl, 'POST', MCP_PATH, {
          body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: attempt.cursor } },
          headers: { ...JSON_RPC_HEADERS, authorization: `Bearer ${attempt.token}` },
        });
        expect([attempt.cursor, refused.body]).toEqual([attempt.cursor, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid cursor' } }]);
      }
      expect(cursor.length).toBeLessThan(40);

      // Another replica (the same configuration) continues the list, also after the cursor's tool is deleted.
      expect((await gateway(testApp, 'DELETE', `/actions/${names[TOOLS_PAGE_SIZE - 1]}`, { token: tenant.jwt })).status).toBe(204);
      const replica = await startTestApp({ env: { JWT_SECRET: testApp.config.jwt.secret, ENCRYPTION_KEY: testApp.config.encryptionKey.toString('base64') } });
      try {
        const continued = await call(replica.baseUrl, 'POST', MCP_PATH, {
          body: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor } },
          headers: { ...JSON_RPC_HEADERS, authorization: `Bearer ${tenant.jwt}` },
        });
        expect(continued.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(names.slice(TOOLS_PAGE_SIZE));
      } finally {
        await replica.close();
      }
    } finally {
      await client.close();
    }
  });
});

describe('the MCP server behind several replicas', () => {
  let first: TestApp;
  let second: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    first = await startTestApp();
    second = await startTestApp({
      env: {
        JWT_SECRET: first.config.jwt.secret,
        ADMIN_API_KEY: first.config.adminApiKey,
        ENCRYPTION_KEY: first.config.encryptionKey.toString('base64'),
      },
    });
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await first.close();
    await second.close();
  });

  it('serves one client whose requests land on alternating replicas (stateless: no session to lose)', async () => {
    const tenant = await createTenant(first);
    const body = actionBody(receiver.url());
    expect((await gateway(first, 'POST', '/actions', { token: tenant.jwt, body })).status).toBe(201);
    const served: string[] = [];
    let turn = 0;
    const alternating = ((input: string | URL | Request, init?: RequestInit) => {
      const replica = turn++ % 2 === 0 ? first : second;
      served.push(`${init?.method ?? 'GET'} ${replica === first ? 'first' : 'second'}`);
      return fetch(new URL(MCP_PATH, replica.baseUrl), init);
    }) as typeof fetch;
    const client = await connect(first.baseUrl, tenant.jwt, alternating);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([body.name]);
      const result = await client.callTool({ name: body.name, arguments: { city: 'Oslo' } });
      expect(result.isError).toBe(false);
      expect(textOf(result)).toBe('done');
    } finally {
      await client.close();
    }
    expect(served.filter((entry) => entry.endsWith('first')).length).toBeGreaterThan(0);
    expect(served.filter((entry) => entry.endsWith('second')).length).toBeGreaterThan(0);
  });
});

describe('the MCP server and the rate limit', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '4' } });
  });
  afterAll(() => testApp.close());

  it("counts every MCP request against the tenant's budget and answers the gateway's 429 past it", async () => {
    const tenant = await createTenant(testApp);
    // initialize and notifications/initialized are two requests (the SDK's GET for a server stream is a 405 before
    // authentication, uncounted); tools/list is the third.
    const client = await connect(testApp.baseUrl, tenant.jwt);
    await client.listTools();
    const remaining = await gateway(testApp, 'GET', '/actions', { token: tenant.jwt });
    expect(remaining.headers.get('x-ratelimit-remaining')).toBe('0');

    const refused = await client.listTools().then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(429);
    const raw = await rpc(testApp, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${tenant.jwt}` });
    expect(raw.status).toBe(429);
    expect(raw.body).toEqual({ error: 'Rate limit exceeded' });
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(raw.headers.get('x-ratelimit-remaining')).toBe('0');
    await client.close();
  });
});
