import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { startExampleReceiver as startReceiver } from './support/example-receiver';
import { eventually } from './support/eventually';
import { actionBody, createTenant, gateway, TestTenant } from './support/factories';
import { itIf, python3Command } from './support/requirements';
import { startTestApp, TestApp } from './support/test-app';

/** Parameters that are hard to serialize the same way twice, plus a generated corpus. */
function parameterCorpus(): Record<string, unknown>[] {
  let deep: unknown = 'bottom';
  for (let i = 0; i < 40; i++) deep = { level: i, next: deep };
  const hard: Record<string, unknown>[] = [
    { text: 'héllo wörld ñ 中文 العربية' },
    { emoji: '😀👍🏽🇳🇴', zwj: '👩‍👩‍👧' },
    { control: '\u0000\u0001\u001f\u007f\b\f\n\r\t', quotes: '"\\/' },
    { lone: '\ud800', other: 'x\udfffy' },
    { separators: '\u2028\u2029' },
    { numbers: [0, -0, 1, -1, 0.1, 1e-7, 1.5e-10, 123456.789, 1e21, 1e300, -1e-300, 5e-324, 2 ** 53, -(2 ** 53), 1.7976931348623157e308] },
    { '2': 'integer-like key', a: 1, '1': 'sorted first' },
    { deep },
    { empty: {}, list: [], nothing: null, yes: true, no: false },
    // Near the 1 MB request limit, of text that arrives escaped as three times its size.
    { wide: 'ü'.repeat(524_000) },
  ];
  const generated = fc.sample(fc.dictionary(fc.string({ unit: 'grapheme-composite' }), fc.jsonValue({ maxDepth: 3 })), { numRuns: 60, seed: 20261122 });
  const unicode = fc.sample(fc.dictionary(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })), { numRuns: 30, seed: 7 });
  return [...hard, ...generated, ...unicode];
}

