import { connect } from 'node:net';
import fc from 'fast-check';
import { admin, createTenant, gateway, TestTenant } from './support/factories';
import { ok, Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Property-based bad input against every endpoint that takes a body or a path parameter. Whatever is sent:
 * never a 5xx, only a status the contract names, every 4xx is a JSON `{error, details?}` body, and a 4xx
 * leaves nothing stored. Fixed seed, bounded runs: the same cases every run.
 */

const SEED = 20261122;
const CONTRACT_STATUSES = new Set([200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 429]);
const stats = { cases: 0, byStatus: new Map<number, number>() };

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}

/**
 * One HTTP/1.1 request over a bare socket, so nothing normalizes it: the path is sent byte for byte (encoded
 * slashes, dot segments, raw UTF-8, percent garbage), headers may repeat, the body may be any bytes.
 */
function raw(baseUrl: string, method: string, path: string | Buffer, headers: Array<[string, string]> = [], body?: string | Buffer): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const lines = [`Host: ${hostname}:${port}`, 'Connection: close', ...headers.map(([name, value]) => `${name}: ${value}`)];
  if (payload) lines.push(`Content-Length: ${payload.length}`);
  const head = Buffer.concat([Buffer.from(`${method} `), Buffer.isBuffer(path) ? path : Buffer.from(path, 'utf8'), Buffer.from(` HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`, 'latin1')]);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 30 s to ${method} ${String(path).slice(0, 200)}`));
    }, 30_000);
    const finish = () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no HTTP answer to ${method} ${String(path).slice(0, 200)}: ${all.toString('latin1').slice(0, 200)}`));
      const [statusLine, ...headerLines] = all.subarray(0, split).toString('latin1').split('\r\n');
      const responseHeaders: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        responseHeaders[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let rest = all.subarray(split + 4);
      if (/chunked/i.test(responseHeaders['transfer-encoding'] ?? '')) {
        const parts: Buffer[] = [];
        for (;;) {
          const eol = rest.indexOf('\r\n');
          const size = parseInt(rest.subarray(0, eol).toString('latin1'), 16);
          if (!size) break;
          parts.push(rest.subarray(eol + 2, eol + 2 + size));
          rest = rest.subarray(eol + 2 + size + 2);
        }
        rest = Buffer.concat(parts);
      } else if (responseHeaders['content-length'] !== undefined) {
        rest = rest.subarray(0, Number(responseHeaders['content-length']));
      }
      const text = rest.toString('utf8');
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers: responseHeaders, text, body: parsed });
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', finish);
    socket.on('error', () => (chunks.length ? undefined : undefined)); // a reset after a 413 still leaves the answer read
    socket.on('close', () => finish());
    socket.write(payload ? Buffer.concat([head, payload]) : head);
  });
}

/** The invariants of every answer; throws (so fast-check shrinks) with the request and answer in the message. */
function expectSane(response: RawResponse, label: string): void {
  stats.cases += 1;
  stats.byStatus.set(response.status, (stats.byStatus.get(response.status) ?? 0) + 1);
  const where = `${label} -> ${response.status} ${response.text.slice(0, 300)}`;
  if (!CONTRACT_STATUSES.has(response.status)) throw new Error(`status not in the contract: ${where}`);
  if (!response.headers['x-request-id']) throw new Error(`no X-Request-Id: ${where}`);
  if (response.status >= 400) {
    const body = response.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error(`4xx body is not a JSON object: ${where}`);
    if (typeof body.error !== 'string') throw new Error(`4xx body has no string error: ${where}`);
    if (body.details !== undefined && typeof body.details !== 'string') throw new Error(`4xx details not a string: ${where}`);
    if (!/^application\/json/.test(response.headers['content-type'] ?? '')) throw new Error(`4xx not application/json: ${where}`);
  }
}

const label = (method: string, path: string | Buffer, body?: string | Buffer) =>
  `${method} ${String(path).slice(0, 120)} ${body === undefined ? '' : JSON.stringify(String(body).slice(0, 200))}${body && body.length > 200 ? `…(${body.length} bytes)` : ''}`;

// ---------------------------------------------------------------------------------------------------------------
// Generators
const nonString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
);
const nonObject = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }));
const badText = (max: number) =>
  fc.oneof(nonString, fc.constantFrom('', 'x'.repeat(max + 1), '😀'.repeat(max + 1), 'a\u0000b', 'a\ud800b', '\udfff'));

