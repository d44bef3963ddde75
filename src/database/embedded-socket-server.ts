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
  /** Channels this connection LISTENs on. */
  channels: Set<string>;
  /** Its prepared statements whose text may stop the session listening: running one (Bind) says so again. */
  stoppers: Set<string>;
  /** Its messages held until it asks for their answers (see HELD), and their size. */
  held: Uint8Array[];
  heldBytes: number;
  /** A TCP client that has not given the password yet: its messages go to its login, unseen by PGlite. */
  login?: TcpLogin;
}

/** Who may connect over TCP. Connections from inside the process (connectInProcess) need nothing. */
export interface TcpAccess {
  /** What a TCP client must give; undefined: no password is asked (tests of the protocol alone). */
  password: string | undefined;
  /** How long a TCP client may take to start up and give the password, before its socket is closed (10 s). */
  loginTimeoutMs?: number;
}

const NOTIFICATION_RESPONSE = 0x41; // 'A'
const SIMPLE_QUERY = 0x51; // 'Q'
const PARSE = 0x50; // 'P'
const BIND = 0x42; // 'B'
const CLOSE = 0x43; // 'C'
const CLOSE_STATEMENT = 0x53; // 'S': a Close of a prepared statement (a portal's is 'P')
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
const LISTEN = /^\s*(?:(UN)?LISTEN\s+(?:"([^"]+)"|([A-Za-z_][A-Za-z0-9_$]*)|(\*))|(DISCARD\s+ALL))\s*;?\s*$/i;
/** Statements that may stop the one session listening, for every connection: UNLISTEN, and DISCARD (ALL). */
const MAY_STOP_LISTENING = /\b(?:UNLISTEN|DISCARD)\b/i;

/** Told of what PGlite's one session commits and announces on a channel (EmbeddedSocketServer.watch). */
export interface CommitWatcher {
  /** A notification on the channel, the moment it is written: before its commit is acknowledged to anyone. */
  committed(payload: string): void;
  /**
   * A connection ran UNLISTEN or DISCARD: the session may have stopped listening, and commits from then on (some
   * in that very statement) may announce nothing until it LISTENs again.
   */
  mayHaveStoppedListening(): void;
}

