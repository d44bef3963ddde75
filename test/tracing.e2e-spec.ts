import { randomBytes } from 'node:crypto';
import { ServerResponse } from 'node:http';
import { trace } from '@opentelemetry/api';
import { eventually } from './support/eventually';
import { actionBody, createTenant, gateway, TestTenant } from './support/factories';
import { call } from './support/http';
import { CollectedSpan, OtlpCollector } from './support/otlp-collector';
import { ReceivedCall, Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0([01])$/;
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
/** A caller's trace context, as the conversational platform would send it. */
const callerContext = () => ({ traceId: hex(16), spanId: hex(8) });
const traceparentOf = ({ traceId, spanId }: { traceId: string; spanId: string }, flags = '01') => `00-${traceId}-${spanId}-${flags}`;

/** What a receiver saw of the trace: trace id, parent span id, sampled flag. */
function receivedContext(received: ReceivedCall) {
  const match = TRACEPARENT.exec(String(received.headers.traceparent));
  if (!match) throw new Error(`no valid traceparent: ${String(received.headers.traceparent)}`);
  return { traceId: match[1], parentId: match[2], sampled: match[3] === '1' };
}

const answerJson = (response: ServerResponse, status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** The span named `name` among `spans`, exactly one. */
function only(spans: CollectedSpan[], name: string): CollectedSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1) throw new Error(`expected one span "${name}", found ${found.length} among ${spans.map((span) => span.name).join(', ')}`);
  return found[0];
}