describe('the example receivers verify every call the service makes (docs/receivers.md)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await startTestApp();
    tenant = await createTenant(testApp);
  });
  afterAll(() => testApp.close());

  async function runAgainst(receiverUrl: string): Promise<{ name: string; corpus: Record<string, unknown>[] }> {
    const created = await gateway(testApp, 'POST', '/actions', {
      token: tenant.jwt,
      body: actionBody(receiverUrl, { json_schema: { type: 'object' } }),
    });
    expect(created.status).toBe(201);
    const name = created.body.action.name as string;
    const corpus = parameterCorpus();
    for (const parameters of corpus) {
      const response = await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters } });
      expect(response.status).toBe(200);
      if (response.body.execution.status !== 'succeeded') {
        throw new Error(`not verified: ${JSON.stringify(parameters)} → ${JSON.stringify(response.body.execution)}`);
      }
    }
    return { name, corpus };
  }

  const withPython = itIf(python3Command());
  withPython('Python (the kit\'s module, standard library only): both signatures, and json.dumps reproduces the signed bytes', async () => {
    const record = join(mkdtempSync(join(tmpdir(), 'agw-receiver-')), 'calls.jsonl');
    const { child, url } = await startReceiver('python3', ['examples/receiver.py'], { HMAC_KEY: tenant.hmacKey, RECEIVER_PORT: '0', RECORD_FILE: record });
    try {
      const { name, corpus } = await runAgainst(url);
      const recorded = readFileSync(record, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      expect(recorded).toHaveLength(corpus.length);
      expect(recorded.every((call) => call.verified === true && call.action_name === name)).toBe(true);
      // The spec's own check (5.3.4), re-serializing in Python, held for every call of the corpus too.
      expect(recorded.filter((call) => call.reserialized !== true)).toEqual([]);
    } finally {
      child.kill();
    }
  });

  withPython('Python receives big integers exactly as the caller sent them, and both signatures verify', async () => {
    const record = join(mkdtempSync(join(tmpdir(), 'agw-receiver-')), 'calls.jsonl');
    const { child, url } = await startReceiver('python3', ['examples/receiver.py'], { HMAC_KEY: tenant.hmacKey, RECEIVER_PORT: '0', RECORD_FILE: record });
    try {
      const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(url, { json_schema: { type: 'object' } }) });
      expect(created.status).toBe(201);
      const parameters = '{"id":9007199254740993,"big":-123456789012345678901234567890,"list":[18446744073709551617,1e23,0.1]}';
      const response = await gateway(testApp, 'POST', `/actions/${created.body.action.name}/execute`, { token: tenant.jwt, raw: `{"parameters":${parameters}}` });
      expect(response.body.execution).toMatchObject({ status: 'succeeded', error: '' });
      // The receiver writes what Python's json read (json.dumps, default separators): the same integers.
      const [line] = readFileSync(record, 'utf8').trim().split('\n');
      expect(line).toContain('"parameters": {"id": 9007199254740993, "big": -123456789012345678901234567890, "list": [18446744073709551617, 1e+23, 0.1]}');
      expect(line).toContain('"verified": true, "reserialized": true');
    } finally {
      child.kill();
    }
  });

  it('the kit, as this checkout links it after `npm run build`: require() finds its CommonJS build (packages/receiver-kit/README.md)', () => {
    const kit = createRequire(join(__dirname, '..', 'package.json'))('@action-gateway/receiver-kit') as { verifyWebhook: unknown };
    expect(typeof kit.verifyWebhook).toBe('function');
  });

  it('Node (examples/receiver.mjs, the kit): both signatures on the raw bytes', async () => {
    const { child, url } = await startReceiver(process.execPath, ['examples/receiver.mjs'], { HMAC_KEY: tenant.hmacKey, RECEIVER_PORT: '0' });
    try {
      await runAgainst(url);
    } finally {
      child.kill();
    }
  });

  const refusesForeignKey = async (command: string, script: string) => {
    const { child, url } = await startReceiver(command, [script], { HMAC_KEY: 'whsec_' + Buffer.alloc(32, 9).toString('base64'), RECEIVER_PORT: '0' });
    try {
      const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(url, { json_schema: { type: 'object' } }) });
      expect(created.status).toBe(400);
      expect(created.body).toEqual({ error: 'action validation failed: webhook endpoint returned status 401' });
    } finally {
      child.kill();
    }
  };
  withPython('Python refuses a call signed with another key (the check is not vacuous)', () => refusesForeignKey('python3', 'examples/receiver.py'));
  it('Node refuses a call signed with another key (the check is not vacuous)', () => refusesForeignKey(process.execPath, 'examples/receiver.mjs'));

  /** A typo in the webhook path fails the registration test, and the receiver says why on its terminal. */
  const expectOnlyHookAnswered = async (command: string, script: string) => {
    const { child, url } = await startReceiver(command, [script], { HMAC_KEY: tenant.hmacKey, RECEIVER_PORT: '0' });
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    try {
      const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(url.replace(/\/hook$/, '/hoook'), { json_schema: { type: 'object' } }) });
      expect([created.status, created.body]).toEqual([400, { error: 'action validation failed: webhook endpoint returned status 404' }]);
      await eventually(async () => expect(said).toContain("POST /hoook: this receiver answers POST /hook only (is the action's webhook_url right?)"));
      expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(url, { json_schema: { type: 'object' } }) })).status).toBe(201);
    } finally {
      child.kill();
    }
  };
  withPython('Python answers POST /hook only: a typo in the webhook path is a 404 it reports', () => expectOnlyHookAnswered('python3', 'examples/receiver.py'));
  it('Node answers POST /hook only: a typo in the webhook path is a 404 it reports', () => expectOnlyHookAnswered(process.execPath, 'examples/receiver.mjs'));

  /** `export PORT=...` moves the service, not the receiver; a taken RECEIVER_PORT is one line, not a stack. */
  const expectOwnPort = async (command: string, script: string) => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const { child, url } = await startReceiver(command, [script], { HMAC_KEY: tenant.hmacKey, PORT: String(port), RECEIVER_PORT: '0' });
      child.kill();
      expect(url).not.toContain(`:${port}/`);
      const taken = spawnSync(command, [script], { cwd: join(__dirname, '..'), env: { ...process.env, HMAC_KEY: tenant.hmacKey, RECEIVER_PORT: String(port) }, encoding: 'utf8', timeout: 20_000 });
      expect(taken.status).toBe(1);
      expect(taken.stderr.trim()).toMatch(new RegExp(`^receiver cannot listen on 127\\.0\\.0\\.1:${port}: [^\\n]+ \\(set RECEIVER_PORT to another port\\)$`));
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  };
  withPython('Python listens on RECEIVER_PORT, not the service\'s PORT, and says so in one line when it is taken', () => expectOwnPort('python3', 'examples/receiver.py'));
  it('Node listens on RECEIVER_PORT, not the service\'s PORT, and says so in one line when it is taken', () => expectOwnPort(process.execPath, 'examples/receiver.mjs'));
});
