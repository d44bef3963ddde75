import { brotliCompressSync, gzipSync } from 'node:zlib';
import { actionBody, createTenant, gateway, TestTenant } from './support/factories';
import { Behaviour, ok, Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

/** A receiver that answers executions with `body` under `Content-Encoding: encoding` (registration tests: 200). */
const encoded =
  (encoding: string, body: Buffer): Behaviour =>
  (call, response) => {
    if (JSON.parse(call.body).test) return ok(call, response);
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding }).end(body);
  };

/** Receivers may compress their answer (gzip, br, deflate); it is decoded under the same 1 MB cap as a plain one. */
describe('compressed webhook answers', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await Receiver.start();
    tenant = await createTenant(testApp);
  });
  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
  });

  const executeAgainst = async (behaviour: Behaviour) => {
    receiver.behaviour = ok;
    const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) });
    expect(created.status).toBe(201);
    receiver.behaviour = behaviour;
    const response = await gateway(testApp, 'POST', `/actions/${created.body.action.name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'Oslo' } } });
    expect(response.status).toBe(200);
    return response.body.execution;
  };
  const answer = Buffer.from(JSON.stringify({ result: 'sunny', error: '' }));

  it.each([
    ['gzip', gzipSync(answer)],
    ['br', brotliCompressSync(answer)],
  ])('reads a %s answer', async (encoding, body) => {
    expect(await executeAgainst(encoded(encoding, body))).toMatchObject({ status: 'succeeded', http_status: 200, result: 'sunny', error: '' });
  });

  it('fails a decompression bomb as an oversized answer, without inflating it', async () => {
    const bomb = gzipSync(Buffer.alloc(256 * 1024 * 1024, ' ')); // 256 MB of spaces, about 250 KB on the wire
    const before = process.memoryUsage().rss;
    expect(await executeAgainst(encoded('gzip', bomb))).toMatchObject({ status: 'failed', http_status: 200, error: 'invalid response body' });
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('fails an answer whose encoding cannot be undone', async () => {
    expect(await executeAgainst(encoded('gzip', Buffer.from('{"result":"x"}')))).toMatchObject({ status: 'failed', error: 'invalid response body' });
  });
});
