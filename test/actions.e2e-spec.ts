import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { eventually } from './support/eventually';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { ok, Receiver, status } from './support/receiver';
import { expectEndedAtDeadline } from './support/timing';
import { startTestApp, TestApp } from './support/test-app';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('actions (spec 4, contract "Actions")', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
  });
  beforeEach(async () => {
    receiver.behaviour = ok;
    tenant = await createTenant(testApp);
  });

  const storedCount = async (tenantId: string) =>
    Number((await testApp.app.get(DataSource).query('SELECT count(*) FROM actions WHERE tenant_id = $1', [tenantId]))[0].count);

  describe('POST /actions', () => {
    it('registers an action: 201 with exactly the Action fields, after one signed registration test', async () => {
      const body = actionBody(receiver.url('/v2/hook'), { json_schema: { type: 'object', required: ['b'], properties: { b: {}, a: {} } } });
      const before = receiver.calls.length;

      const response = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body });

      expect(response.status).toBe(201);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const action = response.body.action;
      expect(Object.keys(action).sort()).toEqual(['created_at', 'description', 'id', 'json_schema', 'name', 'tenant_id', 'updated_at', 'webhook_url']);
      expect(action).toMatchObject({ tenant_id: tenant.tenantId, name: body.name, description: body.description, webhook_url: body.webhook_url });
      expect(JSON.stringify(action.json_schema)).toBe(JSON.stringify(body.json_schema));
      const stored = await gateway(testApp, 'GET', `/actions/${body.name}`, { token: tenant.jwt });
      expect(stored.text).toContain(`"json_schema":${JSON.stringify(body.json_schema)}`); // same keys, same order
      expect(action.created_at).toMatch(ISO_MS);
      expect(action.updated_at).toBe(action.created_at);

      expect(receiver.calls.length).toBe(before + 1);
      const test = receiver.calls[receiver.calls.length - 1];
      expect(test.method).toBe('POST');
      expect(test.path).toBe('/v2/hook');
      expect(test.headers['content-type']).toBe('application/json');
      const sent = JSON.parse(test.body);
      expect(Object.keys(sent)).toEqual(['action_name', 'parameters', 'timestamp', 'test', 'signature']);
      expect(sent).toMatchObject({ action_name: body.name, parameters: {}, test: true });
      expect(Number.isInteger(sent.timestamp)).toBe(true);
      expect(Math.abs(sent.timestamp - Date.now() / 1000)).toBeLessThan(60);
      const signed = test.body.slice(0, test.body.indexOf(',"signature"')) + '}';
      expect(sent.signature).toBe(createHmac('sha256', tenant.hmacKey).update(signed).digest('hex'));
      expect(signed).toBe(JSON.stringify({ action_name: body.name, parameters: {}, timestamp: sent.timestamp, test: true }));
      expect(test.headers['webhook-id']).toBeTruthy();
      expect(test.headers['webhook-timestamp']).toBe(String(sent.timestamp));
      expect(test.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    });

    it('sends the registration test unsigned when the tenant has no HMAC key', async () => {
      const unsigned = await createTenant(testApp, { hmacKey: false });
      const response = await gateway(testApp, 'POST', '/actions', { token: unsigned.jwt, body: actionBody(receiver.url()) });
      expect(response.status).toBe(201);
      const sent = JSON.parse(receiver.calls[receiver.calls.length - 1].body);
      expect(Object.keys(sent)).toEqual(['action_name', 'parameters', 'timestamp', 'test']);
      expect(receiver.calls[receiver.calls.length - 1].headers['webhook-signature']).toBeUndefined();
    });

    it('gives 409 with the spec text for a name that exists, without calling the webhook', async () => {
      const body = actionBody(receiver.url());
      expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body })).status).toBe(201);
      const calls = receiver.calls.length;
      const again = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: { ...body, description: 'other' } });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: `action with name '${body.name}' already exists` });
      expect(receiver.calls.length).toBe(calls);
    });

    it.each([
      [500, 'webhook endpoint returned status 500'],
      [404, 'webhook endpoint returned status 404'],
      [302, 'webhook endpoint returned status 302'],
    ])('fails with 400 when the registration test gets %i, storing nothing', async (code, text) => {
      receiver.behaviour = status(code, code === 302 ? { location: receiver.url('/elsewhere') } : {});
      const calls = receiver.calls.length;
      const response = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: `action validation failed: ${text}` });
      expect(receiver.calls.length).toBe(calls + 1); // a redirect is not followed
      expect(await storedCount(tenant.tenantId)).toBe(0);
    });

    it('passes a registration test answered 200 at once, however slowly the receiver then sends its body', async () => {
      // The body never ends: waiting for it would fail the test at this deadline, however long. Long enough for the
      // headers to arrive on a busy machine.
      const slow = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: '5000' } });
      try {
        const owner = await createTenant(slow);
        receiver.behaviour = (_, response) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          const timer = setInterval(() => response.write(' '), 300);
          response.on('close', () => clearInterval(timer));
        };
        expect((await gateway(slow, 'POST', '/actions', { token: owner.jwt, body: actionBody(receiver.url()) })).status).toBe(201);
      } finally {
        await slow.close();
      }
    });

    it('keeps the registration test\'s connection for the first execution when its short body comes just after', async () => {
      receiver.behaviour = (call, response) => {
        if (!JSON.parse(call.body).test) return ok(call, response);
        // The headers first, the short body in a write of its own. In the same turn of the event loop, so it is
        // there when the client reads the headers: a body that came later would race the client's grace for it
        // (100 ms), which a busy machine can lose.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.flushHeaders();
        setImmediate(() => response.end('{}'));
      };
      const calls = receiver.calls.length;
      const action = actionBody(receiver.url());
      expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: action })).status).toBe(201);
      expect((await gateway(testApp, 'POST', `/actions/${action.name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'Oslo' } } })).status).toBe(200);
      const [registration, execution] = receiver.calls.slice(calls);
      expect(execution.remotePort).toBe(registration.remotePort);
    });

    it('fails with 400 "unreachable (timed out ...)" when the registration test gets no answer in time', async () => {
      const slow = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: '500' } });
      try {
        const owner = await createTenant(slow);
        receiver.behaviour = () => undefined;
        const started = Date.now();
        const response = await gateway(slow, 'POST', '/actions', { token: owner.jwt, body: actionBody(receiver.url()) });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: 'action validation failed: webhook endpoint unreachable (timed out after 500 ms)' });
        expectEndedAtDeadline(Date.now() - started, 500);
        expect(await storedCount(owner.tenantId)).toBe(0);
      } finally {
        await slow.close();
      }
    });

    it('accepts any 2xx answer to the registration test', async () => {
      receiver.behaviour = status(204);
      expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).status).toBe(201);
    });

    it('fails with 400 "unreachable" when nothing listens at the webhook URL', async () => {
      const closed = await Receiver.start();
      const url = closed.url();
      await closed.stop();
      const response = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(url) });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'action validation failed: webhook endpoint unreachable (connection refused)' });
      expect(await storedCount(tenant.tenantId)).toBe(0);
    });

    it.each([
      [{ name: undefined }, 'name: is required'],
      [{ name: '' }, 'name: must be 1 to 100 characters'],
      [{ name: 'a'.repeat(101) }, 'name: must be 1 to 100 characters'],
      [{ name: 'Get Weather' }, 'name: must match ^[a-z0-9_]+$ (lowercase letters, digits and underscores)'],
      [{ name: 42 }, 'name: must be a string'],
      [{ description: '' }, 'description: must be 1 to 500 characters'],
      [{ description: 'd'.repeat(501) }, 'description: must be 1 to 500 characters'],
      [{ description: 'nul\u0000byte' }, 'description: must not contain NUL characters or unpaired surrogates'],
      [{ description: undefined }, 'description: is required'],
      [{ webhook_url: undefined }, 'webhook_url: is required'],
      [{ webhook_url: 'not-a-url' }, 'webhook_url: must be an absolute http or https URL'],
      [{ webhook_url: ' http://127.0.0.1/hook' }, 'webhook_url: must not contain spaces or control characters'],
      [{ webhook_url: 'http://127.0.0.1/h\tx' }, 'webhook_url: must not contain spaces or control characters'],
      [{ webhook_url: 'http://127.0.0.1/h\u0000x' }, 'webhook_url: must not contain NUL characters'],
      [{ description: 'a\uFE0F'.repeat(500) }, 'description: must be 1 to 500 characters'],
      [{ description: 'lone \ud800 surrogate' }, 'description: must not contain NUL characters or unpaired surrogates'],
      [{ webhook_url: 'ftp://127.0.0.1/hook' }, 'webhook_url: must be an absolute http or https URL'],
      [{ webhook_url: '/relative' }, 'webhook_url: must be an absolute http or https URL'],
      [{ webhook_url: 'http://user:pw@127.0.0.1/' }, 'webhook_url: must not contain user credentials'],
      // What the URL parser would repair into a reachable URL, though it is no URI as written.
      [{ webhook_url: 'http:127.0.0.1/hook' }, 'webhook_url: must be an absolute http or https URL'],
      [{ webhook_url: 'http:///127.0.0.1/hook' }, 'webhook_url: must be an absolute http or https URL'],
      [{ webhook_url: 'http://127.0.0.1\\hook' }, 'webhook_url: must be a URI (RFC 3986): other characters, non-ASCII ones included, must be percent-encoded'],
      [{ webhook_url: 'http://127.0.0.1/hook?a=\u00fc' }, 'webhook_url: must be a URI (RFC 3986): other characters, non-ASCII ones included, must be percent-encoded'],
      [{ webhook_url: 'http://127.0.0.1/h%zzook' }, 'webhook_url: must be a URI (RFC 3986): % must start a percent-encoding like %2F'],
      [{ webhook_url: `http://127.0.0.1/${'a'.repeat(2048)}` }, 'webhook_url: must be at most 2048 characters'],
      [{ json_schema: undefined }, 'json_schema: is required'],
      [{ json_schema: [] }, 'json_schema: must be a JSON object'],
      [{ json_schema: 'object' }, 'json_schema: must be a JSON object'],
      [{ json_schema: { type: 'string' } }, 'json_schema: type must be "object"'],
      [{ json_schema: { type: 'object', properties: { a: { type: 'nope' } } } }, 'json_schema.properties.a.type: "nope" is not a JSON Schema type (use one of'],
      [{ json_schema: { type: 'object', required: 'a' } }, 'json_schema.required: must be an array of property names, e.g. ["city"], not "a"'],
      [{ json_schema: { type: 'object', properties: { a: { minimum: 'one' } } } }, 'json_schema.properties.a.minimum: must be a number, not "one"'],
      [{ json_schema: { $schema: 'http://json-schema.org/draft-04/schema#' } }, 'json_schema: unsupported $schema'],
      [{ json_schema: { $ref: 'https://example.com/schema.json' } }, 'json_schema: is not a valid JSON Schema'],
      [{ json_schema: { type: 'object', properties: { a: { nullable: true } } } }, 'json_schema: is not a valid JSON Schema: "nullable" cannot be used without "type"'],
      [{ json_schema: { type: 'object', description: 'a\u0000b' } }, 'json_schema: must not contain NUL characters or unpaired surrogates'],
      [{ json_schema: { type: 'object', properties: { ['lone \ud800']: {} } } }, 'json_schema: must not contain NUL characters or unpaired surrogates'],
      [{ json_schema: { type: 'object', enum: [{ x: 'tail \udc00' }] } }, 'json_schema: must not contain NUL characters or unpaired surrogates'],
      [{ json_schema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`p${i}`, { type: 'string', minLength: 1 }])) } }, 'json_schema: has more than 2000 values'],
      // 30,000 characters once read, but 180,000 bytes as sent back (each one \u0001).
      [{ json_schema: { type: 'object', description: '\u0001'.repeat(30_000) } }, 'json_schema: is larger than 131072 bytes as written'],
    ])('gives 400 Invalid request naming the field for %j', async (override, details) => {
      const calls = receiver.calls.length;
      const response = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url(), override) });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('Invalid request');
      expect(response.body.details).toContain(details);
      expect(Object.keys(response.body).sort()).toEqual(['details', 'error']);
      expect(receiver.calls.length).toBe(calls);
      expect(await storedCount(tenant.tenantId)).toBe(0);
    });

    it('names unknown fields with the field meant when the body is refused, and still ignores them in a valid one (contract)', async () => {
      const calls = receiver.calls.length;
      const misnamed = { name: 'get_weather', description: 'Weather', webhook: receiver.url(), schema: { type: 'object' } };
      const details =
        'webhook_url: is required; json_schema: is required; webhook: unknown field (did you mean "webhook_url"?); schema: unknown field (did you mean "json_schema"?)';
      for (const response of [
        await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: misnamed }),
        await admin(testApp, 'POST', `/tenants/${tenant.tenantId}/actions`, misnamed),
      ]) {
        expect([response.status, response.body]).toEqual([400, { error: 'Invalid request', details }]);
      }
      expect(receiver.calls.length).toBe(calls);
      expect(await storedCount(tenant.tenantId)).toBe(0);

      // The same unknown fields beside a valid body: 201, the contract's "ignored".
      const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: { ...actionBody(receiver.url()), webhook: 'x', schema: {} } });
      expect(created.status).toBe(201);
      const update = await gateway(testApp, 'PUT', `/actions/${created.body.action.name}`, { token: tenant.jwt, body: { webhookUrl: receiver.url('/v2') } });
      expect([update.status, update.body]).toEqual([
        400,
        { error: 'Invalid request', details: 'body: at least one of description, webhook_url, json_schema is required; webhookUrl: unknown field (did you mean "webhook_url"?)' },
      ]);
      const changed = await gateway(testApp, 'PUT', `/actions/${created.body.action.name}`, { token: tenant.jwt, body: { description: 'changed', webhookUrl: 'x' } });
      expect([changed.status, changed.body.action.description, changed.body.action.webhook_url]).toEqual([200, 'changed', receiver.url()]);
    });

    it.each([
      [{ type: 'object', properties: { city: { type: 'string' } }, require: ['city'] }, 'json_schema: unknown keyword "require" (did you mean "required"?)'],
      [{ type: 'object', propertis: { city: { type: 'string' } } }, 'json_schema: unknown keyword "propertis" (did you mean "properties"?)'],
      [
        { type: 'object', properties: { city: { type: 'string' } }, required: ['citty'] },
        'json_schema.required: "citty" is required but not among the properties (did you mean "city"?)',
      ],
      [{ type: 'object', properties: { city: { type: 'strng' } } }, 'json_schema.properties.city.type: "strng" is not a JSON Schema type (did you mean "string"?)'],
      [
        { type: 'object', properties: { city: { type: 'string', maxlength: 20 }, when: { type: 'date' } } },
        'json_schema.properties.city: unknown keyword "maxlength" (did you mean "maxLength"?); ' +
          'json_schema.properties.when.type: "date" is not a JSON Schema type (did you mean "type": "string", "format": "date"?)',
      ],
    ])('refuses a schema mistake JSON Schema would let pass (%j), on create, update and the management API', async (json_schema, details) => {
      const calls = receiver.calls.length;
      const response = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url(), { json_schema }) });
      expect([response.status, response.body]).toEqual([400, { error: 'Invalid request', details }]);
      const viaAdmin = await admin(testApp, 'POST', `/tenants/${tenant.tenantId}/actions`, actionBody(receiver.url(), { json_schema }));
      expect([viaAdmin.status, viaAdmin.body]).toEqual([400, { error: 'Invalid request', details }]);
      expect(receiver.calls.length).toBe(calls);
      expect(await storedCount(tenant.tenantId)).toBe(0);

      const created = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action;
      const update = await gateway(testApp, 'PUT', `/actions/${created.name}`, { token: tenant.jwt, body: { json_schema } });
      expect([update.status, update.body]).toEqual([400, { error: 'Invalid request', details }]);
      expect((await gateway(testApp, 'GET', `/actions/${created.name}`, { token: tenant.jwt })).body.action).toEqual(created);
    });

    it('keeps a schema with such a mistake, stored before the check, running and editable when sent back unchanged', async () => {
      const created = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action;
      const legacy = '{"type":"object","properties":{"city":{"type":"string"}},"require":["city"]}';
      await testApp.app.get(DataSource).query('UPDATE actions SET json_schema = $1 WHERE id = $2', [legacy, created.id]);
      const stored = (await gateway(testApp, 'GET', `/actions/${created.name}`, { token: tenant.jwt })).body.action;
      expect(stored.json_schema).toEqual(JSON.parse(legacy));

      const ran = await gateway(testApp, 'POST', `/actions/${created.name}/execute`, { token: tenant.jwt, body: { parameters: {} } });
      expect([ran.status, ran.body.execution?.status]).toEqual([200, 'succeeded']); // "require" is no check: {} passes, as before
      const edited = await gateway(testApp, 'PUT', `/actions/${created.name}`, {
        token: tenant.jwt,
        body: { description: 'edited in the console', webhook_url: stored.webhook_url, json_schema: stored.json_schema },
      });
      expect([edited.status, edited.body.action?.description]).toEqual([200, 'edited in the console']);
      const changed = await gateway(testApp, 'PUT', `/actions/${created.name}`, { token: tenant.jwt, body: { json_schema: { ...stored.json_schema, title: 'Weather' } } });
      expect([changed.status, changed.body.details]).toEqual([400, 'json_schema: unknown keyword "require" (did you mean "required"?)']);
    });

    it('names every invalid field at once', async () => {
      const response = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: { name: 'Bad', json_schema: [] } });
      expect(response.status).toBe(400);
      expect(response.body.details.split('; ').map((part: string) => part.split(':')[0])).toEqual(['name', 'description', 'webhook_url', 'json_schema']);
      // A malformed URL is named with the others; its destination is checked once every field is well-formed.
      const malformed = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: { name: 'A B', description: '', webhook_url: 'x', json_schema: 'y' } });
      expect([malformed.status, malformed.body]).toEqual([
        400,
        {
          error: 'Invalid request',
          details:
            'name: must match ^[a-z0-9_]+$ (lowercase letters, digits and underscores); description: must be 1 to 500 characters; ' +
            'webhook_url: must be an absolute http or https URL; json_schema: must be a JSON object',
        },
      ]);
      expect(await storedCount(tenant.tenantId)).toBe(0);
    });

    it('accepts draft-07 schemas, boundary lengths, and ignores unknown and read-only fields', async () => {
      const body = actionBody(receiver.url(), {
        name: 'a'.repeat(100),
        description: 'd'.repeat(500),
        json_schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'integer' } } },
        id: '00000000-0000-0000-0000-000000000000',
        tenant_id: '00000000-0000-0000-0000-000000000000',
        created_at: '2000-01-01T00:00:00.000Z',
        surprise: true,
      });
      const response = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body });
      expect(response.status).toBe(201);
      expect(response.body.action.id).not.toBe(body.id);
      expect(response.body.action.tenant_id).toBe(tenant.tenantId);
      expect(response.body.action.created_at).not.toBe(body.created_at);
      expect(response.body.action).not.toHaveProperty('surprise');
    });

    it('takes $schema with either scheme, with or without "#", as its dialect, and keeps it as written', async () => {
      const dialects = [
        ['http://json-schema.org/draft-07/schema#', 'draft-07'],
        ['http://json-schema.org/draft-07/schema', 'draft-07'],
        ['https://json-schema.org/draft-07/schema#', 'draft-07'],
        ['https://json-schema.org/draft-07/schema', 'draft-07'],
        ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
        ['https://json-schema.org/draft/2020-12/schema#', '2020-12'],
        ['http://json-schema.org/draft/2020-12/schema', '2020-12'],
        ['http://json-schema.org/draft/2020-12/schema#', '2020-12'],
      ];
      for (const [$schema, dialect] of dialects) {
        // An array `items` is a tuple in draft-07 and an error in 2020-12 (prefixItems there): the dialect decides.
        const tuple = { $schema, type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } } };
        const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url(), { json_schema: tuple }) });
        if (dialect === '2020-12') {
          expect([$schema, created.status, created.body.details]).toEqual([
            $schema,
            400,
            'json_schema.properties.pair.items: must be a schema in draft 2020-12 (an array of schemas is "prefixItems")',
          ]);
          continue;
        }
        expect([$schema, created.status]).toEqual([$schema, 201]);
        expect(created.body.action.json_schema).toEqual(tuple);
        const name = created.body.action.name;
        const refused = await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters: { pair: ['a', 'b'] } } });
        expect([$schema, refused.status, refused.body.error]).toEqual([$schema, 400, 'Invalid parameters']);
      }
      for (const [$schema, dialect] of dialects.filter(([, of]) => of === '2020-12')) {
        const prefixed = { $schema, type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } } };
        const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url(), { json_schema: prefixed }) });
        expect([$schema, dialect, created.status]).toEqual([$schema, dialect, 201]);
        const refused = await gateway(testApp, 'POST', `/actions/${created.body.action.name}/execute`, { token: tenant.jwt, body: { parameters: { pair: ['a', 'b'] } } });
        expect([$schema, refused.status]).toEqual([$schema, 400]);
        const updated = await gateway(testApp, 'PUT', `/actions/${created.body.action.name}`, { token: tenant.jwt, body: { json_schema: { $schema: 'https://json-schema.org/draft-07/schema', type: 'object' } } });
        expect([$schema, updated.status, updated.body.action?.json_schema]).toEqual([$schema, 200, { $schema: 'https://json-schema.org/draft-07/schema', type: 'object' }]);
      }
    });

    it('reads nullable as Ajv does: beside a type it admits null (docs/decisions.md)', async () => {
      const json_schema = { type: 'object', properties: { note: { type: 'string', nullable: true } }, required: ['note'] };
      const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url(), { json_schema }) });
      expect(created.status).toBe(201);
      const run = (note: unknown) => gateway(testApp, 'POST', `/actions/${created.body.action.name}/execute`, { token: tenant.jwt, body: { parameters: { note } } });
      expect((await run(null)).status).toBe(200);
      expect((await run(3)).status).toBe(400);
    });

    it('refuses a json_schema holding NUL or a lone surrogate on PUT too, and keeps the stored one', async () => {
      const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) });
      expect(created.status).toBe(201);
      const path = `/actions/${created.body.action.name}`;
      for (const json_schema of [{ type: 'object', title: 'a\u0000b' }, { type: 'object', properties: { ['\udfff']: {} } }]) {
        const response = await gateway(testApp, 'PUT', path, { token: tenant.jwt, body: { json_schema } });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: 'Invalid request', details: 'json_schema: must not contain NUL characters or unpaired surrogates (in a key or a string)' });
      }
      expect((await gateway(testApp, 'GET', path, { token: tenant.jwt })).body.action).toEqual(created.body.action);
    });

    it('refuses the 101st action with 403 before running the registration test', async () => {
      const small = await startTestApp({ env: { ACTIONS_PER_TENANT: '2' } });
      try {
        const owner = await createTenant(small);
        for (let i = 0; i < 2; i++) expect((await gateway(small, 'POST', '/actions', { token: owner.jwt, body: actionBody(receiver.url()) })).status).toBe(201);
        const calls = receiver.calls.length;
        const response = await gateway(small, 'POST', '/actions', { token: owner.jwt, body: actionBody(receiver.url()) });
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ error: 'action limit reached: a tenant may have at most 2 actions' });
        expect(receiver.calls.length).toBe(calls);
      } finally {
        await small.close();
      }
    });

    it('enforces the default limit of 100 actions per tenant', async () => {
      const dataSource = testApp.app.get(DataSource);
      await dataSource.query(
        `INSERT INTO actions (id, tenant_id, name, description, json_schema, webhook_url, created_at, updated_at)
         SELECT gen_random_uuid(), $1, 'bulk_' || n, 'd', '{}', 'http://127.0.0.1/', now(), now() FROM generate_series(1, 99) AS n`,
        [tenant.tenantId],
      );
      expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).status).toBe(201);
      const over = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) });
      expect(over.status).toBe(403);
      expect(over.body).toEqual({ error: 'action limit reached: a tenant may have at most 100 actions' });
      expect(await storedCount(tenant.tenantId)).toBe(100);
    });

    it('checks a taken name (409) before the quota (403)', async () => {
      const small = await startTestApp({ env: { ACTIONS_PER_TENANT: '1' } });
      try {
        const owner = await createTenant(small);
        const body = actionBody(receiver.url());
        expect((await gateway(small, 'POST', '/actions', { token: owner.jwt, body })).status).toBe(201);
        expect((await gateway(small, 'POST', '/actions', { token: owner.jwt, body })).status).toBe(409);
      } finally {
        await small.close();
      }
    });

    it('lets exactly one of 20 concurrent creates of one name win; the rest get 409', async () => {
      const body = actionBody(receiver.url());
      const responses = await Promise.all(Array.from({ length: 20 }, () => gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body })));
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses.filter((code) => code === 201)).toHaveLength(1);
      expect(statuses.filter((code) => code === 409)).toHaveLength(19);
      expect(await storedCount(tenant.tenantId)).toBe(1);
    });

    it('never lets concurrent creates take a tenant past its quota', async () => {
      const small = await startTestApp({ env: { ACTIONS_PER_TENANT: '5' } });
      try {
        const owner = await createTenant(small);
        const responses = await Promise.all(
          Array.from({ length: 15 }, () => gateway(small, 'POST', '/actions', { token: owner.jwt, body: actionBody(receiver.url()) })),
        );
        const statuses = responses.map((response) => response.status);
        expect(statuses.filter((code) => code === 201)).toHaveLength(5);
        expect(statuses.filter((code) => code === 403)).toHaveLength(10);
        expect(await storedCount(owner.tenantId)).toBe(5);
      } finally {
        await small.close();
      }
    });
  });

  describe('GET /actions and GET /actions/{name}', () => {
    it('lists the tenant\'s actions ordered by name, each exactly as stored', async () => {
      for (const name of ['b_two', 'a_one', '_zero', 'c3']) {
        await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url(), { name }) });
      }
      const response = await gateway(testApp, 'GET', '/actions', { token: tenant.jwt });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['actions']);
      expect(response.body.actions.map((action: { name: string }) => action.name)).toEqual(['_zero', 'a_one', 'b_two', 'c3']);
    });

    it('gives an empty list to a tenant with no actions', async () => {
      const response = await gateway(testApp, 'GET', '/actions', { token: tenant.jwt });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ actions: [] });
    });

    it('gets one action wrapped in {action}', async () => {
      const created = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action;
      const response = await gateway(testApp, 'GET', `/actions/${created.name}`, { token: tenant.jwt });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ action: created });
    });

    it.each(['missing_action', 'Not-A-Name', 'a%2Fb', 'a.b', '%00', 'x'.repeat(101), 'x'.repeat(5000)])('gives 404 Action not found for %s', async (name) => {
      const response = await gateway(testApp, 'GET', `/actions/${name}`, { token: tenant.jwt });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'Action not found' });
    });
  });

  describe('json_schema as it was written (contract: "same keys, same order")', () => {
    // Integer-like keys after others, which a JavaScript object would move first; numbers in spellings that
    // JSON.stringify would change; escapes kept as written; whitespace between tokens, which is not kept.
    const written = (extra: string) =>
      `{ "type" : "object",\n  "properties": { "zeta": {"type": "number", "minimum": 1.0, "maximum": 1E2, "multipleOf": 0.50},` +
      ` "10": {"type": "string", "description": "caf\\u00e9 \\"quoted\\" {x: 1}"}, "2": {"type": "string", "const": "a  b"} },\n` +
      `  "x-order": {"b": 1, "a": 2, "1": 3}${extra} }`;
    const compact = (extra: string) =>
      `{"type":"object","properties":{"zeta":{"type":"number","minimum":1.0,"maximum":1E2,"multipleOf":0.50},` +
      `"10":{"type":"string","description":"caf\\u00e9 \\"quoted\\" {x: 1}"},"2":{"type":"string","const":"a  b"}},` +
      `"x-order":{"b":1,"a":2,"1":3}${extra.replace(/\s/g, '')}}`;
    const raw = (fields: Record<string, unknown>, schema: string) => `${JSON.stringify(fields).slice(0, -1)},"json_schema":${schema}}`;
    const storedText = async (id: string) =>
      (await testApp.app.get(DataSource).query('SELECT json_schema::text AS text FROM actions WHERE id = $1', [id]))[0].text;

    it('gives it back as written from POST, GET, the list and the management API, and stores that text', async () => {
      const { json_schema: _unused, ...fields } = actionBody(receiver.url());
      const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, raw: raw(fields, written('')), headers: { 'content-type': 'application/json' } });
      expect(created.status).toBe(201);
      const expected = `"json_schema":${compact('')},"webhook_url"`;
      expect(created.text).toContain(expected);
      expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(created.body.action.json_schema.properties.zeta).toEqual({ type: 'number', minimum: 1, maximum: 100, multipleOf: 0.5 });
      expect(await storedText(created.body.action.id)).toBe(compact(''));

      const name = created.body.action.name;
      expect((await gateway(testApp, 'GET', `/actions/${name}`, { token: tenant.jwt })).text).toBe(created.text);
      expect((await gateway(testApp, 'GET', '/actions', { token: tenant.jwt })).text).toContain(expected);
      expect((await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/actions/${name}`)).text).toContain(expected);

      // A change of description reloads the action from the database: the text read back is the same.
      const renamed = await gateway(testApp, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { description: 'changed' } });
      expect(renamed.status).toBe(200);
      expect(renamed.text).toContain(expected);
      expect((await gateway(testApp, 'GET', `/actions/${name}`, { token: tenant.jwt })).text).toContain(expected);
    });

    it('keeps the schema a PUT sends as written, the last one when the key is repeated', async () => {
      const created = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action;
      const body = `{"json_schema": {"type": "string"}, "description": "new", "json\\u005fschema": ${written(', "examples": [1.0, -0.0]')}}`;
      const updated = await gateway(testApp, 'PUT', `/actions/${created.name}`, { token: tenant.jwt, raw: body, headers: { 'content-type': 'application/json' } });
      expect(updated.status).toBe(200);
      const expected = `"json_schema":${compact(', "examples": [1.0, -0.0]')},"webhook_url"`;
      expect(updated.text).toContain(expected);
      expect(updated.body.action.description).toBe('new');
      expect((await gateway(testApp, 'GET', `/actions/${created.name}`, { token: tenant.jwt })).text).toContain(expected);
      expect(await storedText(created.id)).toBe(compact(', "examples": [1.0, -0.0]'));
    });

    it('validates parameters against the schema as parsed', async () => {
      const { json_schema: _unused, ...fields } = actionBody(receiver.url());
      const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, raw: raw(fields, '{"type":"object","properties":{"n":{"type":"number","minimum":1.0}},"required":["n"]}') });
      expect(created.status).toBe(201);
      const execute = (n: number) => gateway(testApp, 'POST', `/actions/${fields.name}/execute`, { token: tenant.jwt, body: { parameters: { n } } });
      expect((await execute(0.5)).status).toBe(400);
      expect((await execute(1)).status).toBe(200);
    });
  });

  describe('PUT /actions/{name}', () => {
    it('updates the given fields, keeps the others, and moves updated_at', async () => {
      const created = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action;
      // The service's clock (this machine's) has moved past created_at, so updated_at can differ from it.
      await eventually(() => expect(Date.now()).toBeGreaterThan(Date.parse(created.created_at)), 1_000, 1);
      const response = await gateway(testApp, 'PUT', `/actions/${created.name}`, { token: tenant.jwt, body: { description: 'Now in Celsius', name: 'renamed' } });
      expect(response.status).toBe(200);
      expect(response.body.action).toEqual({ ...created, description: 'Now in Celsius', updated_at: response.body.action.updated_at });
      expect(Date.parse(response.body.action.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
      expect((await gateway(testApp, 'GET', `/actions/${created.name}`, { token: tenant.jwt })).body).toEqual(response.body);
    });

    it('runs the registration test on a new webhook URL and changes nothing when it fails', async () => {
      const created = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action;
      receiver.behaviour = status(503);
      const response = await gateway(testApp, 'PUT', `/actions/${created.name}`, {
        token: tenant.jwt,
        body: { webhook_url: receiver.url('/v2'), description: 'changed' },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'action validation failed: webhook endpoint returned status 503' });
      expect((await gateway(testApp, 'GET', `/actions/${created.name}`, { token: tenant.jwt })).body.action).toEqual(created);

      receiver.behaviour = ok;
      const calls = receiver.calls.length;
      const moved = await gateway(testApp, 'PUT', `/actions/${created.name}`, { token: tenant.jwt, body: { webhook_url: receiver.url('/v2') } });
      expect(moved.status).toBe(200);
      expect(moved.body.action.webhook_url).toBe(receiver.url('/v2'));
      expect(receiver.calls.length).toBe(calls + 1);
      expect(JSON.parse(receiver.calls[calls].body).test).toBe(true);
    });

    it('does not re-test an unchanged webhook URL', async () => {
      const created = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action;
      const calls = receiver.calls.length;
      const response = await gateway(testApp, 'PUT', `/actions/${created.name}`, { token: tenant.jwt, body: { webhook_url: created.webhook_url, json_schema: { type: 'object' } } });
      expect(response.status).toBe(200);
      expect(response.body.action.json_schema).toEqual({ type: 'object' });
      expect(receiver.calls.length).toBe(calls);
    });

    it('takes back a URL stored under laxer rules unchanged (as the console sends every field), but refuses it as a new one', async () => {
      const created = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action;
      // Stored before URLs had to be URIs as written (raw non-ASCII was accepted then).
      const legacy = `${receiver.url()}?city=Z\u00fcrich`;
      await testApp.app.get(DataSource).query('UPDATE actions SET webhook_url = $1 WHERE id = $2', [legacy, created.id]);
      const calls = receiver.calls.length;
      const edited = await gateway(testApp, 'PUT', `/actions/${created.name}`, {
        token: tenant.jwt,
        body: { description: 'edited in the console', webhook_url: legacy, json_schema: created.json_schema },
      });
      expect(edited.status).toBe(200);
      expect(edited.body.action).toMatchObject({ description: 'edited in the console', webhook_url: legacy });
      expect(receiver.calls.length).toBe(calls); // not tested again: it did not change

      const other = await gateway(testApp, 'PUT', `/actions/${created.name}`, { token: tenant.jwt, body: { webhook_url: `${receiver.url()}?city=G\u00f6teborg` } });
      expect([other.status, other.body.details]).toEqual([400, 'webhook_url: must be a URI (RFC 3986): other characters, non-ASCII ones included, must be percent-encoded']);
    });

    it.each([
      [{}, 'body: at least one of description, webhook_url, json_schema is required'],
      [{ name: 'only_name' }, 'body: at least one of description, webhook_url, json_schema is required'],
      [{ description: null }, 'description: must be a string'],
      [{ description: '' }, 'description: must be 1 to 500 characters'],
      [{ webhook_url: 'mailto:a@b' }, 'webhook_url: must be an absolute http or https URL'],
      [{ json_schema: { type: 'array' } }, 'json_schema: type must be "object"'],
    ])('gives 400 for %j and changes nothing', async (body, details) => {
      const created = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action;
      const response = await gateway(testApp, 'PUT', `/actions/${created.name}`, { token: tenant.jwt, body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'Invalid request', details });
      expect((await gateway(testApp, 'GET', `/actions/${created.name}`, { token: tenant.jwt })).body.action).toEqual(created);
    });

    it.each(['never_made', 'Not-A-Name', 'x'.repeat(101)])('gives 404 Action not found for %s, on PUT and DELETE', async (name) => {
      for (const method of ['PUT', 'DELETE']) {
        const response = await gateway(testApp, method, `/actions/${name}`, { token: tenant.jwt, body: method === 'PUT' ? { description: 'x' } : undefined });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: 'Action not found' });
      }
    });
  });

  describe('DELETE /actions/{name}', () => {
    it('deletes with 204 and an empty body; the action is gone', async () => {
      const created = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action;
      const response = await gateway(testApp, 'DELETE', `/actions/${created.name}`, { token: tenant.jwt });
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect((await gateway(testApp, 'GET', `/actions/${created.name}`, { token: tenant.jwt })).status).toBe(404);
      expect(await storedCount(tenant.tenantId)).toBe(0);
      const again = await gateway(testApp, 'DELETE', `/actions/${created.name}`, { token: tenant.jwt });
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: 'Action not found' });
    });

    it('accepts a Content-Type header with no body', async () => {
      const created = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action;
      const response = await gateway(testApp, 'DELETE', `/actions/${created.name}`, { token: tenant.jwt, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(204);
    });
  });

  describe('tenant isolation', () => {
    it('treats another tenant\'s action exactly like a missing one, and lets both use one name', async () => {
      const other = await createTenant(testApp);
      const body = actionBody(receiver.url());
      const mine = (await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body })).body.action;

      for (const [method, payload] of [['GET', undefined], ['PUT', { description: 'hijack' }], ['DELETE', undefined]] as const) {
        const response = await gateway(testApp, method, `/actions/${body.name}`, { token: other.jwt, body: payload });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: 'Action not found' });
      }
      expect((await gateway(testApp, 'GET', '/actions', { token: other.jwt })).body).toEqual({ actions: [] });
      expect((await gateway(testApp, 'GET', `/actions/${body.name}`, { token: tenant.jwt })).body.action).toEqual(mine);

      const theirs = await gateway(testApp, 'POST', '/actions', { token: other.jwt, body });
      expect(theirs.status).toBe(201);
      expect(theirs.body.action.tenant_id).toBe(other.tenantId);
    });
  });
});
