import { once } from 'node:events';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';

/**
 * `closesWithoutAnswer` (app.factory.ts) reads Node's private `socket._httpMessage`: the response being written on
 * a connection, which with pipelining is an earlier request's while a later one waits. If an upgrade of Node.js
 * renames or stops setting it, a timed-out pipelined request would get a 408 in the place of an answer that is
 * still being written (test/request-timeout.e2e-spec.ts shows that as a wrong answer, not as this field). This
 * says so by name.
 */
describe(`Node.js ${process.version}: socket._httpMessage`, () => {
  it('is the response being written on the connection: the first of two pipelined requests until it finishes, then the next, then none', async () => {
    const seen: string[] = [];
    const responses = new Map<string, ServerResponse>();
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const socket = request.socket as Socket & { _httpMessage?: ServerResponse | null };
      const name = request.url === '/first' ? 'first' : 'second';
      responses.set(name, response);
      const writing = () => [...responses].find(([, candidate]) => candidate === socket._httpMessage)?.[0] ?? String(socket._httpMessage ?? 'none');
      seen.push(`${name} arrives, writing: ${writing()}`);
      response.once('finish', () => seen.push(`${name} finished, writing: ${writing()}`));
      if (name === 'first') {
        response.write('partial');
        // The second request arrives meanwhile: the connection is still writing this answer.
        setTimeout(() => response.end('done'), 50);
      } else {
        response.end('second');
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
      const answered = new Promise<string>((resolve) => {
        let text = '';
        client.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('second')) resolve(text);
        });
      });
      await once(client, 'connect');
      client.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\n\r\n');
      await answered;
      client.destroy();
      expect(seen).toEqual([
        'first arrives, writing: first',
        'second arrives, writing: first',
        'first finished, writing: second',
        'second finished, writing: none',
      ]);
    } finally {
      server.close();
    }
  });
});