describe('tracing, exported over OTLP/HTTP (JSON) to a collector', () => {
  let collector: OtlpCollector;
  let receiver: Receiver;
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    collector = await OtlpCollector.start();
    receiver = await Receiver.start();
    testApp = await startTestApp({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.httpEndpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20', OTEL_SERVICE_NAME: 'gateway-under-test' },
    });
    tenant = await createTenant(testApp);
  });
  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
    await collector.stop();
  });

  it('exports a token exchange as one trace continuing the caller\'s traceparent, with no secret in it', async () => {
    const caller = callerContext();
    const response = await gateway(testApp, 'POST', '/token/exchange', { body: { api_token: tenant.apiToken }, headers: { traceparent: traceparentOf(caller) } });
    expect(response.status).toBe(200);

    const spans = await eventually(() => {
      const found = collector.trace(caller.traceId);
      expect(found.map((span) => span.name).sort()).toEqual(['POST /api/v1/gateway/token/exchange', 'exchange token', 'read api token', 'sign bearer token']);
      return found;
    });
    const server = only(spans, 'POST /api/v1/gateway/token/exchange');
    const exchange = only(spans, 'exchange token');
    expect(server).toMatchObject({ parentSpanId: caller.spanId, kind: 2 });
    expect(server.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/api/v1/gateway/token/exchange', 'http.response.status_code': 200 });
    expect(server.resource).toMatchObject({ 'service.name': 'gateway-under-test', 'service.version': '1.0.0' });
    expect(exchange.parentSpanId).toBe(server.spanId);
    expect(exchange.attributes[`gateway.tenant.id`]).toBe(tenant.tenantId);
    expect(only(spans, 'read api token').parentSpanId).toBe(exchange.spanId);
    expect(only(spans, 'sign bearer token').parentSpanId).toBe(exchange.spanId);

    const exported = collector.requests.map((request) => request.body.toString('utf8')).join('\n');
    for (const secret of [tenant.apiToken, tenant.apiToken.slice(4), response.body.jwt_token, tenant.hmacKey, testApp.config.adminApiKey]) {
      expect(exported).not.toContain(secret);
    }
  });

  it('exports an execute whose first attempt fails: each attempt a span the receiver joins, and the stored execution', async () => {
    const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) });
    expect(created.status).toBe(201);
    const name = created.body.action.name as string;
    let attempts = 0;
    receiver.behaviour = (_, response) => (++attempts === 1 ? answerJson(response, 503, {}) : answerJson(response, 200, { result: 'Sunny', error: '' }));
    receiver.calls.length = 0;
    const caller = callerContext();
    const secretCity = `City-${hex(8)}`;
    const executed = await gateway(testApp, 'POST', `/actions/${name}/execute`, {
      token: tenant.jwt,
      body: { parameters: { city: secretCity } },
      headers: { traceparent: traceparentOf(caller), tracestate: 'platform=abc,other=1' },
    });
    expect(executed.status).toBe(200);
    expect(executed.body.execution).toMatchObject({ status: 'succeeded', attempts: 2 });

    const spans = await eventually(() => {
      const found = collector.trace(caller.traceId);
      expect(found.filter((span) => span.name === 'POST')).toHaveLength(2);
      expect(found.map((span) => span.name)).toEqual(expect.arrayContaining(['store execution', 'POST /api/v1/gateway/actions/:action_name/execute']));
      return found;
    });
    const server = only(spans, 'POST /api/v1/gateway/actions/:action_name/execute');
    expect(server.parentSpanId).toBe(caller.spanId);
    expect(server.attributes).toMatchObject({ 'http.route': '/api/v1/gateway/actions/:action_name/execute', 'http.response.status_code': 200, 'gateway.tenant.id': tenant.tenantId });
    const childOf = (parent: CollectedSpan) => spans.filter((span) => span.parentSpanId === parent.spanId).map((span) => span.name);
    expect(childOf(server)).toEqual(expect.arrayContaining(['authenticate', 'check parameters', 'deliver webhook', 'store execution']));
    expect(only(spans, 'authenticate').attributes).toMatchObject({ 'gateway.auth.method': 'bearer', 'gateway.tenant.id': tenant.tenantId });
    // The read model's reads (the token's standing, the tenant's status, its actions and keys), each saying
    // whether memory or the database answered.
    const reads = spans.filter((span) => span.name.startsWith('read '));
    expect(reads.map((read) => read.attributes['gateway.read_model.cache'])).toEqual(expect.arrayContaining(['actions', 'hmac_keys']));
    expect(reads.every((read) => read.parentSpanId === server.spanId && ['memory', 'database'].includes(String(read.attributes['gateway.read_model.source'])))).toBe(true);
    expect(only(spans, 'check parameters').attributes).toMatchObject({ 'gateway.schema.check': 'inline', 'gateway.schema.valid': true, 'gateway.action.name': name });
    const delivery = only(spans, 'deliver webhook');
    expect(delivery.attributes).toMatchObject({ 'gateway.webhook.attempts': 2, 'gateway.webhook.outcome': 'answered', 'gateway.execution.id': executed.body.execution.id });
    expect([delivery.status.code ?? 0, delivery.attributes['error.type']]).toEqual([0, undefined]); // delivered in the end
    const posts = spans.filter((span) => span.name === 'POST').sort((a, b) => Number(a.attributes['gateway.webhook.attempt']) - Number(b.attributes['gateway.webhook.attempt']));
    expect(posts.map((post) => post.parentSpanId)).toEqual([delivery.spanId, delivery.spanId]);
    expect(posts.map((post) => post.kind)).toEqual([3, 3]);
    expect(posts[0].attributes).toMatchObject({ 'http.response.status_code': 503, 'error.type': '503', 'server.address': '127.0.0.1', 'server.port': receiver.port, 'gateway.webhook.kind': 'execution' });
    expect(posts[0].status.code).toBe(2);
    expect(posts[1].attributes).toMatchObject({ 'http.response.status_code': 200, 'http.request.resend_count': 1, 'gateway.webhook.attempt': 2 });
    expect(only(spans, 'store execution').attributes).toMatchObject({ 'gateway.execution.id': executed.body.execution.id, 'gateway.execution.status': 'succeeded' });

    // Each attempt's receiver joins the trace as a child of that attempt's span, tracestate passed on.
    expect(receiver.calls.map(receivedContext)).toEqual(posts.map((post) => ({ traceId: caller.traceId, parentId: post.spanId, sampled: true })));
    expect(receiver.calls.map((received) => received.headers.tracestate)).toEqual(['platform=abc,other=1', 'platform=abc,other=1']);

    // No parameter value, no receiver body, no webhook URL path in any span.
    const exported = collector.requests.map((request) => request.body.toString('utf8')).join('\n');
    expect(exported).not.toContain(secretCity);
    expect(exported).not.toContain('Sunny');
    expect(exported).not.toContain('/hook');
  });

  it('makes a failed delivery an error span: every attempt answered 500, or the receiver not reachable', async () => {
    const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) });
    const name = created.body.action.name as string;
    receiver.behaviour = (_, response) => answerJson(response, 500, {});
    const deliveryOf = async (action: string) => {
      const caller = callerContext();
      const executed = await gateway(testApp, 'POST', `/actions/${action}/execute`, { token: tenant.jwt, body: { parameters: { city: 'Oslo' } }, headers: { traceparent: traceparentOf(caller) } });
      expect(executed.body.execution.status).toBe('failed');
      const spans = await eventually(() => {
        const found = collector.trace(caller.traceId);
        expect(found.map((span) => span.name)).toEqual(expect.arrayContaining(['deliver webhook', 'POST /api/v1/gateway/actions/:action_name/execute']));
        return found;
      });
      return only(spans, 'deliver webhook');
    };
    const answered500 = await deliveryOf(name);
    expect(answered500.attributes).toMatchObject({ 'gateway.webhook.attempts': 3, 'gateway.webhook.outcome': 'answered', 'error.type': '500' });
    expect(answered500.status.code).toBe(2); // ERROR

    // A receiver's 200 with its own error was delivered: the action failed, the call did not.
    receiver.behaviour = (_, response) => answerJson(response, 200, { result: null, error: 'no such city' });
    const ownError = await deliveryOf(name);
    expect([ownError.status.code ?? 0, ownError.attributes['error.type']]).toEqual([0, undefined]);

    const closed = await Receiver.start();
    const unreachableUrl = closed.url();
    receiver.behaviour = (_, response) => answerJson(response, 200, { result: 'ok', error: '' });
    const unreachable = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(unreachableUrl) });
    await closed.stop();
    const refused = await deliveryOf(unreachable.body.action.name);
    expect(refused.attributes).toMatchObject({ 'gateway.webhook.outcome': 'unreachable', 'error.type': 'unreachable' });
    expect(refused.status.code).toBe(2);
  });

  it('leaves Prometheus scrapes and health probes out of traces, and traces the next API request', async () => {
    const caller = callerContext();
    for (const path of ['/metrics', '/healthz', '/readyz', '/metrics?x=1']) {
      expect((await call(testApp.baseUrl, 'GET', path, { headers: { traceparent: traceparentOf(caller) } })).status).toBe(200);
    }
    expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt, headers: { traceparent: traceparentOf(caller) } })).status).toBe(200);
    const spans = await eventually(() => {
      const found = collector.trace(caller.traceId);
      expect(found.map((span) => span.name)).toContain('GET /api/v1/gateway/actions');
      return found;
    });
    expect(spans.filter((span) => span.parentSpanId === caller.spanId).map((span) => span.name)).toEqual(['GET /api/v1/gateway/actions']);
  });

  it('traces the registration test and an MCP tools/call the same way', async () => {
    receiver.behaviour = (_, response) => answerJson(response, 200, { result: 'ok', error: '' });
    receiver.calls.length = 0;
    const caller = callerContext();
    const body = actionBody(receiver.url());
    expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body, headers: { traceparent: traceparentOf(caller) } })).status).toBe(201);
    const registration = receivedContext(receiver.calls[0]);
    expect(registration.traceId).toBe(caller.traceId);
    const creation = await eventually(() => {
      const post = only(collector.trace(caller.traceId), 'POST');
      expect(post.attributes['gateway.webhook.kind']).toBe('registration_test');
      return post;
    });
    expect(registration.parentId).toBe(creation.spanId);

    receiver.calls.length = 0;
    const mcpCaller = callerContext();
    const answer = await call(testApp.baseUrl, 'POST', '/api/v1/gateway/mcp', {
      token: tenant.jwt,
      headers: { traceparent: traceparentOf(mcpCaller), accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: body.name, arguments: { city: 'Oslo' } } },
    });
    expect(answer.status).toBe(200);
    const spans = await eventually(() => {
      const found = collector.trace(mcpCaller.traceId);
      expect(found.map((span) => span.name)).toEqual(expect.arrayContaining(['store execution', `tools/call ${body.name}`, 'POST']));
      return found;
    });
    const toolCall = only(spans, `tools/call ${body.name}`);
    expect(toolCall.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': body.name });
    expect(toolCall.parentSpanId).toBe(only(spans, 'POST /api/v1/gateway/mcp').spanId);
    expect(only(spans, 'deliver webhook').parentSpanId).toBe(toolCall.spanId);
    expect(receivedContext(receiver.calls[0])).toEqual({ traceId: mcpCaller.traceId, parentId: only(spans, 'POST').spanId, sampled: true });
  });

  it('traces the console\'s calls to the management API, naming how they authenticated', async () => {
    const caller = callerContext();
    const response = await call(testApp.baseUrl, 'GET', `/api/v1/admin/tenants/${tenant.tenantId}`, { token: testApp.config.adminApiKey, headers: { traceparent: traceparentOf(caller) } });
    expect(response.status).toBe(200);
    const spans = await eventually(() => {
      const found = collector.trace(caller.traceId);
      expect(found).toHaveLength(2);
      return found;
    });
    expect(only(spans, 'authenticate').attributes['gateway.auth.method']).toBe('admin_key');
    expect(only(spans, 'GET /api/v1/admin/tenants/:tenant_id').attributes['http.response.status_code']).toBe(200);
  });

  it('starts a trace of its own for a request without traceparent', async () => {
    receiver.calls.length = 0;
    const before = new Set(collector.spans.map((span) => span.traceId));
    expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt })).status).toBe(200);
    const list = await eventually(() => {
      const found = collector.spans.filter((span) => span.name === 'GET /api/v1/gateway/actions' && !before.has(span.traceId));
      expect(found).toHaveLength(1);
      return found[0];
    });
    expect(list.parentSpanId).toBe('');
  });
});

