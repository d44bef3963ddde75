import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WebhookClient } from '../src/webhooks/webhook-client';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { call } from './support/http';
import { Behaviour, executions, ok, Receiver, ReceivedCall } from './support/receiver';
import { expectEndedAtDeadline } from './support/timing';
import { appWithReceiver } from './support/test-app';

/**
 * WEBHOOK_TIMEOUT_MS, the whole budget of an execution's attempts: room for three attempts (two backoffs) and a
 * Retry-After of 1 s on a busy machine. The deadline tests wait it out.
 */
const TIMEOUT_MS = 5_000;

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Behaviour =>
  (_, response) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(typeof body === 'string' ? body : JSON.stringify(body));

const signedPart = (body: string) => body.slice(0, body.lastIndexOf(',"signature"')) + '}';

describe('executions (contract "Executions")', () => {
  const suite = appWithReceiver({ env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
  let tenant: TestTenant;

  beforeEach(async () => {
    suite.receiver.behaviour = ok;
    tenant = await createTenant(suite.testApp);
  });

  /** Registers an action on the receiver, then makes the receiver answer executions with `behaviour`. */
  async function actionAnswering(behaviour: Behaviour, overrides: Record<string, unknown> = {}, owner = tenant): Promise<string> {
    suite.receiver.behaviour = ok;
    const created = await gateway(suite.testApp, 'POST', '/actions', { token: owner.jwt, body: actionBody(suite.receiver.url(), overrides) });
    expect(created.status).toBe(201);
    suite.receiver.behaviour = executions(behaviour);
    return created.body.action.name;
  }

  const execute = (name: string, body: unknown = { parameters: { city: 'Oslo' } }, owner = tenant) =>
    gateway(suite.testApp, 'POST', `/actions/${name}/execute`, { token: owner.jwt, body });

  const callsAfter = (mark: number): ReceivedCall[] => suite.receiver.calls.slice(mark);

  // Whatever a receiver did, no outbound request may be left running or queued once the execution answered.
  afterEach(() => expect(suite.testApp.app.get(WebhookClient).inFlight()).toBe(0));

  it('delivers a signed call and answers 200 with the stored execution', async () => {
    const name = await actionAnswering(json(200, { result: 'Sunny, 21 °C', error: '' }));
    const mark = suite.receiver.calls.length;

    const response = await execute(name, { parameters: { city: 'Zürich 😀', days: 3 } });

    expect(response.status).toBe(200);
    const execution = response.body.execution;
    expect(Object.keys(execution).sort()).toEqual(['action_name', 'attempts', 'created_at', 'duration_ms', 'error', 'http_status', 'id', 'result', 'status']);
    expect(execution).toMatchObject({ action_name: name, status: 'succeeded', http_status: 200, result: 'Sunny, 21 °C', error: '', attempts: 1 });
    expect(execution.duration_ms).toBeGreaterThanOrEqual(0);

    const [call] = callsAfter(mark);
    const sent = JSON.parse(call.body);
    expect(Object.keys(sent)).toEqual(['action_name', 'parameters', 'timestamp', 'signature']);
    expect(sent).toMatchObject({ action_name: name, parameters: { city: 'Zürich 😀', days: 3 } });
    expect(call.body).toContain('"city":"Z\\u00fcrich \\ud83d\\ude00"');
    expect(sent.signature).toBe(createHmac('sha256', tenant.hmacKey).update(signedPart(call.body)).digest('hex'));
    expect(call.headers['webhook-id']).toBe(execution.id);
    expect(new Webhook(tenant.hmacKey).verify(call.body, call.headers as Record<string, string>)).toEqual(sent);

    const listed = await gateway(suite.testApp, 'GET', `/actions/${name}/executions`, { token: tenant.jwt });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ executions: [{ ...execution, replay_of: null }], next_cursor: null });
  });

  it('defaults parameters to {}', async () => {
    const name = await actionAnswering(json(200, { result: 'ok', error: '' }), { json_schema: { type: 'object' } });
    const mark = suite.receiver.calls.length;
    expect((await execute(name, {})).body.execution.status).toBe('succeeded');
    expect(JSON.parse(callsAfter(mark)[0].body).parameters).toEqual({});
  });

  it.each([
    ['no body at all', {}],
    ['an empty body with Content-Type: application/json', { raw: '', headers: { 'content-type': 'application/json' } }],
    ['a body of whitespace', { raw: ' \n', headers: { 'content-type': 'application/json' } }],
    ['"parameters": null (Python\'s None)', { raw: '{"parameters":null}', headers: { 'content-type': 'application/json' } }],
  ])('runs with parameters {} for a request with %s, on the gateway and the management API', async (_case, request) => {
    const name = await actionAnswering(json(200, { result: 'ok', error: '' }), { json_schema: { type: 'object' } });
    const mark = suite.receiver.calls.length;
    const viaGateway = await gateway(suite.testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, ...request });
    expect(viaGateway.status).toBe(200);
    expect(viaGateway.body.execution).toMatchObject({ action_name: name, status: 'succeeded' });
    const viaAdmin = await call(suite.testApp.baseUrl, 'POST', `/api/v1/admin/tenants/${tenant.tenantId}/actions/${name}/execute`, { token: suite.testApp.config.adminApiKey, ...request });
    expect(viaAdmin.status).toBe(200);
    expect(callsAfter(mark).map((received) => JSON.parse(received.body).parameters)).toEqual([{}, {}]);
    // Both are stored.
    const listed = await gateway(suite.testApp, 'GET', `/actions/${name}/executions`, { token: tenant.jwt });
    expect(listed.body.executions.map((execution: { id: string }) => execution.id).sort()).toEqual([viaGateway.body.execution.id, viaAdmin.body.execution.id].sort());
  });

  it.each([
    [{ city: 'Oslo' }, 'city: unknown field (the action\'s parameters go inside "parameters": {"parameters": {"city": …}})'],
    [
      { city: 'Oslo', units: 'metric', days: 3, hourly: true },
      'city, units, days, hourly: unknown fields (the action\'s parameters go inside "parameters": {"parameters": {"city": …, "units": …, "days": …, …}})',
    ],
    [{ parameters: { city: 'Oslo' }, units: 'metric' }, 'units: unknown field (the action\'s parameters go inside "parameters")'],
    [{ parameters: null, 'the city': 'Oslo' }, '"the city": unknown field (the action\'s parameters go inside "parameters")'],
  ])('refuses fields beside "parameters" (%j) with 400 naming them, on the gateway and the management API, sending nothing', async (body, details) => {
    const name = await actionAnswering(ok, { json_schema: { type: 'object' } });
    const mark = suite.receiver.calls.length;
    const viaGateway = await execute(name, body);
    expect([viaGateway.status, viaGateway.body]).toEqual([400, { error: 'Invalid request', details }]);
    const viaAdmin = await call(suite.testApp.baseUrl, 'POST', `/api/v1/admin/tenants/${tenant.tenantId}/actions/${name}/execute`, { token: suite.testApp.config.adminApiKey, body });
    expect([viaAdmin.status, viaAdmin.body]).toEqual([400, { error: 'Invalid request', details }]);
    expect(callsAfter(mark)).toHaveLength(0);
    expect((await gateway(suite.testApp, 'GET', `/actions/${name}/executions`, { token: tenant.jwt })).body.executions).toEqual([]);
  });

  it('lists at most ten unknown fields, each cut at 64 characters, however many a body has', async () => {
    const name = await actionAnswering(ok, { json_schema: { type: 'object' } });
    const long = 'k'.repeat(5_000);
    const body = Object.fromEntries([long, ...Array.from({ length: 20_000 }, (_, index) => `f${index}`)].map((key) => [key, 1]));
    const response = await execute(name, body);
    expect(response.status).toBe(400);
    const details: string = response.body.details;
    expect(details.startsWith(`"${'k'.repeat(64)}…", f0, f1, f2, f3, f4, f5, f6, f7, f8 and 19991 more: unknown fields (`)).toBe(true);
    expect(details.length).toBeLessThan(400);
  });

  it.each([['[]'], ['"text"'], ['null'], ['7']])('still refuses a body that is not a JSON object (%s) with 400, sending nothing', async (raw) => {
    const name = await actionAnswering(ok, { json_schema: { type: 'object' } });
    const mark = suite.receiver.calls.length;
    const response = await gateway(suite.testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, raw, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid request', details: 'body: must be a JSON object' });
    expect(callsAfter(mark)).toHaveLength(0);
  });

  it.each([
    [{ parameters: {} }, "parameters: must have required property 'city'"],
    [{ parameters: { city: 7 } }, 'parameters.city: must be string'],
  ])('refuses parameters that fail the schema (%j) with 400 Invalid parameters, sending nothing', async (body, details) => {
    const name = await actionAnswering(ok);
    const mark = suite.receiver.calls.length;
    const response = await execute(name, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid parameters', details });
    expect(callsAfter(mark)).toHaveLength(0);
  });

  it('forwards numbers exactly as sent: integers beyond 2^53 keep every digit, floats stay floats, and the signatures verify', async () => {
    const name = await actionAnswering(json(200, { result: 'ok', error: '' }), {
      // The schema sees JavaScript's view (docs/decisions.md): ...993 reads as ...992, within this maximum.
      json_schema: { type: 'object', properties: { id: { type: 'integer', maximum: 9007199254740992 }, big: { type: 'integer', minimum: 0 } }, required: ['id'] },
    });
    const mark = suite.receiver.calls.length;
    const parameters = '{"id":9007199254740993,"big":123456789012345678901234567890,"list":[-18446744073709551617,0.1,1e-7,1e23,2.0,-0.0],"id2":12}';
    const response = await gateway(suite.testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, raw: `{"parameters":${parameters}}` });
    expect(response.status).toBe(200);
    expect(response.body.execution.status).toBe('succeeded');
    const [call] = callsAfter(mark);
    // Floats as Python writes them, integral ones too (a Python receiver reads the float the caller wrote).
    expect(call.body).toContain(`"parameters":{"id":9007199254740993,"big":123456789012345678901234567890,"list":[-18446744073709551617,0.1,1e-07,1e+23,2.0,-0.0],"id2":12}`);
    expect(JSON.parse(call.body).signature).toBe(createHmac('sha256', tenant.hmacKey).update(signedPart(call.body)).digest('hex'));
    expect(() => new Webhook(tenant.hmacKey).verify(call.body, call.headers as Record<string, string>)).not.toThrow();
  });

  it('runs an action whose stored schema was saved before the size limit (131,072 bytes as written)', async () => {
    const name = await actionAnswering(json(200, { result: 'ok', error: '' }), { json_schema: { type: 'object' } });
    // 50,000 CJK characters: within the older limit of 65,536 characters, 150 KB in UTF-8.
    const stored = JSON.stringify({ type: 'object', description: '天'.repeat(50_000) });
    await suite.dataSource.query('UPDATE actions SET json_schema = $1::json WHERE tenant_id = $2 AND name = $3', [stored, tenant.tenantId, name]);
    const response = await execute(name, { parameters: {} });
    expect([response.status, response.body.execution?.status]).toEqual([200, 'succeeded']);
    // Sent back unchanged (as the console sends every field), it is not judged again, so the action stays editable;
    // a changed schema of that size is refused.
    const again = await gateway(suite.testApp, 'PUT', `/actions/${name}`, { token: tenant.jwt, raw: `{"json_schema":${stored},"description":"still editable"}` });
    expect([again.status, again.body.action?.description]).toEqual([200, 'still editable']);
    const changed = stored.replace('"type":"object"', '"type":"object","title":"changed"');
    const refused = await gateway(suite.testApp, 'PUT', `/actions/${name}`, { token: tenant.jwt, raw: `{"json_schema":${changed}}` });
    expect([refused.status, refused.body.details]).toEqual([400, 'json_schema: is larger than 131072 bytes as written']);
  });

  it('forwards keys in the order the caller wrote them, integer-like ones too, signed as Python re-serializes them', async () => {
    const name = await actionAnswering(json(200, { result: 'ok', error: '' }), { json_schema: { type: 'object' } });
    const mark = suite.receiver.calls.length;
    const parameters = '{"b":1,"10":2,"a":{"2":0,"1":[{"z":0,"0":1}]},"1":3}';
    const response = await gateway(suite.testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, raw: `{"parameters":${parameters}}` });
    expect(response.status).toBe(200);
    const [call] = callsAfter(mark);
    expect(call.body).toContain(`"parameters":${parameters},"timestamp":`);
    // What a caller that signs what it sent computes: the payload in the spec's key order, its parameters as sent.
    const expected = `{"action_name":"${name}","parameters":${parameters},"timestamp":${JSON.parse(call.body).timestamp}}`;
    expect(JSON.parse(call.body).signature).toBe(createHmac('sha256', tenant.hmacKey).update(expected).digest('hex'));
    // A repeated key keeps its first place and its last value, as Python reads it, whatever the earlier value held.
    const repeated = await gateway(suite.testApp, 'POST', `/actions/${name}/execute`, {
      token: tenant.jwt,
      raw: '{"parameters":{"1":0,"a":[[[{"2":1.0}]]],"a":2.0,"c":[1.0],"c":[1]}}',
    });
    expect([repeated.status, repeated.body.execution?.status]).toEqual([200, 'succeeded']);
    expect(callsAfter(mark)[1].body).toContain('"parameters":{"1":0,"a":2.0,"c":[1]},"timestamp":');
  });

  it('refuses a number a 64-bit float would change (400 Invalid parameters naming it), sending nothing', async () => {
    const name = await actionAnswering(ok, { json_schema: { type: 'object' } });
    const mark = suite.receiver.calls.length;
    const response = await gateway(suite.testApp, 'POST', `/actions/${name}/execute`, {
      token: tenant.jwt,
      raw: '{"parameters":{"price":0.100000000000000000000000000001,"rows":[{"tiny":1e-400}],"fine":0.1}}',
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'Invalid parameters',
      details:
        'parameters.price: cannot be forwarded exactly: a 64-bit float makes it 0.1 (send such a number as a string); ' +
        'parameters.rows.0.tiny: cannot be forwarded exactly: a 64-bit float makes it 0 (send such a number as a string)',
    });
    expect(callsAfter(mark)).toHaveLength(0);
    // Reading recurses; a body too deep for it is refused (whichever reading gives up first) rather than forwarded changed.
    const depth = 20_000;
    const deep = await gateway(suite.testApp, 'POST', `/actions/${name}/execute`, {
      token: tenant.jwt,
      raw: `{"parameters":{"a":${'['.repeat(depth)}12345678901234567890${']'.repeat(depth)}}}`,
    });
    expect([deep.status, deep.body.error]).toEqual([400, 'Invalid request']);
    expect(callsAfter(mark)).toHaveLength(0);
    // Not found still comes first, as for every parameter check.
    const unknown = await gateway(suite.testApp, 'POST', '/actions/not_there/execute', { token: tenant.jwt, raw: '{"parameters":{"price":1e-400}}' });
    expect(unknown.status).toBe(404);
    // A body full of them (50,000 in 1 MB) names the first ten, not all: the answer stays small.
    const many = Array.from({ length: 50_000 }, () => '1e-400').join(',');
    const crowded = await gateway(suite.testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, raw: `{"parameters":{"list":[${many}]}}` });
    expect(crowded.status).toBe(400);
    const lines = (crowded.body.details as string).split('; ');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('parameters.list.0: cannot be forwarded exactly: a 64-bit float makes it 0 (send such a number as a string)');
    expect(lines[9]).toMatch(/^parameters\.list\.9: /);
    expect(lines[10]).toBe('and more numbers like these');
    expect(callsAfter(mark)).toHaveLength(0);
  });

  it('refuses a non-object parameters value with 400 Invalid request', async () => {
    const name = await actionAnswering(ok);
    const response = await execute(name, { parameters: [1] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid request', details: 'parameters: must be a JSON object' });
  });

  it('gives 409 when the tenant has no active HMAC key, sending nothing', async () => {
    const keyless = await createTenant(suite.testApp, { hmacKey: false });
    const name = await actionAnswering(ok, {}, keyless);
    const mark = suite.receiver.calls.length;
    const response = await execute(name, undefined, keyless);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ error: 'no active HMAC key for this tenant' });
    expect(callsAfter(mark)).toHaveLength(0);
  });

  it('gives 404 for an unknown action and for another tenant\'s action, on execute and on the log', async () => {
    const name = await actionAnswering(ok);
    const other = await createTenant(suite.testApp);
    for (const [path, method] of [[`/actions/${name}/execute`, 'POST'], [`/actions/${name}/executions`, 'GET'], ['/actions/nope/execute', 'POST']] as const) {
      const response = await gateway(suite.testApp, method, path, { token: other.jwt, body: method === 'POST' ? { parameters: { city: 'x' } } : undefined });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'Action not found' });
    }
  });

  it('records the receiver\'s own error text as a failed execution', async () => {
    const name = await actionAnswering(json(200, { result: '', error: 'city not found' }));
    const execution = (await execute(name)).body.execution;
    expect(execution).toMatchObject({ status: 'failed', http_status: 200, error: 'city not found', attempts: 1 });
  });

  it.each([
    ['not JSON', 'plain text'],
    ['a JSON array', '[]'],
    ['a non-string error', '{"result":"x","error":42}'],
  ])('records %s as invalid response body', async (_, body) => {
    const name = await actionAnswering(json(200, body));
    expect((await execute(name)).body.execution).toMatchObject({ status: 'failed', http_status: 200, error: 'invalid response body' });
  });

  it('records a body that is not UTF-8 as invalid response body rather than storing replaced bytes', async () => {
    const latin1 = Buffer.concat([Buffer.from('{"result":"caf'), Buffer.from([0xe9]), Buffer.from('","error":""}')]);
    const name = await actionAnswering((_, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(latin1));
    expect((await execute(name)).body.execution).toMatchObject({ status: 'failed', http_status: 200, result: null, error: 'invalid response body' });
  });

  it('answers a long result and error whole, and keeps the first 4,096 characters of each in the log', async () => {
    const result = `${'é'.repeat(20_000)}😀`;
    const error = 'e'.repeat(5_000);
    const name = await actionAnswering(json(200, { result, error }));
    const execution = (await execute(name)).body.execution;
    expect(execution).toMatchObject({ status: 'failed', result, error });
    const [logged] = (await gateway(suite.testApp, 'GET', `/actions/${name}/executions`, { token: tenant.jwt })).body.executions;
    expect(logged).toEqual({ ...execution, replay_of: null, result: `${'é'.repeat(4_096)}…[truncated]`, error: `${'e'.repeat(4_096)}…[truncated]` });
  });

  it('retries a 500 twice with the same webhook-id and a fresh signature each time, then fails', async () => {
    const name = await actionAnswering(json(500, { error: 'boom' }));
    const mark = suite.receiver.calls.length;
    const execution = (await execute(name)).body.execution;
    expect(execution).toMatchObject({ status: 'failed', http_status: 500, error: 'webhook endpoint returned status 500', attempts: 3 });
    const calls = callsAfter(mark);
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.headers['webhook-id']).toBe(execution.id);
      expect(JSON.parse(call.body).signature).toBe(createHmac('sha256', tenant.hmacKey).update(signedPart(call.body)).digest('hex'));
      expect(new Webhook(tenant.hmacKey).verify(call.body, call.headers as Record<string, string>)).toBeTruthy();
    }
  });

  it.each([
    ['a 2 MB error page', 503, (response: import('node:http').ServerResponse) => response.end(Buffer.alloc(2 * 1024 * 1024, '<'))],
    ['an error page that never ends', 500, (response: import('node:http').ServerResponse) => {
      response.write('<html>');
      const timer = setInterval(() => response.write(' '), 50);
      response.on('close', () => clearInterval(timer));
    }],
  ])('takes a non-2xx answer by its status whatever its body (%s): retried, and recorded as that status', async (_case, code, body) => {
    const name = await actionAnswering((_, response) => {
      response.on('error', () => undefined);
      response.writeHead(code, { 'content-type': 'text/html' });
      body(response);
    });
    const mark = suite.receiver.calls.length;
    const execution = (await execute(name)).body.execution;
    // Waiting for the endless body would have ended the first attempt at the deadline, as a timeout.
    expect(execution).toMatchObject({ status: 'failed', http_status: code, error: `webhook endpoint returned status ${code}`, attempts: 3 });
    expect(callsAfter(mark)).toHaveLength(3);
  });

  it('retries over the same connection after an error answer with a short body (read and dropped, not cut)', async () => {
    let calls = 0;
    const name = await actionAnswering((call, response) => {
      calls += 1;
      if (calls > 1) return json(200, { result: 'done', error: '' })(call, response);
      // The headers first, the short body in a write of its own, as a server that streams its error page does. In
      // the same turn of the event loop, so it is there when the client reads the headers: a body that came later
      // would race the client's grace for it (100 ms), which a busy machine can lose.
      response.writeHead(503, { 'content-type': 'application/json' });
      response.flushHeaders();
      setImmediate(() => response.end('{"error":"busy"}'));
    });
    const mark = suite.receiver.calls.length;
    expect((await execute(name)).body.execution).toMatchObject({ status: 'succeeded', attempts: 2 });
    const [first, second] = callsAfter(mark);
    expect(second.remotePort).toBe(first.remotePort);
  });

  it('honours Retry-After on a 429 and succeeds on the next attempt', async () => {
    let calls = 0;
    const times: number[] = [];
    const name = await actionAnswering((call, response) => {
      times.push(Date.now());
      calls += 1;
      (calls === 1 ? json(429, { error: 'slow down' }, { 'retry-after': '1' }) : json(200, { result: 'done', error: '' }))(call, response);
    });
    const execution = (await execute(name)).body.execution;
    expect(execution).toMatchObject({ status: 'succeeded', attempts: 2, http_status: 200, result: 'done' });
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
  });

  it('does not follow a redirect', async () => {
    const name = await actionAnswering(json(302, {}, { location: suite.receiver.url('/elsewhere') }));
    const mark = suite.receiver.calls.length;
    expect((await execute(name)).body.execution).toMatchObject({ status: 'failed', http_status: 302, error: 'webhook endpoint returned status 302', attempts: 1 });
    expect(callsAfter(mark).map((call) => call.path)).toEqual(['/hook']);
  });

  it('cuts off a receiver that never answers at the deadline', async () => {
    const name = await actionAnswering(() => undefined);
    const started = Date.now();
    const execution = (await execute(name)).body.execution;
    expect(execution).toMatchObject({ status: 'failed', http_status: null, error: `webhook timed out after ${TIMEOUT_MS} ms`, attempts: 1 });
    expectEndedAtDeadline(Date.now() - started, TIMEOUT_MS);
  });

  it('cuts off a receiver that drips its answer one byte a second at the same total deadline', async () => {
    const name = await actionAnswering((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => response.write(' '), 1_000);
      response.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const execution = (await execute(name)).body.execution;
    expect(execution).toMatchObject({ status: 'failed', error: `webhook timed out after ${TIMEOUT_MS} ms` });
    expectEndedAtDeadline(Date.now() - started, TIMEOUT_MS);
  });

  it('stops reading a 100 MB answer at 1 MB without holding it in memory', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const name = await actionAnswering((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const pump = () => {
        while (sent < 100 * 1024 * 1024) {
          sent += chunk.length;
          if (!response.write(chunk)) return response.once('drain', pump);
        }
        response.end();
      };
      response.on('error', () => undefined);
      pump();
    });
    const before = process.memoryUsage().rss;
    const execution = (await execute(name)).body.execution;
    expect(execution).toMatchObject({ status: 'failed', http_status: 200, error: 'invalid response body', attempts: 1 });
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
  });

  it('retries a reset connection, then records it as unreachable', async () => {
    const name = await actionAnswering((_, response) => response.socket?.destroy());
    const mark = suite.receiver.calls.length;
    const execution = (await execute(name)).body.execution;
    expect(execution).toMatchObject({ status: 'failed', http_status: null, error: 'webhook endpoint unreachable (connection reset)', attempts: 3 });
    expect(callsAfter(mark)).toHaveLength(3);
  });

  it('records a closed port as unreachable after the retries', async () => {
    const doomed = await Receiver.start();
    const created = await gateway(suite.testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(doomed.url()) });
    await doomed.stop();
    const execution = (await execute(created.body.action.name)).body.execution;
    expect(execution).toMatchObject({ status: 'failed', http_status: null, error: 'webhook endpoint unreachable (connection refused)', attempts: 3 });
  });

  it('stores every execution with its attempts and lists them newest first, with a limit', async () => {
    let calls = 0;
    const name = await actionAnswering((call, response) => {
      calls += 1;
      json(200, { result: `run ${calls}`, error: '' })(call, response);
    });
    for (let i = 0; i < 3; i++) await execute(name);
    const all = (await gateway(suite.testApp, 'GET', `/actions/${name}/executions`, { token: tenant.jwt })).body.executions;
    expect(all.map((execution: { result: string }) => execution.result)).toEqual(['run 3', 'run 2', 'run 1']);
    const limited = await gateway(suite.testApp, 'GET', `/actions/${name}/executions?limit=2`, { token: tenant.jwt });
    expect(limited.body.executions).toEqual(all.slice(0, 2));
    for (const limit of ['0', 'ten', '-1', '1.5', '', '1e2']) {
      const response = await gateway(suite.testApp, 'GET', `/actions/${name}/executions?limit=${limit}`, { token: tenant.jwt });
      expect([response.status, response.body]).toEqual([400, { error: 'Invalid request', details: 'limit: must be a positive integer' }]);
    }
    // "At most 100": a larger limit is answered, with what there is up to 100 (the cap itself: below).
    for (const limit of ['101', '1000', '99999999999999999999999']) {
      const response = await gateway(suite.testApp, 'GET', `/actions/${name}/executions?limit=${limit}`, { token: tenant.jwt });
      expect([response.status, response.body.executions]).toEqual([200, all]);
    }
    const stored = await suite.dataSource.query('SELECT attempt_log FROM executions WHERE id = $1', [all[0].id]);
    expect(stored[0].attempt_log).toEqual([expect.objectContaining({ attempt: 1, http_status: 200, error: '' })]);
  });

  it('keeps 20 by default and at most 100', async () => {
    const name = await actionAnswering(json(200, { result: 'x', error: '' }));
    const actionId = (await suite.dataSource.query('SELECT id FROM actions WHERE tenant_id = $1 AND name = $2', [tenant.tenantId, name]))[0].id;
    await suite.dataSource.query(
      `INSERT INTO executions (id, tenant_id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, created_at)
       SELECT gen_random_uuid(), $1, $2, $3, 'succeeded', 200, 'r' || n, '', 1, 1, '[]', now() - n * interval '1 second' FROM generate_series(1, 120) AS n`,
      [tenant.tenantId, actionId, name],
    );
    expect((await gateway(suite.testApp, 'GET', `/actions/${name}/executions`, { token: tenant.jwt })).body.executions).toHaveLength(20);
    const hundred = (await gateway(suite.testApp, 'GET', `/actions/${name}/executions?limit=100`, { token: tenant.jwt })).body.executions;
    expect(hundred).toHaveLength(100);
    expect(hundred[0].result).toBe('r1');
    // Asking for more gives the same newest 100.
    expect((await gateway(suite.testApp, 'GET', `/actions/${name}/executions?limit=500`, { token: tenant.jwt })).body.executions).toEqual(hundred);
  });

  it('lists nothing older than the retention period (30 days by default): a minute inside it listed, a minute past it not', async () => {
    // What the upkeep drops at the same boundary (whole days, rows and payloads counted) is execution-log-retention.e2e-spec.ts.
    const name = await actionAnswering(json(200, { result: 'x', error: '' }));
    const kept = (await execute(name)).body.execution;
    const copyAt = async (age: string) =>
      (
        await suite.dataSource.query(
          `INSERT INTO executions (id, tenant_id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, created_at)
           SELECT gen_random_uuid(), tenant_id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, now() - $2::interval
           FROM executions WHERE id = $1 RETURNING id`,
          [kept.id, age],
        )
      )[0].id as string;
    const inside = await copyAt('30 days - 1 minute');
    await copyAt('30 days 1 minute');
    const left = (await gateway(suite.testApp, 'GET', `/actions/${name}/executions`, { token: tenant.jwt })).body.executions;
    expect(left.map((execution: { id: string }) => execution.id)).toEqual([kept.id, inside]);
  });

  it('skips a stored key that no longer decrypts and signs with the readable one', async () => {
    // Stored before the tenant's keys are first read, so the reads below see it (keys are reused for a while).
    await suite.dataSource.query(
      `INSERT INTO hmac_keys (id, tenant_id, key_ciphertext, created_at) VALUES (gen_random_uuid(), $1, 'v1.AAAA.AAAA.AAAA', now() + interval '1 second')`,
      [tenant.tenantId],
    );
    const name = await actionAnswering(json(200, { result: 'ok', error: '' }));
    const mark = suite.receiver.calls.length;
    expect((await execute(name)).body.execution.status).toBe('succeeded');
    const [call] = callsAfter(mark);
    expect(JSON.parse(call.body).signature).toBe(createHmac('sha256', tenant.hmacKey).update(signedPart(call.body)).digest('hex'));
  });

  it('signs with the newest key while several are active; every active key verifies the headers', async () => {
    const newer = (await admin(suite.testApp, 'POST', `/tenants/${tenant.tenantId}/hmac-keys`)).body.hmac_key;
    const name = await actionAnswering(json(200, { result: 'ok', error: '' }));
    const mark = suite.receiver.calls.length;
    await execute(name);
    const [call] = callsAfter(mark);
    expect(JSON.parse(call.body).signature).toBe(createHmac('sha256', newer.key).update(signedPart(call.body)).digest('hex'));
    for (const key of [tenant.hmacKey, newer.key]) expect(new Webhook(key).verify(call.body, call.headers as Record<string, string>)).toBeTruthy();
  });
});
