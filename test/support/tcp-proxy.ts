import { createServer, connect, Server, Socket } from 'node:net';
import { AddressInfo } from 'node:net';
import { fatalError } from '../../src/database/embedded-login';

/**
 * A TCP proxy on 127.0.0.1 between the app and its database, so a test can take the database away (every
 * connection cut, new ones refused) and give it back on the same port.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;
  /** While stalled, what the database sends is held back (per connection, in order) until `resume()`. */
  private held?: Array<() => void>;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** While set, every new connection is answered this FATAL error (as a server refusing logins) and closed. */
  private refusal?: Buffer;

  async start(): Promise<void> {
    this.server = createServer((client) => {
      if (this.refusal) {
        const refusal = this.refusal;
        client.on('error', () => undefined);
        // The client's StartupMessage (or SSLRequest) first, then the server's refusal, as PostgreSQL answers.
        client.once('data', () => client.end(refusal));
        return;
      }
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream);
      upstream.on('data', (chunk: Buffer) => {
        if (this.held) this.held.push(() => client.writable && client.write(chunk));
        else client.write(chunk);
      });
      upstream.on('end', () => client.end());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** The database stops answering (connections stay open, nothing comes back) until `resume()`. */
  stall(): void {
    this.held ??= [];
  }

  /** The database answers again, starting with everything it sent while stalled. */
  resume(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const send of held) send();
  }

  /** The URL of `url`'s database through this proxy. */
  urlTo(url: string): string {
    const through = new URL(url);
    through.host = `127.0.0.1:${this.port}`;
    return through.toString();
  }

  /** The database goes away: open connections are cut and new ones refused. */
  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /**
   * The server is there but refuses every login with SQLSTATE `code` (the database dropped or not accepting
   * connections, a password changed): open connections are cut, as pg_terminate_backend would. Until `accept()`.
   */
  refuseLogins(code: string, message: string): void {
    this.refusal = fatalError(code, message);
    for (const socket of this.sockets) socket.destroy();
  }

  /** Logins are accepted again. */
  accept(): void {
    this.refusal = undefined;
  }

  /** The database comes back on the same address. */
  restore(): Promise<void> {
    return this.start();
  }
}