describe('tracing over OTLP/HTTP (protobuf, the default) and OTLP/gRPC', () => {
  let collector: OtlpCollector;
  afterAll(() => collector.stop());
  beforeAll(async () => {
    collector = await OtlpCollector.start();
  });

  it.each([
    ['http/protobuf', '/v1/traces', 'application/x-protobuf'],
    ['grpc', '/opentelemetry.proto.collector.trace.v1.TraceService/Export', 'application/grpc'],
  ])('sends %s to the collector: the caller\'s trace id is in the export (a probe, traced with TRACE_PROBES)', async (protocol, path, contentType) => {
    const testApp = await startTestApp({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: protocol === 'grpc' ? collector.grpcEndpoint : collector.httpEndpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_BSP_SCHEDULE_DELAY: '20',
        TRACE_PROBES: 'true',
      },
    });
    try {
      const caller = callerContext();
      expect((await call(testApp.baseUrl, 'GET', '/healthz', { headers: { traceparent: traceparentOf(caller) } })).status).toBe(200);
      await eventually(() => expect(collector.requests.some((request) => request.path === path && request.contentType.startsWith(contentType) && request.body.includes(Buffer.from(caller.traceId, 'hex')))).toBe(true));
    } finally {
      await testApp.close();
    }
  });
});

