import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startExampleReceiver } from './support/example-receiver';
import { actionBody, createTenant, gateway, TestTenant } from './support/factories';
import { itIf, Requirement } from './support/requirements';
import { startTestApp, TestApp } from './support/test-app';

const ROOT = resolve(__dirname, '..');
const KIT_PYTHON = join(ROOT, 'packages', 'receiver-kit', 'python');

/**
 * The copy-paste receivers of docs/receivers.md (examples/frameworks/), run against the service: each verifies
 * with the receiver kit, passes the registration test and executions, and refuses another tenant's key. The
 * Python ones run where their framework is installed (Flask is on the CI image; FastAPI may not be).
 */
const pythonHas = (name: string, modules: string): Requirement => ({
  name,
  missing: spawnSync('python3', ['-c', `import ${modules}`], { env: { ...process.env, PYTHONPATH: KIT_PYTHON } }).status === 0
    ? undefined
    : `python3 cannot import ${modules}`,
});

const frameworks = [
  { name: 'Express', file: 'express.mjs', requires: { name: 'NODE' } as Requirement, command: process.execPath, args: ['examples/frameworks/express.mjs'] },
  { name: 'Fastify', file: 'fastify.mjs', requires: { name: 'NODE' } as Requirement, command: process.execPath, args: ['examples/frameworks/fastify.mjs'] },
  { name: 'Flask', file: 'flask_receiver.py', requires: pythonHas('FLASK', 'flask'), command: 'python3', args: ['examples/frameworks/flask_receiver.py'] },
  {
    name: 'FastAPI',
    file: 'fastapi_receiver.py',
    requires: pythonHas('FASTAPI', 'fastapi, uvicorn'),
    command: 'python3',
    args: ['-m', 'uvicorn', '--app-dir', 'examples/frameworks', 'fastapi_receiver:app', '--host', '127.0.0.1', '--port', '0'],
  },
];

describe('the framework receivers in docs/receivers.md work as pasted', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await startTestApp();
    tenant = await createTenant(testApp);
  });
  afterAll(() => testApp.close());

  it('are in the documentation exactly as in examples/frameworks/', () => {
    const docs = readFileSync(join(ROOT, 'docs', 'receivers.md'), 'utf8');
    for (const { file } of frameworks) {
      const source = readFileSync(join(ROOT, 'examples', 'frameworks', file), 'utf8');
      expect([file, docs.includes(source)]).toEqual([file, true]);
    }
  });

  for (const framework of frameworks) {
    itIf(framework.requires)(`${framework.name}: verifies the registration test and executions, refuses another key`, async () => {
      const env = { HMAC_KEY: `whsec_${Buffer.alloc(32, 3).toString('base64')},${tenant.hmacKey}`, RECEIVER_PORT: '0', PYTHONPATH: KIT_PYTHON };
      const { child, url } = await startExampleReceiver(framework.command, framework.args, env);
      try {
        const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(url, { json_schema: { type: 'object' } }) });
        expect(created.status).toBe(201);
        const name = created.body.action.name as string;
        // The last: a request near the 1 MB limit, of text that arrives escaped as three times its size.
        const wide = { city: 'Bern', note: 'ü'.repeat(524_000) };
        for (const parameters of [{ city: 'Zürich 😀' }, { city: 'Oslo', days: 3, big: 1e21 }, wide]) {
          const response = await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters } });
          expect(response.body.execution).toMatchObject({ status: 'succeeded', http_status: 200, result: `ran ${name} for ${parameters.city}`, error: '' });
        }
      } finally {
        child.kill();
      }

      const stranger = await startExampleReceiver(framework.command, framework.args, { ...env, HMAC_KEY: `whsec_${Buffer.alloc(32, 4).toString('base64')}` });
      try {
        const refused = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(stranger.url, { json_schema: { type: 'object' } }) });
        expect(refused.body).toEqual({ error: 'action validation failed: webhook endpoint returned status 401' });
      } finally {
        stranger.child.kill();
      }
    });
  }
});
