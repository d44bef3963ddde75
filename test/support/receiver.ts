import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The caller's port: calls over one keep-alive connection share it. */
  remotePort?: number;
}

export type Behaviour = (call: ReceivedCall, response: ServerResponse) => void;

/** Answers 200 with the spec's webhook response. */
export const ok: Behaviour = (_, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'done', error: '' }));
};

export const status =
  (code: number, headers: Record<string, string> = {}): Behaviour =>
  (_, response) => {
    response.writeHead(code, { 'content-type': 'application/json', ...headers }).end('{}');
  };

/** Answers the registration test with 200 and every execution with `behaviour`. */
export const executions =
  (behaviour: Behaviour): Behaviour =>
  (call, response) =>
    JSON.parse(call.body).test ? ok(call, response) : behaviour(call, response);

/**
 * Answers held until the test lets them go: `behaviour` keeps each response open, `release` answers them all (with
 * the spec's webhook response by default).
 */
export class Held {
  readonly responses: ServerResponse[] = [];
  readonly behaviour: Behaviour = (_, response) => void this.responses.push(response);

  release(code = 200, body: unknown = { result: 'late', error: '' }): void {
    for (const response of this.responses.splice(0)) response.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}

/**
 * A real webhook receiver on 127.0.0.1 that records every call. `behaviour` decides the answer and can be
 * changed between requests.
 */
export class Receiver {
  readonly calls: ReceivedCall[] = [];
  private server?: Server;
  behaviour: Behaviour = ok;

  static async start(behaviour: Behaviour = ok): Promise<Receiver> {
    const receiver = new Receiver();
    receiver.behaviour = behaviour;
    receiver.server = createServer((request, response) => receiver.handle(request, response));
    await new Promise<void>((resolve) => receiver.server!.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const call = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        remotePort: request.socket.remotePort,
      };
      this.calls.push(call);
      this.behaviour(call, response);
    });
  }
}