describe('trace context when tracing is off (no exporter configured)', () => {
  let receiver: Receiver;
  let testApp: TestApp;
  let tenant: TestTenant;
  let name: string;

  beforeAll(async () => {
    receiver = await Receiver.start();
    testApp = await startTestApp();
    tenant = await createTenant(testApp);
    name = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action.name;
  });
  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
  });
  beforeEach(() => {
    receiver.calls.length = 0;
  });

  it('makes no trace context for a read that logs nothing and calls no receiver, with or without traceparent', async () => {
    // Every trace context is made by one of these (trace-context.ts, tracing.ts); LOG_LEVEL is silent here.
    const made = [jest.spyOn(trace, 'setSpanContext'), jest.spyOn(trace, 'setSpan')];
    try {
      for (const headers of [{}, { traceparent: traceparentOf(callerContext()) }] as Record<string, string>[]) {
        expect((await gateway(testApp, 'GET', `/actions/${name}`, { token: tenant.jwt, headers })).status).toBe(200);
        expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt, headers })).status).toBe(200);
        expect((await gateway(testApp, 'GET', '/tools?format=openai', { token: tenant.jwt, headers })).status).toBe(200);
      }
      expect(made.map((spy) => spy.mock.calls.length)).toEqual([0, 0]);
      // The spies see the contexts made: an execution makes one for its receiver's call.
      receiver.behaviour = (_, response) => answerJson(response, 200, { result: 'r', error: '' });
      expect((await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'x' } } })).status).toBe(200);
      expect(made[0].mock.calls.length).toBeGreaterThan(0);
    } finally {
      for (const spy of made) spy.mockRestore();
    }
  });

  it('passes the caller\'s traceparent and tracestate on unchanged, to every attempt', async () => {
    let attempts = 0;
    receiver.behaviour = (_, response) => (++attempts === 1 ? answerJson(response, 500, {}) : answerJson(response, 200, { result: 'r', error: '' }));
    const caller = callerContext();
    const headers = { traceparent: traceparentOf(caller, '00'), tracestate: 'platform=abc' };
    expect((await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'x' } }, headers })).status).toBe(200);
    expect(receiver.calls.map((received) => [received.headers.traceparent, received.headers.tracestate])).toEqual([
      [headers.traceparent, 'platform=abc'],
      [headers.traceparent, 'platform=abc'],
    ]);
  });

  it('starts a sampled trace of its own without a valid traceparent, one per execution', async () => {
    receiver.behaviour = (_, response) => answerJson(response, 200, { result: 'r', error: '' });
    for (const headers of [{}, { traceparent: 'garbage' }, { traceparent: `00-${'0'.repeat(32)}-${hex(8)}-01` }] as Record<string, string>[]) {
      expect((await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'x' } }, headers })).status).toBe(200);
    }
    const contexts = receiver.calls.map(receivedContext);
    expect(contexts.every((context) => context.sampled)).toBe(true);
    expect(new Set(contexts.map((context) => context.traceId)).size).toBe(3);
    expect(receiver.calls.every((received) => received.headers.tracestate === undefined)).toBe(true);
  });

  it('does not continue an incoming trace with OTEL_PROPAGATORS=none', async () => {
    const isolated = await startTestApp({ env: { OTEL_PROPAGATORS: 'none' } });
    try {
      const other = await createTenant(isolated);
      const action = (await gateway(isolated, 'POST', '/actions', { token: other.jwt, body: actionBody(receiver.url()) })).body.action.name;
      receiver.calls.length = 0;
      const caller = callerContext();
      await gateway(isolated, 'POST', `/actions/${action}/execute`, { token: other.jwt, body: { parameters: { city: 'x' } }, headers: { traceparent: traceparentOf(caller) } });
      expect(receivedContext(receiver.calls[0]).traceId).not.toBe(caller.traceId);
    } finally {
      await isolated.close();
    }
  });
});