/**
 * PGlite served on a loopback TCP port to the ordinary `pg` driver, with pglite-socket's connection handler
 * reading the protocol. This replaces pglite-socket's server and query queue for two reasons:
 *
 * - PGlite is ONE session. pglite-socket keeps a connection on it for a whole transaction, but not for an
 *   extended-protocol batch: another connection's simple query between a Parse and its Bind destroys the
 *   unnamed statement. Here a connection keeps the session until it sends Sync (or a simple query) and, inside
 *   a transaction, until the transaction ends.
 * - PostgreSQL delivers a NOTIFY to every session that LISTENs on its channel. PGlite, one session, writes it
 *   into the output of whichever connection committed, where no listener sees it. Here notifications are taken
 *   out of every output and written to each connection that LISTENed on the channel, between messages, as a
 *   server would. (UNLISTEN on one connection stops PGlite's session listening for all of them.)
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
  private readonly watchers = new Map<string, CommitWatcher[]>();
  /** stop() has begun: no connection is accepted any more, in process or over TCP. */
  private stopped = false;

  constructor(
    private readonly db: Session,
    private readonly Handler: ProtocolHandlerClass,
    /** Connections beyond this many over TCP are refused; this process's own (in process) are not counted. */
    private readonly maxConnections: number,
    private readonly access: TcpAccess,
  ) {}

  /** Listens on `host`, a free port; resolves to the port. */
  async start(host: string): Promise<number> {
    await this.db.waitReady;
    const server = createServer((socket) => void this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
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
   * Tells `watcher` the payload of every notification on `channel`, as soon as PGlite writes it: before the
   * connection whose commit sent it has read its ReadyForQuery (PostgreSQL writes a session's own
   * notifications before that), so before any commit is acknowledged. Every connection's statements pass
   * through this server, so this process knows every committed notification the moment it exists, as long as
   * the session LISTENs on the channel; the watcher is told when a statement may have stopped that.
   */
  watch(channel: string, watcher: CommitWatcher): void {
    this.watchers.set(channel, [...(this.watchers.get(channel) ?? []), watcher]);
  }

  /**
   * A connection from inside this process, served exactly as a TCP one (the same handler, queue, holding and
   * notifications), with no kernel socket between: the `pg` driver takes it as its `stream`. What this process
   * sends its own database then costs no system calls and no wait for the event loop to see a socket ready.
   */
  connectInProcess(): InProcessEnd {
    if (this.stopped) return InProcessEnd.refused('the embedded database has stopped');
    const [client, server] = InProcessEnd.pair();
    void this.accept(server);
    return client;
  }

  private async accept(socket: ClientSocket): Promise<void> {
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
    this.connections.set(handler.handlerId, { handler, socket, channels: new Set(), stoppers: new Set(), held: [], heldBytes: 0, login });
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
    // Nothing of an abandoned batch or transaction is committed; should anything announce, it goes out as usual.
    const framer = new OutputFramer((notification) => this.tellWatchers(notification));
    await this.db.runExclusive(async () => {
      if (this.batchOpen) framer.push(await this.db.execProtocolRaw(ABANDON_BATCH));
      if (this.db.isInTransaction()) framer.push(await this.db.execProtocolRaw(ROLLBACK));
    });
    this.owner = undefined;
    this.batchOpen = false;
    for (const notification of framer.notifications) this.relay(notification);
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
    for (const message of messages) if (message[0] === SIMPLE_QUERY) this.trackListen(handler, message);
    // Told before the statements run: their own answers, and anything committed after them, may then announce nothing.
    if (this.watchers.size > 0 && this.mayStopListening(handler, messages)) this.tellStoppedListening();
    const framer = new OutputFramer((notification) => this.tellWatchers(notification));
    const output = new PendingOutput(job.onData);
    this.running = job;
    try {
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(messages.length === 1 ? messages[0] : Buffer.concat(messages), {
          onRawData: (chunk) => output.add(framer.push(chunk)),
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
    for (const notification of framer.notifications) this.relay(notification);
    job.resolve(output.bytes);
  }

  /**
   * Whether any of `messages` may stop the one session listening: a simple query or a prepared statement whose
   * text names UNLISTEN or DISCARD, or the Bind that runs such a prepared statement again. (Hidden in a function
   * or dynamic SQL it is not seen: see docs/decisions.md, "Reads from memory".)
   */
  private mayStopListening(handler: number, messages: Uint8Array[]): boolean {
    const connection = this.connections.get(handler);
    let stops = false;
    for (const message of messages) {
      const type = message[0];
      if (type === SIMPLE_QUERY) {
        stops ||= MAY_STOP_LISTENING.test(textOf(message.subarray(5)));
      } else if (type === PARSE) {
        // Parse: the statement's name, then its text, each ending in a NUL.
        const nameEnd = message.indexOf(0, 5);
        const name = textOf(message.subarray(5, nameEnd));
        const named = MAY_STOP_LISTENING.test(textOf(message.subarray(nameEnd + 1)));
        if (named) connection?.stoppers.add(name);
        // The unnamed statement is replaced by the next Parse; a named one only after a Close (PostgreSQL refuses
        // to parse a name again while it exists), so until then it keeps meaning what it meant.
        else if (name === '') connection?.stoppers.delete(name);
        stops ||= named;
      } else if (type === CLOSE && message[5] === CLOSE_STATEMENT) {
        // Close of a statement: its name after the 'S', ending in a NUL.
        connection?.stoppers.delete(textOf(message.subarray(6, message.indexOf(0, 6))));
      } else if (type === BIND && connection && connection.stoppers.size > 0) {
        // Bind: the portal's name, then the statement's, each ending in a NUL.
        const portalEnd = message.indexOf(0, 5);
        stops ||= connection.stoppers.has(textOf(message.subarray(portalEnd + 1, message.indexOf(0, portalEnd + 1))));
      }
    }
    return stops;
  }

  private tellStoppedListening(): void {
    for (const watchers of this.watchers.values()) {
      for (const watcher of watchers) {
        try {
          watcher.mayHaveStoppedListening();
        } catch {
          // A watcher's failure must not stop the queue.
        }
      }
    }
  }

  private trackListen(handler: number, message: Uint8Array): void {
    const match = LISTEN.exec(Buffer.from(message.subarray(5, message.length - 1)).toString('utf8'));
    const connection = this.connections.get(handler);
    if (!match || !connection) return;
    if (match[4] || match[5]) {
      if (match[1] || match[5]) connection.channels.clear(); // UNLISTEN *, DISCARD ALL
      return;
    }
    const channel = match[2] ?? match[3].toLowerCase();
    if (match[1]) connection.channels.delete(channel);
    else connection.channels.add(channel);
  }

  /** A NotificationResponse (`A`, length, pid, channel, payload) to every connection listening on its channel. */
  private relay(notification: Buffer): void {
    const channel = channelOf(notification);
    for (const { channels, socket } of this.connections.values()) {
      if (channels.has(channel) && socket.writable) socket.write(notification);
    }
  }

  private tellWatchers(notification: Buffer): void {
    const watchers = this.watchers.get(channelOf(notification));
    if (!watchers) return;
    const start = notification.indexOf(0, 9) + 1;
    const payload = notification.subarray(start, notification.indexOf(0, start)).toString('utf8');
    for (const watcher of watchers) {
      try {
        watcher.committed(payload);
      } catch {
        // A watcher's failure must not stop the queue.
      }
    }
  }
}

/** What `connection` holds, in order; it then holds nothing. */
function takeHeld(connection: Connection): Uint8Array[] {
  const messages = connection.held;
  connection.held = [];
  connection.heldBytes = 0;
  return messages;
}

/** Bytes as text (latin1: any byte is a character), to look for keywords in. */
function textOf(message: Uint8Array): string {
  return Buffer.from(message.buffer, message.byteOffset, message.length).toString('latin1');
}

/** The channel of a NotificationResponse: a C string after the type, the length and the sender's pid. */
function channelOf(notification: Buffer): string {
  return notification.subarray(9, notification.indexOf(0, 9)).toString('utf8');
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

/**
 * Splits one exec's output into protocol messages as it streams: NotificationResponses are kept aside (and
 * handed to `onNotification` the moment one is whole, before `push` returns the bytes that follow it), every
 * other byte passes through unchanged (and uncopied when a chunk holds no notification).
 */
export class OutputFramer {
  readonly notifications: Buffer[] = [];
  private readonly header = Buffer.alloc(5);
  private headerBytes = 0;
  private remaining = 0;
  private kept?: Buffer[];

  constructor(private readonly onNotification?: (notification: Buffer) => void) {}

  push(chunk: Uint8Array): Uint8Array {
    const passed: Uint8Array[] = [];
    // Whether what passes is exactly `chunk`: nothing kept back, nothing carried over from the chunk before.
    let whole = true;
    let offset = 0;
    while (offset < chunk.length) {
      if (this.headerBytes < 5) {
        if (this.headerBytes > 0) whole = false;
        const take = Math.min(5 - this.headerBytes, chunk.length - offset);
        this.header.set(chunk.subarray(offset, offset + take), this.headerBytes);
        this.headerBytes += take;
        offset += take;
        if (this.headerBytes < 5) {
          whole = false;
          break;
        }
        this.remaining = this.header.readInt32BE(1) - 4;
        if (this.header[0] === NOTIFICATION_RESPONSE) {
          this.kept = [Buffer.from(this.header)];
          whole = false;
        } else {
          passed.push(Buffer.from(this.header));
        }
      }
      const take = Math.min(this.remaining, chunk.length - offset);
      if (take > 0) {
        const piece = chunk.subarray(offset, offset + take);
        if (this.kept) {
          this.kept.push(Buffer.from(piece));
          whole = false;
        } else {
          passed.push(piece);
        }
        this.remaining -= take;
        offset += take;
      }
      if (this.remaining === 0) {
        if (this.kept) {
          const notification = Buffer.concat(this.kept);
          this.notifications.push(notification);
          this.onNotification?.(notification);
        }
        this.kept = undefined;
        this.headerBytes = 0;
      }
    }
    return whole ? chunk : Buffer.concat(passed);
  }
}