type FieldCase = { kind: 'valid' | 'invalid' | 'missing'; value: unknown };
const field = (valid: fc.Arbitrary<unknown>, invalid: fc.Arbitrary<unknown>, missing = true): fc.Arbitrary<FieldCase> =>
  fc.oneof(
    valid.map((value) => ({ kind: 'valid' as const, value })),
    invalid.map((value) => ({ kind: 'invalid' as const, value })),
    ...(missing ? [fc.constant({ kind: 'missing' as const, value: undefined })] : []),
  );
const build = (fields: Record<string, FieldCase>) => {
  const body: Record<string, unknown> = {};
  for (const [name, { kind, value }] of Object.entries(fields)) if (kind !== 'missing') body[name] = value;
  return body;
};
const badFields = (fields: Record<string, FieldCase>, required: boolean) =>
  Object.entries(fields)
    .filter(([, { kind }]) => kind === 'invalid' || (required && kind === 'missing'))
    .map(([name]) => name);

/**
 * The fields the details must name. A json_schema that is an object but not an acceptable schema is checked
 * after the field-level checks (it has to be compiled), so it is named only when it is the one bad field. So is
 * a webhook_url that is a string but not a URL on PUT; on POST its syntax is a field-level check (every
 * invalidUrl string is malformed, none only refused for its destination).
 */
const mustName = (fields: Record<string, FieldCase>, bad: string[], method: 'POST' | 'PUT') =>
  bad.filter((name) => {
    if (bad.length === 1) return true;
    const value = fields[name].value;
    if (name === 'json_schema') return !(typeof value === 'object' && value !== null && !Array.isArray(value));
    if (name === 'webhook_url' && method === 'PUT') return !(typeof value === 'string' && value.length <= 2048 && !value.includes('\u0000') && !/[\ud800-\udfff]/.test(value));
    return true;
  });

