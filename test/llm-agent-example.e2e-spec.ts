import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { verifyWebhook } from '@action-gateway/receiver-kit';
import { createTenant, gateway, TestTenant } from './support/factories';
import { Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

const ROOT = resolve(__dirname, '..');

/** Runs examples/llm-agent.mjs to the end and gives its exit code and output. */
function runExample(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['examples/llm-agent.mjs'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => done({ code, output }));
  });
}

describe('examples/llm-agent.mjs (docs/llm-tools.md)', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await Receiver.start((call, response) => {
      const city = call.body.includes('"test":true') ? '' : JSON.parse(call.body).parameters.city;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: `Sunny in ${city}`, error: '' }));
    });
    tenant = await createTenant(testApp);
    const body = {
      name: 'get_weather',
      description: 'Current weather for a city',
      webhook_url: receiver.url(),
      json_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    };
    expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body })).status).toBe(201);
  });
  afterAll(async () => {
    await receiver.stop();
    await testApp.close();
  });

  it('runs the scripted model\'s tool call through execute, then the same tool over MCP, each a signed call', async () => {
    receiver.calls.length = 0;
    const { code, output } = await runExample({ GATEWAY_URL: testApp.baseUrl, JWT: tenant.jwt });
    expect(code).toBe(0);
    const lines = output.trim().split('\n');
    expect(lines[0]).toBe('openai: 1 tool(s); strict: get_weather');
    expect(lines[1]).toMatch(/^openai: get_weather\(\{"city":"Oslo"\}\) -> succeeded \(execution [0-9a-f-]{36}\)$/);
    expect(lines[2]).toBe('model: The tool said: Sunny in Oslo');
    expect(lines[3]).toBe('mcp: 1 tool(s): get_weather');
    expect(lines[4]).toMatch(/^mcp: get_weather -> ok: Sunny in Oslo \(execution [0-9a-f-]{36}\)$/);
    expect(receiver.calls).toHaveLength(2);
    for (const received of receiver.calls) expect(verifyWebhook(received.body, received.headers, tenant.hmacKey).ok).toBe(true);
    const executions = (await gateway(testApp, 'GET', '/actions/get_weather/executions', { token: tenant.jwt })).body.executions;
    expect(executions.map((execution: { id: string }) => execution.id).sort()).toEqual(
      [lines[1], lines[4]].map((line) => /execution ([0-9a-f-]{36})/.exec(line)![1]).sort(),
    );
  });

  it('runs its stand-in model on MODEL_PORT when given, and says so when that port is taken', async () => {
    const holder = createServer();
    await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', listening));
    const { port } = holder.address() as AddressInfo;
    try {
      const taken = await runExample({ GATEWAY_URL: testApp.baseUrl, JWT: tenant.jwt, MODEL_PORT: String(port) });
      expect(taken).toEqual({ code: 1, output: `MODEL_PORT: 127.0.0.1:${port} is already in use by another process (choose another, or unset it for a free one)\n` });
    } finally {
      await new Promise((closed) => holder.close(closed));
    }
    const free = await runExample({ GATEWAY_URL: testApp.baseUrl, JWT: tenant.jwt, MODEL_PORT: String(port) });
    expect([free.code, free.output.split('\n')[2]]).toEqual([0, 'model: The tool said: Sunny in Oslo']);
    expect(await runExample({ GATEWAY_URL: testApp.baseUrl, JWT: tenant.jwt, MODEL_PORT: 'any' })).toEqual({
      code: 2,
      output: 'MODEL_PORT must be a whole number from 0 to 65535 (0: a free one), not "any"\n',
    });
  });

  it('feeds a refused call back to the model as an error instead of failing', async () => {
    const { code, output } = await runExample({ GATEWAY_URL: testApp.baseUrl, JWT: tenant.jwt, ARGUMENTS: '{"city":42}' });
    expect(code).toBe(0);
    expect(output).toContain('openai: get_weather({"city":42}) -> failed (execution none)');
    expect(output).toContain('model: The tool said: Error: POST /actions/get_weather/execute: 400 {"error":"Invalid parameters","details":"parameters.city: must be string"}');
    expect(output).toContain('mcp: get_weather -> error: Invalid parameters: parameters.city: must be string (execution none)');
  });
});
