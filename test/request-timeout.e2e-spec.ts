import { mkdtempSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './support/eventually';
import { call } from './support/http';
import { READY_TEST_MS, runCli, ServiceProcess } from './support/process';
import { Receiver } from './support/receiver';

/**
 * A client that sends its request slowly, or never finishes it, holds a connection and a file descriptor only
 * until REQUEST_TIMEOUT_MS: then it gets 408 and the connection closes. A client that gives up half way is its
 * own business, not a database outage in the log.
 */
describe('a request that is not sent in time', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'agw-request-timeout-'));
  // Node checks the deadlines every second at this setting, so an answer comes 1 to 2 s after the request began.
  const service = ServiceProcess.start({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'debug', REQUEST_TIMEOUT_MS: '1000' });
  let url: string;

  beforeAll(async () => {
    url = await service.ready(dataDir);
  }, READY_TEST_MS);
  afterAll(() => service.stop());

  /** Opens a connection and sends the headers of a POST announcing `announced` bytes, then only `sent` of them. */
  function unfinishedPost(announced: number, sent: number, headers: string[] = []): Socket {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    const head = [`POST /api/v1/gateway/actions HTTP/1.1`, `Host: ${hostname}:${port}`, 'Content-Type: application/json', `Content-Length: ${announced}`, ...headers];
    socket.write(`${head.join('\r\n')}\r\n\r\n${'{'.padEnd(sent, ' ')}`);
    return socket;
  }

  /** Everything the server writes until it closes the connection, or undefined when it has not within `ms`. */
  function answerOf(socket: Socket, ms: number): Promise<string | undefined> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(undefined);
      }, ms);
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
    });
  }

  it('answers 408 in the contract\'s shape and closes the connection, with or without a bearer token', async () => {
    for (const headers of [[], ['Authorization: Bearer not-a-token']]) {
      const answer = await answerOf(unfinishedPost(1000, 1, headers), 10_000);
      expect(answer).toBeDefined();
      const [head, body] = answer!.split('\r\n\r\n');
      expect(head.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
      expect(head).toMatch(/^Content-Type: application\/json; charset=utf-8$/m);
      expect(head).toMatch(/^X-Request-Id: [0-9a-f-]{36}$/m);
      expect(JSON.parse(body)).toEqual({ error: 'Request timeout' });
    }
    // The service itself carries on.
    expect((await call(url, 'GET', '/healthz')).status).toBe(200);
  });

  it('lets an earlier request on the connection finish its answer (pipelining), then closes instead of a 408', async () => {
    const receiver = await Receiver.start((call, response) => {
      // The registration test is answered at once, an execution after 3 s: past the next request's deadline.
      const wait = call.body.includes('"test":true') ? 0 : 3_000;
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"late","error":""}'), wait);
    });
    try {
      const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' };
      const { api_token } = JSON.parse(runCli(['bootstrap', '--tenant', 'pipelining'], env).stdout);
      const jwt = (await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: api_token.token } })).body.jwt_token as string;
      const body = { name: 'slow', description: 'answers in 3 s', webhook_url: receiver.url(), json_schema: { type: 'object' } };
      expect((await call(url, 'POST', '/api/v1/gateway/actions', { token: jwt, body })).status).toBe(201);
      const { hostname, port } = new URL(url);
      const socket = connect(Number(port), hostname);
      const execute = '{"parameters":{}}';
      socket.write(
        `POST /api/v1/gateway/actions/slow/execute HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${jwt}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${execute.length}\r\n\r\n${execute}` +
          `POST /api/v1/gateway/actions HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      );
      const answer = await answerOf(socket, 15_000);
      expect(answer).toBeDefined();
      expect(answer!.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(answer).toContain('"result":"late"');
      // The one answer, and no 408 after it (not a search for "408", which a timestamp's milliseconds can hold).
      expect(answer!.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    } finally {
      await receiver.stop();
    }
  });

  it('closes without a 408 when the late request was answered before its body was read', async () => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\nContent-Length: 1000\r\n\r\n{`);
    const answer = await answerOf(socket, 10_000);
    expect(answer).toBeDefined();
    expect(answer!.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(answer!.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('logs a client that breaks off its body as such, not as the database being unavailable', async () => {
    const before = service.output.join('').length;
    const lines = () => service.output.join('').slice(before).trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string; level: number });
    const socket = unfinishedPost(1000, 10);
    // Broken off once the service has the request's head (Fastify logs each request as it arrives), not before.
    await eventually(() => expect(lines().map((line) => line.msg)).toContain('incoming request'));
    socket.destroy();
    await eventually(() => expect(lines().map((line) => line.msg)).toContain('client closed the connection before its request was read'));
    expect((await call(url, 'GET', '/healthz')).status).toBe(200);
    expect(lines().filter((line) => line.level >= 40).map((line) => line.msg)).toEqual([]);
  });
});