const validName = fc.integer({ min: 0, max: 1e9 }).map((n) => `fuzz_${n}`);
const invalidName = fc.oneof(
  nonString,
  fc.constantFrom('', 'A', 'a-b', 'a b', 'ñ', 'a'.repeat(101), 'a/b', '../x', 'a\u0000', 'a.b', 'ＡＢ'),
  fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !/^[a-z0-9_]{1,100}$/.test(s)),
);
const validDescription = fc.constantFrom('d', 'x'.repeat(500), '😀'.repeat(500), 'Ünïcödé ✓ "quoted" \\ back');
const validSchema = fc.constantFrom({}, { type: 'object' }, { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
const invalidSchema = fc.oneof(
  nonObject,
  fc.constantFrom(
    { type: 'string' },
    { type: ['object', 'null'] },
    { type: 'object', properties: 5 },
    { $ref: 'http://example.com/schema.json' },
    { type: 'object', required: 'x' },
    { minLength: -1 },
    { $schema: 'http://example.com/not-a-metaschema' },
  ),
);
const invalidUrl = (receiverUrl: string) =>
  fc.oneof(
    nonString,
    fc.constantFrom(
      '',
      'not a url',
      'ftp://127.0.0.1/x',
      'javascript:alert(1)',
      '/relative/path',
      `http://${'a'.repeat(2050)}.com/`,
      `${receiverUrl} x`,
      'http://exa\nmple.com/',
      'mailto:a@b.c',
      'file:///etc/passwd',
      'http://',
      'http://[::1',
    ),
  );

describe('bad input never breaks the gateway (property-based)', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let tenant: TestTenant;
  let patchTenantId: string;
  let base: string;
  const FIXED = 'fixed_action';
  const auth = (): Array<[string, string]> => [['authorization', `Bearer ${tenant.jwt}`]];
  const json: Array<[string, string]> = [['content-type', 'application/json']];
  const adminAuth = (): Array<[string, string]> => [['authorization', `Bearer ${testApp.config.adminApiKey}`]];

  const snapshotActions = async () => {
    const response = await gateway(testApp, 'GET', '/actions', { token: tenant.jwt });
    expect(response.status).toBe(200);
    return response.text;
  };
  const snapshotExecutions = async () => (await gateway(testApp, 'GET', `/actions/${FIXED}/executions?limit=100`, { token: tenant.jwt })).text;
  /**
   * The tenants a bad POST /tenants could have made since this file started: those with the name it sent. (On a
   * shared PostgreSQL other test files make tenants concurrently, so the whole list is not a stable snapshot;
   * the list is newest first, so what the request made would be on its first page.)
   */
  const startedAt = new Date().toISOString();
  const snapshotTenants = async (body?: string | Buffer) => {
    let name: unknown;
    try {
      name = JSON.parse(String(body)).name;
    } catch {
      name = undefined;
    }
    // A body whose name is not a string could only make a tenant under a name of its own invention (empty, or the
    // value spelt as text): look for those, not for every tenant made since, which other files make concurrently.
    const made = (t: { name: string }) =>
      typeof name === 'string' ? t.name === name : t.name.trim() === '' || ['undefined', 'null', 'true', 'false', '[object Object]'].includes(t.name) || (['number', 'boolean'].includes(typeof name) && t.name === String(name));
    const tenants = ((await admin(testApp, 'GET', '/tenants')).body.tenants as Array<{ name: string; created_at: string }>).filter(
      (t) => t.created_at >= startedAt && made(t),
    );
    return JSON.stringify(tenants);
  };
  const snapshotTenant = async () => (await admin(testApp, 'GET', `/tenants/${patchTenantId}`)).text;
  const snapshotTokens = async () => (await admin(testApp, 'GET', `/tenants/${patchTenantId}/api-tokens`)).text;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '1000000000', ADMIN_KEY_FAILURES_PER_MINUTE: '100000' } });
    base = testApp.baseUrl;
    receiver = await Receiver.start(ok);
    tenant = await createTenant(testApp);
    patchTenantId = (await createTenant(testApp)).tenantId;
    const created = await gateway(testApp, 'POST', '/actions', {
      token: tenant.jwt,
      body: { name: FIXED, description: 'fixed', webhook_url: receiver.url(), json_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    console.log(`bad-input: ${stats.cases} requests checked; statuses ${JSON.stringify(Object.fromEntries([...stats.byStatus].sort((a, b) => a[0] - b[0])))}`);
    await testApp?.close();
    await receiver?.stop();
  });

  /** Sends, checks the invariants, and checks that a 4xx left `snapshot` as it was. */
  async function probe(
    method: string,
    path: string | Buffer,
    headers: Array<[string, string]>,
    body: string | Buffer | undefined,
    snapshot?: (body?: string | Buffer) => Promise<string>,
  ): Promise<RawResponse> {
    const before = snapshot ? await snapshot(body) : undefined;
    const response = await raw(base, method, path, headers, body);
    expectSane(response, label(method, path, body));
    if (snapshot && response.status >= 400) {
      const after = await snapshot(body);
      if (after !== before) throw new Error(`state changed after a ${response.status}: ${label(method, path, body)} -> ${response.text.slice(0, 300)}`);
    }
    return response;
  }

  // The endpoints with a body, each with the snapshot a 4xx must leave alone.
  const endpoints = () => [
    { method: 'POST', path: '/api/v1/gateway/token/exchange', headers: json, snapshot: undefined },
    { method: 'POST', path: '/api/v1/gateway/actions', headers: [...auth(), ...json], snapshot: snapshotActions },
    { method: 'PUT', path: `/api/v1/gateway/actions/${FIXED}`, headers: [...auth(), ...json], snapshot: snapshotActions },
    { method: 'POST', path: `/api/v1/gateway/actions/${FIXED}/execute`, headers: [...auth(), ...json], snapshot: snapshotExecutions },
    { method: 'POST', path: '/api/v1/admin/tenants', headers: [...adminAuth(), ...json], snapshot: snapshotTenants },
    { method: 'PATCH', path: `/api/v1/admin/tenants/${patchTenantId}`, headers: [...adminAuth(), ...json], snapshot: snapshotTenant },
    { method: 'POST', path: `/api/v1/admin/tenants/${patchTenantId}/api-tokens`, headers: [...adminAuth(), ...json], snapshot: snapshotTokens },
  ];
  const endpointIndex = fc.integer({ min: 0, max: 6 });

  it('arbitrary JSON values as the body of every endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(endpointIndex, fc.oneof(fc.jsonValue(), fc.jsonValue({ stringUnit: 'binary' }), fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }))), async (index, value) => {
        const endpoint = endpoints()[index];
        await probe(endpoint.method, endpoint.path, endpoint.headers, JSON.stringify(value), endpoint.snapshot);
      }),
      { seed: SEED, numRuns: 280 },
    );
  });

  it('POST /actions: any field missing or of a wrong type or out of bounds is a 400 naming the field, nothing stored', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          name: field(validName, invalidName),
          description: field(validDescription, badText(500)),
          webhook_url: field(fc.constant(receiver.url()), invalidUrl(receiver.url())),
          json_schema: field(validSchema, invalidSchema),
        }),
        async (fields) => {
          const bad = badFields(fields, true);
          fc.pre(bad.length > 0);
          const body = JSON.stringify(build(fields));
          const response = await probe('POST', '/api/v1/gateway/actions', [...auth(), ...json], body, snapshotActions);
          if (response.status !== 400) throw new Error(`expected 400 for bad ${bad.join(', ')}: ${label('POST', '/actions', body)} -> ${response.status} ${response.text}`);
          expect(response.body.error).toBe('Invalid request');
          for (const name of mustName(fields, bad, 'POST')) if (!response.body.details.includes(name)) throw new Error(`details do not name ${name}: ${body} -> ${response.text}`);
        },
      ),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('PUT /actions/{name}: a wrong field, or none at all, is a 400 and the action is unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          description: field(validDescription, badText(500)),
          webhook_url: field(fc.constant(receiver.url()), invalidUrl(receiver.url())),
          json_schema: field(validSchema, invalidSchema),
        }),
        async (fields) => {
          const bad = badFields(fields, false);
          const present = Object.values(fields).some(({ kind }) => kind !== 'missing');
          fc.pre(bad.length > 0 || !present);
          const body = JSON.stringify(build(fields));
          const response = await probe('PUT', `/api/v1/gateway/actions/${FIXED}`, [...auth(), ...json], body, snapshotActions);
          if (response.status !== 400) throw new Error(`expected 400: PUT ${body} -> ${response.status} ${response.text}`);
          for (const name of mustName(fields, bad, 'PUT')) if (!response.body.details?.includes(name)) throw new Error(`details do not name ${name}: ${body} -> ${response.text}`);
        },
      ),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('execute: parameters of a wrong shape are a 400 and no execution is stored', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          nonObject.map((parameters) => ({ parameters })),
          nonString.map((city) => ({ parameters: { city } })),
          fc.constant({ parameters: {} }),
          fc.constant({ parameters: { town: 'Oslo' } }),
        ),
        async (body) => {
          const response = await probe('POST', `/api/v1/gateway/actions/${FIXED}/execute`, [...auth(), ...json], JSON.stringify(body), snapshotExecutions);
          expect(response.status).toBe(400);
        },
      ),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('token exchange: a missing or non-string api_token is a 400, any string a 401', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(nonString.map((api_token) => ({ api_token })), fc.string({ maxLength: 300 }).map((api_token) => ({ api_token })), fc.constant({})), async (body) => {
        const response = await probe('POST', '/api/v1/gateway/token/exchange', json, JSON.stringify(body));
        expect(response.status).toBe(typeof (body as { api_token?: unknown }).api_token === 'string' ? 401 : 400);
      }),
      { seed: SEED, numRuns: 80 },
    );
  });

  it('admin: wrong tenant and API-token fields are 400s and change nothing', async () => {
    const badExpiry = fc.oneof(nonString.filter((v) => v !== null), fc.constantFrom('', 'tomorrow', '2000-01-01T00:00:00Z', '2027-13-45T00:00:00Z', '2027-01-31', '2027-01-31T00:00:00'));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          badText(200).map((name) => ({ method: 'POST', path: '/api/v1/admin/tenants', body: { name }, snapshot: snapshotTenants })),
          fc.constant({ method: 'POST', path: '/api/v1/admin/tenants', body: {}, snapshot: snapshotTenants }),
          fc
            .record({ name: field(fc.constant('renamed'), badText(200)), status: field(fc.constantFrom('active'), fc.oneof(nonString, fc.constantFrom('', 'ACTIVE', 'paused', 'deleted'))) })
            .filter((fields) => badFields(fields, false).length > 0)
            .map((fields) => ({ method: 'PATCH', path: `/api/v1/admin/tenants/${patchTenantId}`, body: build(fields), snapshot: snapshotTenant })),
          fc
            .record({ name: field(fc.constant('bot'), badText(200)), expires_at: field(fc.constant('2099-01-31T00:00:00Z'), badExpiry) })
            .filter((fields) => badFields(fields, true).length > 0)
            .map((fields) => ({ method: 'POST', path: `/api/v1/admin/tenants/${patchTenantId}/api-tokens`, body: build(fields), snapshot: snapshotTokens })),
        ),
        async ({ method, path, body, snapshot }) => {
          const response = await probe(method, path, [...adminAuth(), ...json], JSON.stringify(body), snapshot);
          if (response.status !== 400) throw new Error(`expected 400: ${method} ${path} ${JSON.stringify(body)} -> ${response.status} ${response.text}`);
        },
      ),
      { seed: SEED, numRuns: 120 },
    );
  });

  it('huge strings (up to ~200 KB) in every field of every endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(endpointIndex, fc.constantFrom('name', 'description', 'webhook_url', 'api_token', 'status', 'expires_at', 'parameters', 'json_schema'), fc.integer({ min: 1000, max: 200_000 }), fc.constantFrom('a', 'é', '😀', '\\u0000', 'http://x/'), async (index, key, size, unit) => {
        const endpoint = endpoints()[index];
        const value = unit.repeat(Math.ceil(size / unit.length));
        const body = `{"${key}":"${value}","name":"n","description":"d"}`;
        await probe(endpoint.method, endpoint.path, endpoint.headers, body, endpoint.snapshot);
      }),
      { seed: SEED, numRuns: 40 },
    );
    for (const endpoint of endpoints()) {
      const response = await probe(endpoint.method, endpoint.path, endpoint.headers, `{"name":"${'a'.repeat(1_048_577)}"}`, endpoint.snapshot);
      expect([response.status, response.body]).toEqual([413, { error: 'Payload too large' }]);
    }
  });

  it('deep nesting (10,000 levels), duplicate keys, __proto__ and constructor keys', async () => {
    const deepArray = '['.repeat(10_000) + ']'.repeat(10_000);
    const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const deepSchema = '{"type":"object","properties":{"a":'.repeat(5_000) + '{}' + '}}'.repeat(5_000);
    const bodies = [
      deepArray,
      deepObject,
      `{"name":"deep_one","description":"d","webhook_url":"${receiver.url()}","json_schema":${deepObject}}`,
      `{"name":"deep_two","description":"d","webhook_url":"${receiver.url()}","json_schema":${deepSchema}}`,
      `{"parameters":${deepObject}}`,
      `{"parameters":{"city":${deepArray}}}`,
      `{"api_token":${deepArray}}`,
      `{"name":${deepArray}}`,
      `{"description":${deepObject}}`,
    ];
    for (const endpoint of endpoints()) {
      for (const body of bodies) {
        const response = await probe(endpoint.method, endpoint.path, endpoint.headers, body, endpoint.snapshot);
        expect(response.status).toBeGreaterThanOrEqual(400);
      }
    }

    const protoKey = fc.constantFrom('"__proto__":{"admin":true}', '"constructor":{"prototype":{"admin":true}}', '"__proto__":null', '"constructor":{"prototype":null}');
    await fc.assert(
      fc.asyncProperty(endpointIndex, protoKey, fc.integer({ min: 0, max: 2 }), async (index, key, where) => {
        const endpoint = endpoints()[index];
        const body = [
          `{${key},"name":"proto_x","description":"d","webhook_url":"${receiver.url()}","json_schema":{}}`,
          `{"name":"proto_y","description":"d","webhook_url":"${receiver.url()}","json_schema":{"type":"object",${key}},"parameters":{${key}}}`,
          `{"parameters":{"city":"Oslo",${key}},"api_token":"x","status":"active",${key}}`,
        ][where];
        const response = await probe(endpoint.method, endpoint.path, endpoint.headers, body, endpoint.snapshot);
        if (response.status !== 400) throw new Error(`expected 400 for a ${key} key: ${endpoint.method} ${endpoint.path} ${body} -> ${response.status} ${response.text}`);
      }),
      { seed: SEED, numRuns: 40 },
    );

    // Duplicate keys: JSON leaves them undefined; whatever the service makes of them, it must answer sanely, and
    // what it stores must be one of the values sent.
    await fc.assert(
      fc.asyncProperty(endpointIndex, fc.constantFrom('name', 'description', 'webhook_url', 'json_schema', 'api_token', 'parameters', 'status'), async (index, key) => {
        const endpoint = endpoints()[index];
        const values: Record<string, [string, string]> = {
          name: ['"dup_a"', '"dup_b"'],
          description: ['"first"', '""'],
          webhook_url: [`"${receiver.url()}"`, '"not a url"'],
          json_schema: ['{}', '"nope"'],
          api_token: ['"x"', '5'],
          parameters: ['{"city":"Oslo"}', '[]'],
          status: ['"active"', '"bogus"'],
        };
        const [first, second] = values[key];
        for (const [a, b] of [[first, second], [second, first]]) {
          const body = `{"name":"dup_c","description":"d","webhook_url":"${receiver.url()}","json_schema":{},"parameters":{"city":"x"},"${key}":${a},"${key}":${b}}`;
          await probe(endpoint.method, endpoint.path, endpoint.headers, body, endpoint.snapshot);
        }
      }),
      { seed: SEED, numRuns: 30 },
    );
  });

  it('invalid UTF-8 bytes in bodies', async () => {
    const invalidBytes = fc.constantFrom([0xff], [0xc3, 0x28], [0xe2, 0x82], [0xf0, 0x28, 0x8c, 0x28], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0x80]);
    await fc.assert(
      fc.asyncProperty(endpointIndex, invalidBytes, fc.integer({ min: 0, max: 2 }), async (index, bytes, where) => {
        const endpoint = endpoints()[index];
        const name = `utf_${where}_${bytes.join('_')}`;
        const [before, after] = [
          [`{"name":"${name}","description":"d`, `","webhook_url":"${receiver.url()}","json_schema":{},"parameters":{"city":"x"},"api_token":"a","status":"active"}`],
          ['{"name', `":"${name}"}`],
          ['', ''],
        ][where];
        const body = Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
        await probe(endpoint.method, endpoint.path, endpoint.headers, body, endpoint.snapshot);
      }),
      { seed: SEED, numRuns: 40 },
    );
  });

  it('wrong or missing content types', async () => {
    const contentTypes = fc.constantFrom<string | undefined>(
      undefined,
      '',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/jsonx',
      'application/json-patch+json',
      'application/json; charset=latin1',
      'APPLICATION/JSON',
      'application/json;;;',
      'text/json',
      '*/*',
      'application/json, text/plain',
    );
    await fc.assert(
      fc.asyncProperty(endpointIndex, contentTypes, async (index, contentType) => {
        const endpoint = endpoints()[index];
        const headers = endpoint.headers.filter(([name]) => name !== 'content-type');
        if (contentType !== undefined) headers.push(['content-type', contentType]);
        const body = JSON.stringify({ name: 'ct_probe', description: 'd', webhook_url: receiver.url(), json_schema: {}, parameters: { city: 'x' }, api_token: 'x' });
        const response = await probe(endpoint.method, endpoint.path, headers, body, endpoint.snapshot);
        if (contentType !== undefined && !/^application\/json\s*(;|$)/i.test(contentType) && response.status < 400) {
          throw new Error(`a ${contentType} body was accepted: ${endpoint.method} ${endpoint.path} -> ${response.status}`);
        }
        // No Content-Type at all: the body is read as JSON, so it is never refused for its media type.
        if (contentType === undefined && response.body?.details === 'body: Content-Type must be application/json') {
          throw new Error(`a body with no Content-Type was refused for it: ${endpoint.method} ${endpoint.path}`);
        }
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('routes that read no body still refuse malformed JSON or a non-object body (400) and do nothing', async () => {
    const owner = await createTenant(testApp);
    const tenantPath = `/api/v1/admin/tenants/${owner.tenantId}`;
    const keys = async () => (await admin(testApp, 'GET', `/tenants/${owner.tenantId}/hmac-keys`)).text;
    const tokens = async () => (await admin(testApp, 'GET', `/tenants/${owner.tenantId}/api-tokens`)).text;
    const key = (await admin(testApp, 'GET', `/tenants/${owner.tenantId}/hmac-keys`)).body.hmac_keys[0].id as string;
    const action = 'bodyless_probe';
    expect((await gateway(testApp, 'POST', '/actions', { token: owner.jwt, body: { name: action, description: 'd', webhook_url: receiver.url(), json_schema: {} } })).status).toBe(201);
    const actions = async () => (await gateway(testApp, 'GET', `/actions/${action}`, { token: owner.jwt })).text;
    const ownerAuth: Array<[string, string]> = [['authorization', `Bearer ${owner.jwt}`]];
    const routes = [
      { method: 'POST', path: `${tenantPath}/hmac-keys`, headers: adminAuth(), snapshot: keys },
      { method: 'DELETE', path: `${tenantPath}/hmac-keys/${key}`, headers: adminAuth(), snapshot: keys },
      { method: 'DELETE', path: `${tenantPath}/api-tokens/${owner.apiTokenId}`, headers: adminAuth(), snapshot: tokens },
      { method: 'DELETE', path: `/api/v1/gateway/actions/${action}`, headers: ownerAuth, snapshot: actions },
    ];
    const refused: Array<[string, string]> = [
      ['{', 'body: malformed JSON'],
      ['{"a":1', 'body: malformed JSON'],
      ['[]', 'body: must be a JSON object'],
      ['null', 'body: must be a JSON object'],
      ['3', 'body: must be a JSON object'],
      ['"text"', 'body: must be a JSON object'],
      ['{"__proto__":{}}', 'body: malformed JSON'],
    ];
    for (const route of routes) {
      for (const [body, details] of refused) {
        const response = await probe(route.method, route.path, [...route.headers, ...json], body, route.snapshot);
        expect([route.method, route.path, body, response.status, response.body.error, response.body.details?.slice(0, details.length)]).toEqual([
          route.method, route.path, body, 400, 'Invalid request', details,
        ]);
      }
      const plain = await probe(route.method, route.path, [...route.headers, ['content-type', 'text/plain']], 'hello', route.snapshot);
      expect([route.method, route.path, plain.status, plain.body.details]).toEqual([route.method, route.path, 400, 'body: Content-Type must be application/json']);
      // Authentication still comes first: without the key, the same malformed body is a 401.
      expect((await probe(route.method, route.path, json, '{', route.snapshot)).status).toBe(401);
    }
    // A JSON object (unknown fields are ignored) or no body at all is fine.
    expect((await raw(base, 'POST', `${tenantPath}/hmac-keys`, [...adminAuth(), ...json], '{"comment":"ignored"}')).status).toBe(201);
    expect((await raw(base, 'POST', `${tenantPath}/hmac-keys`, [...adminAuth(), ...json], '')).status).toBe(201);
    expect((await raw(base, 'POST', `${tenantPath}/hmac-keys`, adminAuth())).status).toBe(201);
    expect((await raw(base, 'DELETE', `${tenantPath}/hmac-keys/${key}`, [...adminAuth(), ...json], '{}')).status).toBe(204);
    expect((await raw(base, 'DELETE', `/api/v1/gateway/actions/${action}`, [...ownerAuth, ...json], '{}')).status).toBe(204);
  });

  it('odd header shapes: long or odd X-Request-Id, duplicate or malformed Authorization', async () => {
    const requestId = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'abcXYZ019._:-'), minLength: 1, maxLength: 200 }),
      fc.integer({ min: 129, max: 8000 }).map((n) => 'r'.repeat(n)),
      fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 50 }),
    );
    const authorization = fc.constantFrom(
      [['authorization', 'Bearer']],
      [['authorization', 'Bearer ']],
      [['authorization', 'Basic Zm9vOmJhcg==']],
      [['authorization', 'Bearer GOOD'], ['authorization', 'Bearer GOOD']],
      [['authorization', 'Bearer nonsense'], ['authorization', 'Bearer GOOD']],
      [['authorization', 'Bearer GOOD'], ['authorization', 'Bearer nonsense']],
      [['authorization', `Bearer ${'x'.repeat(8000)}`]],
      [['authorization', 'Bearer a.b.c']],
      [['authorization', 'Bearer GOOD']],
      [],
    );
    await fc.assert(
      fc.asyncProperty(endpointIndex, requestId, authorization, async (index, id, auths) => {
        const endpoint = endpoints()[index];
        const token = index >= 4 ? testApp.config.adminApiKey : tenant.jwt;
        const headers: Array<[string, string]> = [
          ['x-request-id', id],
          ['content-type', 'application/json'],
          ...auths.map(([name, value]) => [name, value.replace('GOOD', token)] as [string, string]),
        ];
        const response = await probe(endpoint.method, endpoint.path, headers, '{"parameters":{"city":"x"}}', endpoint.snapshot);
        const echoed = response.headers['x-request-id'];
        const valid = /^[A-Za-z0-9._:-]{1,128}$/.test(id);
        if (valid ? echoed !== id : !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(echoed)) {
          throw new Error(`X-Request-Id ${JSON.stringify(id.slice(0, 60))} answered with ${echoed}`);
        }
        const malformed = auths.length === 0 || (auths.length === 1 && auths[0][1] !== 'Bearer GOOD');
        if (index !== 0 && malformed && response.status !== 401) {
          throw new Error(`authorization ${JSON.stringify(auths)} on ${endpoint.method} ${endpoint.path} gave ${response.status}`);
        }
        if (index !== 0 && response.status === 401) {
          expect(response.body).toEqual({ error: 'Invalid token' });
        }
      }),
      { seed: SEED, numRuns: 80 },
    );
  });

  it('path names with encoded slashes, dots, percent garbage and unicode', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        '%2F', 'a%2Fb', '..', '.', '%2e%2e', '%2E', 'a%00b', '%', '%zz', '%E0%A4%A', '%C0%AF', '%FF', '%25', '%u0041', 'a%20b', 'A', 'ñ', '%C3%B1',
        '😀', 'a'.repeat(101), 'a'.repeat(100), '%66ixed_action', 'FIXED_ACTION', 'fixed_action%00', 'fixed_action;x', 'fixed_action?x=1', 'fixed_action#x',
        'fixed%5Faction', '..%2F..%2Fadmin', 'x/..', '', 'nope', '\u00e9\u0301', '%ED%A0%80', 'a+b', '%2B',
      ),
      fc.string({ unit: fc.constantFrom(...'az09_%2FfE.-~!$&\'()*+,;=:@'), minLength: 1, maxLength: 30 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }).map((s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}$/, '%')),
    );
    const route = fc.constantFrom(
      { method: 'GET', suffix: '' },
      { method: 'PUT', suffix: '' },
      { method: 'DELETE', suffix: '' },
      { method: 'POST', suffix: '/execute' },
      { method: 'GET', suffix: '/executions' },
      { method: 'GET', suffix: '/' },
      { method: 'PATCH', suffix: '' },
    );
    await fc.assert(
      fc.asyncProperty(segment, route, fc.boolean(), async (name, { method, suffix }, adminPath) => {
        fc.pre(!(method === 'DELETE' && /fixed/i.test(name)));
        const path = adminPath ? `/api/v1/admin/tenants/${name}` : `/api/v1/gateway/actions/${name}${suffix}`;
        // Raw non-ASCII bytes in the request target are not HTTP (they are tested on their own below): percent-encode them.
        const bytes = Buffer.from(path.replace(/[^\u0021-\u007e]/gu, (c) => encodeURIComponent(c)), 'utf8');
        const headers: Array<[string, string]> = [...(adminPath ? adminAuth() : auth()), ...json];
        const response = await probe(method, bytes, headers, method === 'GET' || method === 'DELETE' ? undefined : '{"description":"x"}', adminPath ? snapshotTenants : snapshotActions);
        const decoded = (() => {
          try {
            return decodeURIComponent(name.replace(/[?#].*$/s, ''));
          } catch {
            return undefined;
          }
        })();
        if (!adminPath && (decoded === undefined || !/^[a-z0-9_]{1,100}$/.test(decoded)) && response.status < 400) {
          throw new Error(`a non-matching name was served: ${method} ${path} -> ${response.status} ${response.text.slice(0, 200)}`);
        }
      }),
      { seed: SEED, numRuns: 200 },
    );
    // The fixed action survived every odd DELETE.
    expect((await gateway(testApp, 'GET', `/actions/${FIXED}`, { token: tenant.jwt })).status).toBe(200);
  });

  it('raw non-ASCII bytes and control characters in the request target get a contract error (JSON, X-Request-Id)', async () => {
    const targets = [
      Buffer.from('/api/v1/gateway/actions/ñ', 'utf8'),
      Buffer.from('/api/v1/gateway/actions/😀', 'utf8'),
      Buffer.concat([Buffer.from('/api/v1/gateway/actions/a'), Buffer.from([0xff, 0xfe])]),
      Buffer.concat([Buffer.from('/api/v1/gateway/actions/a'), Buffer.from([0x7f])]),
      Buffer.from('/api/v1/admin/tenants/ñ', 'utf8'),
    ];
    const failures: string[] = [];
    for (const target of targets) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const response = await raw(base, method, target, [...auth(), ...json], method === 'PUT' ? '{"description":"x"}' : undefined);
        try {
          expectSane(response, label(method, target.toString('latin1')));
          expect([400, 404]).toContain(response.status);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('a bearer header with text after the token is refused (401 Invalid token), not read up to the first space', async () => {
    const answers: string[] = [];
    for (const value of [`Bearer ${tenant.jwt} extra`, `Bearer ${tenant.jwt} ${tenant.jwt}`]) {
      const response = await raw(base, 'GET', '/api/v1/gateway/actions', [['authorization', value]]);
      expectSane(response, `GET /actions with authorization ${value.replace(tenant.jwt, '<jwt>')}`);
      answers.push(`${value.replace(tenant.jwt, '<jwt>').replace(tenant.jwt, '<jwt>')} -> ${response.status}`);
    }
    expect(answers).toEqual(['Bearer <jwt> extra -> 401', 'Bearer <jwt> <jwt> -> 401']);
  });
});
