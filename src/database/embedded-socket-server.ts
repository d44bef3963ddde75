import { createServer, Server, Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { closeAfterWriting, fatalError, protocolMessage, TcpLogin } from './embedded-login';
import { InProcessEnd } from './in-process-connection';

/** A client's connection: a TCP socket, or one from inside this process (connectInProcess). */
type ClientSocket = Socket | InProcessEnd;

/** pglite-socket's PGLiteSocketHandler: reads one connection's protocol messages and hands them to a queue. */
interface ProtocolHandler extends EventTarget {
  readonly handlerId: number;
  attach(socket: ClientSocket): Promise<unknown>;
  detach(close?: boolean): Promise<unknown>;
}
export type ProtocolHandlerClass = new (options: { queryQueue: QueueFacade; closeOnDetach?: boolean }) => ProtocolHandler;
interface QueueFacade {
  enqueue(handler: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number>;
  getQueueLength(): number;
  clearQueueForHandler(handler: number): void;
  clearTransactionIfNeeded(handler: number): Promise<void>;
}
type Session = Pick<PGlite, 'waitReady' | 'runExclusive' | 'execProtocolRaw' | 'execProtocolRawStream' | 'isInTransaction'>;

interface Job {
  handler: number;
  /** Whole protocol messages of one connection, in order, run by PGlite in one call. */
  messages: Uint8Array[];
  /** Where the job's output goes: the connection's socket, in one write (or one per WRITE_BYTES). */
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

interface Connection {
  handler: ProtocolHandler;
  socket: ClientSocket;
  /** Its messages held until it asks for their answers (see HELD), and their size. */
  held: Uint8Array[];
  heldBytes: number;
  /** A TCP client that has not given the password yet: its messages go to its login, unseen by PGlite. */
  login?: TcpLogin;
  /** Its jobs are not counted in `jobsRun` (connectInProcess). */
  uncounted?: boolean;
}

/** Who may connect over TCP. Connections from inside the process (connectInProcess) need nothing. */
interface TcpAccess {
  /** What a TCP client must give; undefined: no password is asked (tests of the protocol alone). */
  password: string | undefined;
  /** How long a TCP client may take to start up and give the password, before its socket is closed (10 s). */
  loginTimeoutMs?: number;
}

const SIMPLE_QUERY = 0x51; // 'Q'
const PARSE = 0x50; // 'P'
/** Messages after which a connection's extended-protocol batch is still open (Parse, Bind, Describe, Execute, Close, Flush). */
const BATCH_OPEN = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]);
/**
 * Messages whose answers a client reads only after it sends Sync or Flush: Parse, Bind, Describe, Execute, Close
 * (PostgreSQL itself buffers their answers until then). They are held and run with the message that asks for
 * the answers, in one PGlite call whose output goes out in one write: a parameterized query (Parse, Bind,
 * Describe, Execute, Sync) then costs one call and one write instead of five of each.
 */
const HELD = new Set([0x50, 0x42, 0x44, 0x45, 0x43]);
/** A connection holding more than this (a batch without Sync) has it run at once, answers and all. */
const MAX_HELD_BYTES = 1_048_576;
/** A job's output is written when it ends, or as soon as this much is waiting. */
const WRITE_BYTES = 65_536;
const TERMINATE = 0x58; // 'X'
const SYNC = Uint8Array.from([0x53, 0, 0, 0, 4]);
/**
 * Ends an abandoned batch as PostgreSQL does when its client goes: nothing it ran is committed. The Parse fails
 * (a syntax error), which makes the Sync roll the batch's implicit transaction back.
 */
const ABANDON_BATCH = Buffer.concat([protocolMessage(PARSE, Buffer.from('\0abandoned batch\0\0\0')), SYNC]);
const ROLLBACK = simpleQuery('ROLLBACK');

/**
 * PGlite served on a loopback TCP port to the ordinary `pg` driver, with pglite-socket's connection handler
 * reading the protocol. This replaces pglite-socket's server and query queue for two reasons:
 *
 * - PGlite is ONE session. pglite-socket keeps a connection on it for a whole transaction, but not for an
 *   extended-protocol batch: another connection's simple query between a Parse and its Bind destroys the
 *   unnamed statement. Here a connection keeps the session until it sends Sync (or a simple query) and, inside
 *   a transaction, until the transaction ends.
 *
 * What it does not do: relay LISTEN/NOTIFY between connections. PGlite writes a notification into the output of
 * whichever connection committed it; nothing here needs them (the read model reads a change log, see
 * docs/decisions.md, "Reads from memory"), and psql's LISTEN sees only its own.
 */
export class EmbeddedSocketServer {
  private server?: Server;
  private readonly connections = new Map<number, Connection>();
  private readonly queue: Job[] = [];
  /** The connection that holds the session: mid-batch or inside a transaction. */
  private owner?: number;
  private batchOpen = false;
  private draining = false;
  private running?: Job;
  /**
   * How many jobs PGlite has begun to run, whoever sent them (a connection's messages, an abandoned session's
   * rollback), but those of this process's connections opened as `uncounted`. Nothing reaches this database any
   * other way, so while the count stands still nothing has been committed to the read model's tables: the read
   * model asks no statement then (ReadModel.synced).
   */
  jobsRun = 0;
  /** stop() has begun: no connection is accepted any more, in process or over TCP. */
  private stopped = false;

  constructor(
    private readonly db: Session,
    private readonly Handler: ProtocolHandlerClass,
    /** Connections beyond this many over TCP are refused; this process's own (in process) are not counted. */
    private readonly maxConnections: number,
    private readonly access: TcpAccess,
  ) {}

  /** Listens on `host` at `port` (0: a free one); resolves to the port. */
  async start(host: string, port = 0): Promise<number> {
    await this.db.waitReady;
    const server = createServer((socket) => void this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return (server.address() as { port: number }).port;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const { handler } of this.connections.values()) await handler.detach(true);
    this.connections.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  /**
   * A connection from inside this process, served exactly as a TCP one (the same handler, queue, holding and
   * notifications), with no kernel socket between: the `pg` driver takes it as its `stream`. What this process
   * sends its own database then costs no system calls and no wait for the event loop to see a socket ready.
   * `uncounted`: its jobs do not count in `jobsRun`, for a connection that writes none of the read model's tables
   * (the job queue's, whose polls would otherwise make the next read send a statement: docs/decisions.md).
   */
  connectInProcess({ uncounted = false }: { uncounted?: boolean } = {}): InProcessEnd {
    if (this.stopped) return InProcessEnd.refused('the embedded database has stopped');
    const [client, server] = InProcessEnd.pair();
    void this.accept(server, uncounted);
    return client;
  }

  private async accept(socket: ClientSocket, uncounted = false): Promise<void> {
    if (this.stopped) {
      socket.destroy();
      return;
    }
    if (socket instanceof Socket && this.tcpConnections() >= this.maxConnections) {
      // As PostgreSQL refuses the client past max_connections, and closed whether or not the client closes.
      closeAfterWriting(socket, fatalError('53300', 'sorry, too many clients already'));
      return;
    }
    const handler = new this.Handler({ queryQueue: this.queueFacade(), closeOnDetach: true });
    const { password, loginTimeoutMs = 10_000 } = this.access;
    const login = socket instanceof Socket && password !== undefined ? new TcpLogin(socket, password, loginTimeoutMs) : undefined;
    this.connections.set(handler.handlerId, { handler, socket, held: [], heldBytes: 0, login, uncounted });
    const forget = () => {
      login?.end();
      this.connections.delete(handler.handlerId);
    };
    handler.addEventListener('close', forget);
    handler.addEventListener('error', forget);
    await handler.attach(socket);
  }

  /**
   * What pglite-socket's handler calls: its own queue's methods, served by this server. The handler hands over
   * one message at a time and waits for each; a held one (HELD) is answered at once, with no bytes, and runs
   * with the next message that is not.
   */
  private queueFacade(): QueueFacade {
    return {
      enqueue: (handler: number, message: Uint8Array, onData: (data: Uint8Array) => void) => {
        const connection = this.connections.get(handler);
        if (connection?.login) return this.logIn(handler, connection, connection.login, message, onData);
        if (message[0] === TERMINATE) {
          // The client is leaving: what it held goes unrun, as PostgreSQL drops an unsynced batch, and PGlite is
          // not given the Terminate (after other messages in one call, it wedges the session). The socket's close
          // settles whatever the connection left open (release).
          if (connection) takeHeld(connection);
          return Promise.resolve(0);
        }
        if (!connection) return this.submit(handler, [message], onData);
        connection.held.push(message);
        connection.heldBytes += message.length;
        if (HELD.has(message[0]) && connection.heldBytes < MAX_HELD_BYTES) return Promise.resolve(0);
        return this.submit(handler, takeHeld(connection), onData);
      },
      getQueueLength: () => this.queue.length,
      clearQueueForHandler: (handler: number) => {
        const connection = this.connections.get(handler);
        if (connection) takeHeld(connection);
        for (let index = this.queue.length - 1; index >= 0; index--) {
          if (this.queue[index].handler !== handler) continue;
          this.queue.splice(index, 1)[0].reject(new Error('Handler disconnected'));
        }
      },
      clearTransactionIfNeeded: (handler: number) => this.release(handler),
    };
  }

  private tcpConnections(): number {
    let count = 0;
    for (const { socket } of this.connections.values()) if (!(socket instanceof InProcessEnd)) count++;
    return count;
  }

  /**
   * A TCP client's start-up (TcpLogin): its StartupMessage is answered with a request for the password and kept;
   * only when the password is right does PGlite see it (and answer AuthenticationOk).
   */
  private logIn(handler: number, connection: Connection, login: TcpLogin, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const { answer, admitted } = login.receive(message);
    if (admitted) {
      connection.login = undefined;
      return this.submit(handler, [admitted], onData);
    }
    if (answer) onData(answer);
    return Promise.resolve(answer?.length ?? 0);
  }

  private submit(handler: number, messages: Uint8Array[], onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ handler, messages, onData, resolve, reject });
      void this.drain();
    });
  }

  /** A connection went away: if it held the session, end its batch and roll its transaction back. */
  private async release(handler: number): Promise<void> {
    this.connections.delete(handler);
    // A message of its own still running: run() settles the session when it finishes.
    if (this.running?.handler === handler || this.owner !== handler) return;
    await this.settleAbandoned();
    void this.drain();
  }

  private async settleAbandoned(): Promise<void> {
    // Nothing of an abandoned batch or transaction is committed.
    this.jobsRun++;
    await this.db.runExclusive(async () => {
      if (this.batchOpen) await this.db.execProtocolRaw(ABANDON_BATCH);
      if (this.db.isInTransaction()) await this.db.execProtocolRaw(ROLLBACK);
    });
    this.owner = undefined;
    this.batchOpen = false;
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (;;) {
        const index = this.owner === undefined ? 0 : this.queue.findIndex((job) => job.handler === this.owner);
        if (index < 0 || index >= this.queue.length) break;
        const [job] = this.queue.splice(index, 1);
        await this.run(job);
      }
    } finally {
      this.draining = false;
    }
  }

  private async run(job: Job): Promise<void> {
    const { handler, messages } = job;
    const output = new PendingOutput(job.onData);
    this.running = job;
    if (!this.connections.get(handler)?.uncounted) this.jobsRun++;
    try {
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(messages.length === 1 ? messages[0] : Buffer.concat(messages), {
          onRawData: (chunk) => output.add(chunk),
        }),
      );
    } catch (error) {
      job.reject(error);
      return;
    } finally {
      output.flush();
      this.running = undefined;
    }
    this.batchOpen = BATCH_OPEN.has(messages[messages.length - 1][0]);
    this.owner = this.batchOpen || this.db.isInTransaction() ? handler : undefined;
    if (this.owner !== undefined && !this.connections.has(this.owner)) await this.settleAbandoned();
    job.resolve(output.bytes);
  }

}

/** What `connection` holds, in order; it then holds nothing. */
function takeHeld(connection: Connection): Uint8Array[] {
  const messages = connection.held;
  connection.held = [];
  connection.heldBytes = 0;
  return messages;
}

function simpleQuery(sql: string): Uint8Array {
  return protocolMessage(SIMPLE_QUERY, Buffer.from(`${sql}\0`, 'utf8'));
}

/**
 * A job's output on its way to the connection: PGlite streams it in pieces (views of its memory, so copied), and
 * they go out together, in one write when the job ends, or whenever WRITE_BYTES have gathered.
 */
class PendingOutput {
  bytes = 0;
  private pieces: Buffer[] = [];
  private size = 0;

  constructor(private readonly write: (data: Uint8Array) => void) {}

  add(piece: Uint8Array): void {
    if (piece.length === 0) return;
    this.pieces.push(Buffer.from(piece));
    this.size += piece.length;
    this.bytes += piece.length;
    if (this.size >= WRITE_BYTES) this.flush();
  }

  flush(): void {
    if (this.size === 0) return;
    this.write(this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces, this.size));
    this.pieces = [];
    this.size = 0;
  }
}
