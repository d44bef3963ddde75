import { connect } from 'node:net';
import { Client } from 'pg';
import { serialize } from 'pg-protocol';
import { EmbeddedSocketServer } from './embedded-socket-server';

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const dataRow = message('D', Buffer.from([0, 1, 0, 0, 0, 2, 0x34, 0x32]));
const commandComplete = message('C', Buffer.from('SELECT 1\0'));
const parseComplete = message('1', Buffer.alloc(0));
const readyForQuery = message('Z', Buffer.from('I'));

describe('EmbeddedSocketServer: one PGlite session shared by many connections', () => {
  /** PGlite as the server uses it: every statement's output is what the test says; a session in no transaction. */
  function fakeSession(outputs: { stream: Buffer | Buffer[]; sync: Buffer }, calls: Buffer[] = []) {
    return {
      waitReady: Promise.resolve(),
      runExclusive: <T>(work: () => Promise<T>) => work(),
      execProtocolRaw: async (input: Uint8Array) => {
        calls.push(Buffer.from(input));
        return outputs.sync;
      },
      execProtocolRawStream: async (input: Uint8Array, options: { onRawData: (chunk: Uint8Array) => void }) => {
        calls.push(Buffer.from(input));
        for (const chunk of Array.isArray(outputs.stream) ? outputs.stream : [outputs.stream]) options.onRawData(chunk);
      },
      isInTransaction: () => false,
    };
  }

  /** pglite-socket's handler, reduced to what the server calls; the test drives the queue it is given. */
  interface Queue {
    enqueue(handler: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number>;
    clearTransactionIfNeeded(handler: number): Promise<void>;
  }
  const handlers: Array<{ handlerId: number; queue: Queue }> = [];
  class FakeHandler extends EventTarget {
    readonly handlerId = handlers.length + 1;
    constructor(options: { queryQueue: Queue }) {
      super();
      handlers.push({ handlerId: this.handlerId, queue: options.queryQueue });
    }
    async attach(): Promise<void> {}
    async detach(): Promise<void> {}
  }

  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  /** A server on the fake session with one connection. */
  async function serverWith(outputs: { stream: Buffer | Buffer[]; sync: Buffer }, calls: Buffer[] = []) {
    const first = handlers.length;
    const server = new EmbeddedSocketServer(fakeSession(outputs, calls) as never, FakeHandler as never, 10, { password: undefined });
    const port = await server.start('127.0.0.1');
    const socket = connect(port, '127.0.0.1');
    stops.push(async () => {
      socket.destroy();
      await server.stop();
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    for (let wait = 0; wait < 100 && handlers.length === first; wait++) await new Promise((resolve) => setTimeout(resolve, 5));
    return { connection: handlers[first] };
  }

  const execute = message('E', Buffer.from([0, 0, 0, 0, 0]));
  const flush = message('H', Buffer.alloc(0));
  const sync = message('S', Buffer.alloc(0));
  const query = (sql: string) => message('Q', Buffer.from(`${sql}\0`));
  const parse = (name: string, sql: string) => message('P', Buffer.from(`${name}\0${sql}\0\0\0`));
  const bind = (name: string) => message('B', Buffer.from(`\0${name}\0\0\0\0\0\0\0`));

  it('rolls back a batch that a vanished connection left open: a failing statement, then Sync', async () => {
    const calls: Buffer[] = [];
    const { connection } = await serverWith({ stream: commandComplete, sync: readyForQuery }, calls);
    await connection.queue.enqueue(connection.handlerId, execute, () => undefined);
    await connection.queue.enqueue(connection.handlerId, flush, () => undefined); // Execute, Flush, no Sync: the batch stays open
    expect(calls).toEqual([Buffer.concat([execute, flush])]);
    await connection.queue.clearTransactionIfNeeded(connection.handlerId); // the connection went away
    expect(calls[1]).toEqual(Buffer.concat([parse('', 'abandoned batch'), sync]));
  });

  it('never hands PGlite a Terminate, and drops what the connection held', async () => {
    const calls: Buffer[] = [];
    const { connection } = await serverWith({ stream: readyForQuery, sync: readyForQuery }, calls);
    for (const each of [parse('', 'SELECT 1'), bind(''), execute, message('X', Buffer.alloc(0))]) {
      expect(await connection.queue.enqueue(connection.handlerId, each, () => undefined)).toBe(0);
    }
    await connection.queue.enqueue(connection.handlerId, sync, () => undefined);
    expect(calls).toEqual([sync]);
  });

  it("holds a batch's messages until the client asks for their answers, then runs them in one call and answers in one write", async () => {
    const calls: Buffer[] = [];
    const { connection } = await serverWith({ stream: [parseComplete, dataRow, commandComplete, readyForQuery], sync: readyForQuery }, calls);
    const writes: Buffer[] = [];
    const send = (each: Buffer) => connection.queue.enqueue(connection.handlerId, each, (data) => writes.push(Buffer.from(data)));
    const held = [parse('', 'SELECT $1'), bind(''), message('D', Buffer.from('P\0')), execute];
    for (const each of held) expect(await send(each)).toBe(0);
    expect([calls, writes]).toEqual([[], []]);
    expect(await send(sync)).toBe(Buffer.concat([parseComplete, dataRow, commandComplete, readyForQuery]).length);
    expect(calls).toEqual([Buffer.concat([...held, sync])]);
    expect(writes).toEqual([Buffer.concat([parseComplete, dataRow, commandComplete, readyForQuery])]);

    // A Flush asks for the answers too (the batch stays open); a simple query runs at once.
    calls.length = 0;
    await send(execute);
    await send(flush);
    await send(query('SELECT 1'));
    expect(calls).toEqual([Buffer.concat([execute, flush]), query('SELECT 1')]);
  });

  it('runs nothing a connection held when it goes away, and runs a held batch at once past 1 MB', async () => {
    const calls: Buffer[] = [];
    const { connection } = await serverWith({ stream: readyForQuery, sync: readyForQuery }, calls);
    await connection.queue.enqueue(connection.handlerId, parse('', 'SELECT 1'), () => undefined);
    await connection.queue.clearTransactionIfNeeded(connection.handlerId); // the connection went away
    expect(calls).toEqual([]);

    const { connection: second } = await serverWith({ stream: readyForQuery, sync: readyForQuery }, calls);
    const big = bind(''.padEnd(300_000, 'x'));
    for (let count = 0; count < 4; count++) await second.queue.enqueue(second.handlerId, big, () => undefined);
    expect(calls.map((call) => call.length)).toEqual([4 * big.length]);
  });

  it('writes a long answer in pieces of 64 kB as it comes, not all at the end', async () => {
    const row = message('D', Buffer.alloc(40_000, 1));
    const { connection } = await serverWith({ stream: [row, row, row, row, commandComplete, readyForQuery], sync: readyForQuery });
    const writes: number[] = [];
    await connection.queue.enqueue(connection.handlerId, query('SELECT rows'), (data) => writes.push(data.length));
    expect(writes).toEqual([2 * row.length, 2 * row.length, commandComplete.length + readyForQuery.length]);
  });
});

describe('EmbeddedSocketServer: connections from inside the process (connectInProcess)', () => {
  const answer = Buffer.concat([commandComplete, readyForQuery]);
  const query = (sql: string) => message('Q', Buffer.from(`${sql}\0`));

  /** pglite-socket's handler in brief: each chunk read is one message for the queue; answers go back on the socket. */
  class PipingHandler extends EventTarget {
    static released: number[] = [];
    private static next = 1;
    readonly handlerId = PipingHandler.next++;
    constructor(private readonly options: { queryQueue: { enqueue: (handler: number, message: Uint8Array, onData: (data: Uint8Array) => void) => Promise<number>; clearTransactionIfNeeded: (handler: number) => Promise<void> } }) {
      super();
    }
    async attach(socket: NodeJS.ReadWriteStream & { write(data: Uint8Array): boolean }): Promise<void> {
      socket.on('data', (chunk: Buffer) => void this.options.queryQueue.enqueue(this.handlerId, chunk, (data) => socket.write(data)));
      socket.on('close', () => {
        PipingHandler.released.push(this.handlerId);
        void this.options.queryQueue.clearTransactionIfNeeded(this.handlerId);
      });
    }
    async detach(): Promise<void> {}
  }

  function serverAnswering(output: (input: Buffer) => Buffer) {
    const session = {
      waitReady: Promise.resolve(),
      runExclusive: <T>(work: () => Promise<T>) => work(),
      execProtocolRaw: async () => readyForQuery,
      execProtocolRawStream: async (input: Uint8Array, options: { onRawData: (chunk: Uint8Array) => void }) => options.onRawData(output(Buffer.from(input))),
      isInTransaction: () => false,
    };
    return new EmbeddedSocketServer(session as never, PipingHandler as never, 10, { password: undefined });
  }

  const received = (end: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    end.on('data', (chunk: Buffer) => chunks.push(chunk));
    return chunks;
  };
  const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('serves them as it serves TCP connections: the same queue, each its own answers', async () => {
    const server = serverAnswering((input) => (input.toString().includes('INSERT') ? Buffer.concat([dataRow, answer]) : answer));
    const reader = server.connectInProcess();
    const writer = server.connectInProcess();
    const [read, answered] = [received(reader), received(writer)];
    reader.write(query('SELECT 1'));
    await settled();
    writer.write(query('INSERT INTO things VALUES (1) RETURNING 42'));
    await settled();
    expect(Buffer.concat(answered)).toEqual(Buffer.concat([dataRow, answer]));
    expect(Buffer.concat(read)).toEqual(answer);
    reader.destroy();
    writer.destroy();
    await server.stop();
  });

  it('counts every job in jobsRun but those of a connection opened as uncounted (the job queue\'s)', async () => {
    const server = serverAnswering(() => answer);
    const counted = server.connectInProcess();
    const uncounted = server.connectInProcess({ uncounted: true });
    const [toCounted, toUncounted] = [received(counted), received(uncounted)];
    const before = server.jobsRun;
    uncounted.write(query('SELECT 1'));
    await settled();
    expect(server.jobsRun).toBe(before);
    expect(Buffer.concat(toUncounted)).toEqual(answer);
    counted.write(query('SELECT 1'));
    await settled();
    expect(server.jobsRun).toBe(before + 1);
    expect(Buffer.concat(toCounted)).toEqual(answer);
    counted.destroy();
    uncounted.destroy();
    await server.stop();
  });

  it('refuses connections once stopped, as a closed port does', async () => {
    const server = serverAnswering(() => answer);
    await server.stop();
    const late = server.connectInProcess();
    const failed = new Promise<NodeJS.ErrnoException>((resolve) => late.once('error', resolve));
    late.connect();
    expect((await failed).code).toBe('ECONNREFUSED');
  });

  it('lets the handler see an in-process connection close, as it sees a socket close (where it settles what was left)', async () => {
    const server = serverAnswering(() => answer);
    const end = server.connectInProcess();
    received(end);
    end.write(query('SELECT 1'));
    await settled();
    const before = PipingHandler.released.length;
    end.end();
    await settled();
    expect(PipingHandler.released.length).toBe(before + 1);
    await server.stop();
  });
});

describe('EmbeddedSocketServer: the password of the TCP port', () => {
  const { PGLiteSocketHandler } = jest.requireActual<typeof import('@electric-sql/pglite-socket')>('@electric-sql/pglite-socket');
  const password = 'right horse battery staple';
  const authenticationOk = message('R', Buffer.from([0, 0, 0, 0]));
  const query = (sql: string) => message('Q', Buffer.from(`${sql}\0`));

  /** pglite-socket's real handler in front of a session that answers a start-up with AuthenticationOk. */
  async function serverWith(options: { maxConnections?: number; loginTimeoutMs?: number } = {}) {
    const calls: Buffer[] = [];
    const session = {
      waitReady: Promise.resolve(),
      runExclusive: <T>(work: () => Promise<T>) => work(),
      execProtocolRaw: async () => readyForQuery,
      execProtocolRawStream: async (input: Uint8Array, stream: { onRawData: (chunk: Uint8Array) => void }) => {
        calls.push(Buffer.from(input));
        const startup = input[0] === 0;
        stream.onRawData(startup ? Buffer.concat([authenticationOk, readyForQuery]) : Buffer.concat([commandComplete, readyForQuery]));
      },
      isInTransaction: () => false,
    };
    const server = new EmbeddedSocketServer(session as never, PGLiteSocketHandler as never, options.maxConnections ?? 10, {
      password,
      loginTimeoutMs: options.loginTimeoutMs,
    });
    const port = await server.start('127.0.0.1');
    return { server, port, calls };
  }

  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.end().catch(() => undefined);
  });
  const client = (port: number, given?: string, stream?: () => NodeJS.ReadWriteStream) => {
    const made = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', password: given, ...(stream ? { stream: stream as never } : {}) });
    made.on('error', () => undefined);
    clients.push(made);
    return made;
  };

  /** A raw TCP client: what it was sent, and a promise of its close. */
  function rawClient(port: number) {
    // A client that never closes its side by itself. When the server ends, it keeps writing: a server that
    // closed the connection for good answers with a reset, and the writes fail (close); one that only
    // half-closed it reads on, and this never closes.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    socket.on('error', () => undefined);
    const terminate = Buffer.from('X\0\0\0\x04', 'latin1');
    const keepWriting = (): void => {
      if (socket.destroyed) return;
      socket.write(terminate);
      setTimeout(keepWriting, 20);
    };
    socket.on('end', keepWriting);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    /** Once the server has sent `bytes` bytes in all, or closed the connection (then the test says what came). */
    const receivedAtLeast = (bytes: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (Buffer.concat(received).length < bytes && !socket.destroyed) return;
          socket.off('data', check);
          resolve();
        };
        socket.on('data', check);
        void closed.then(check);
        check();
      });
    return { socket, received, closed, receivedAtLeast };
  }
  /** AuthenticationCleartextPassword: the server's answer to a start-up, asking for the password. */
  const passwordAsked = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]);
  const startupMessage = () => serialize.startup({ user: 'postgres', database: 'postgres' });

  it('asks a TCP client for the password, and lets PGlite see its start-up only once it is right', async () => {
    const { server, port, calls } = await serverWith();
    const connected = client(port, password);
    await connected.connect();
    expect(calls).toHaveLength(1);
    expect(calls[0].readInt32BE(4)).toBe(196_608); // the StartupMessage, and nothing before it
    await connected.query('SELECT 1');
    expect(calls[1]).toEqual(query('SELECT 1'));
    await connected.end();
    await server.stop();
  });

  it("refuses a wrong password with PostgreSQL's own error, and PGlite never hears of that client", async () => {
    const { server, port, calls } = await serverWith();
    await expect(client(port, 'wrong').connect()).rejects.toMatchObject({
      code: '28P01',
      severity: 'FATAL',
      message: 'password authentication failed for user "postgres"',
    });
    expect(calls).toEqual([]);
    await server.stop();
  });

  it('reads nothing more from a client whose password was wrong, the right one included, and closes it', async () => {
    const { server, port, calls } = await serverWith();
    const guessing = rawClient(port);
    guessing.socket.write(startupMessage());
    await guessing.receivedAtLeast(passwordAsked.length); // the passwords answer the server's request, as a client's would
    guessing.socket.write(Buffer.concat([serialize.password('wrong'), serialize.password(password), query('DELETE FROM things')]));
    await guessing.closed;
    expect(Buffer.concat(guessing.received).toString('latin1')).toContain('C28P01\0');
    expect(calls).toEqual([]);
    await server.stop();
  });

  it('ends a client that sends anything but the password after its start-up, or anything but a start-up first', async () => {
    const { server, port, calls } = await serverWith();
    const skipping = rawClient(port);
    skipping.socket.write(startupMessage());
    await skipping.receivedAtLeast(passwordAsked.length);
    expect(Buffer.concat(skipping.received)).toEqual(passwordAsked);
    skipping.socket.write(query('SELECT 1'));
    await skipping.closed;
    expect(Buffer.concat(skipping.received).subarray(9).toString('latin1')).toContain('C28P01\0');

    const typed = rawClient(port);
    typed.socket.write(query('SELECT 1'));
    await typed.closed;
    expect(Buffer.concat(typed.received).toString('latin1')).toContain('C08P01\0Mexpected a startup message\0');
    expect(calls).toEqual([]);
    await server.stop();
  });

  it('cuts off a client that sends more than a login takes before its password, whatever length it claims', async () => {
    const { server, port, calls } = await serverWith({ loginTimeoutMs: 600_000 }); // only the bound can close it
    const flooding = rawClient(port);
    const claimed = message('Q', Buffer.alloc(0));
    claimed.writeInt32BE(100_000_000, 1); // a Query said to be 100 MB long
    flooding.socket.write(Buffer.concat([claimed, Buffer.alloc(32_768, 0x20)]));
    await flooding.closed;
    expect(calls).toEqual([]);
    // A client that logs in may then send as much as it likes.
    const connected = client(port, password);
    await connected.connect();
    await connected.query(`SELECT '${'x'.repeat(40_000)}'`);
    await connected.end();
    await server.stop();
  });

  it('closes a TCP client that has not logged in when the login time is up', async () => {
    const { server, port, calls } = await serverWith({ loginTimeoutMs: 100 });
    const silent = rawClient(port);
    const slow = rawClient(port);
    slow.socket.write(startupMessage());
    await Promise.all([silent.closed, slow.closed]);
    expect(calls).toEqual([]);
    await server.stop();
  });

  it('needs no password from inside the process, and counts only TCP connections against the limit', async () => {
    const { server, port, calls } = await serverWith({ maxConnections: 1 });
    const first = client(port, password);
    await first.connect();
    const turnedAway = rawClient(port);
    await turnedAway.closed; // closed by the server, though the client keeps its side open
    expect(Buffer.concat(turnedAway.received).toString('latin1')).toContain('C53300\0Msorry, too many clients already\0');

    const own = client(port, undefined, () => server.connectInProcess());
    await own.connect();
    await own.query('SELECT 1');
    expect(calls.filter((call) => call.readInt32BE(4) === 196_608)).toHaveLength(2);
    await Promise.all([first.end(), own.end()]);
    await server.stop();
  });
});
