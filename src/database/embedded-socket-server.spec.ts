import { connect } from 'node:net';
import { EmbeddedSocketServer, OutputFramer } from './embedded-socket-server';

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const notification = (channel: string, payload: string) =>
  message('A', Buffer.concat([Buffer.from([0, 0, 0, 7]), Buffer.from(`${channel}\0${payload}\0`)]));
const dataRow = message('D', Buffer.from([0, 1, 0, 0, 0, 2, 0x34, 0x32]));
const commandComplete = message('C', Buffer.from('SELECT 1\0'));
const parseComplete = message('1', Buffer.alloc(0));
const readyForQuery = message('Z', Buffer.from('I'));

describe('OutputFramer (the embedded server taking notifications out of PGlite output)', () => {
  const first = notification('read_model', '{"version":1}');
  const second = notification('other', 'x');
  const output = Buffer.concat([parseComplete, dataRow, first, commandComplete, second, readyForQuery]);
  const rest = Buffer.concat([parseComplete, dataRow, commandComplete, readyForQuery]);

  it('passes every other message through unchanged and keeps the notifications aside, however the output is split', () => {
    for (let cut = 0; cut <= output.length; cut++) {
      for (let secondCut = cut; secondCut <= output.length; secondCut += 3) {
        const framer = new OutputFramer();
        const passed = [output.subarray(0, cut), output.subarray(cut, secondCut), output.subarray(secondCut)].map((chunk) => Buffer.from(framer.push(chunk)));
        expect(Buffer.concat(passed)).toEqual(rest);
        expect(framer.notifications).toEqual([first, second]);
      }
    }
  });

  it('hands each notification to its callback as soon as it is whole, before the bytes after it pass', () => {
    const seen: Buffer[] = [];
    const framer = new OutputFramer((whole) => seen.push(whole));
    const cut = output.indexOf(first) + first.length;
    framer.push(output.subarray(0, cut - 1));
    expect(seen).toEqual([]);
    framer.push(output.subarray(cut - 1, cut + 1));
    expect(seen).toEqual([first]);
    framer.push(output.subarray(cut + 1));
    expect(seen).toEqual([first, second]);
  });

  it('hands a chunk without notifications on as it is, without copying it', () => {
    const framer = new OutputFramer();
    const chunk = Buffer.concat([dataRow, commandComplete]);
    expect(framer.push(chunk)).toBe(chunk);
    expect(framer.notifications).toEqual([]);
  });
});

describe('EmbeddedSocketServer: what the process learns of commits (watch)', () => {
  /** PGlite as the server uses it: every statement's output is what the test says; a session in no transaction. */
  function fakeSession(outputs: { stream: Buffer; sync: Buffer }) {
    return {
      waitReady: Promise.resolve(),
      runExclusive: <T>(work: () => Promise<T>) => work(),
      execProtocolRaw: async (message: Uint8Array) => (message[0] === 0x53 ? outputs.sync : Buffer.alloc(0)),
      execProtocolRawStream: async (_message: Uint8Array, options: { onRawData: (chunk: Uint8Array) => void }) => options.onRawData(outputs.stream),
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

  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  /** A server on the fake session with one connection, and what its watcher on `read_model` was told. */
  async function serverWith(outputs: { stream: Buffer; sync: Buffer }) {
    handlers.length = 0;
    const server = new EmbeddedSocketServer(fakeSession(outputs) as never, FakeHandler as never, 10);
    const port = await server.start('127.0.0.1');
    const socket = connect(port, '127.0.0.1');
    stop = async () => {
      socket.destroy();
      await server.stop();
    };
    await new Promise((resolve) => socket.once('connect', resolve));
    for (let wait = 0; wait < 100 && handlers.length === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 5));
    const seen: string[] = [];
    server.watch('read_model', { committed: (payload) => seen.push(payload), mayHaveStoppedListening: () => seen.push('stopped?') });
    return { connection: handlers[0], seen };
  }

  const execute = message('E', Buffer.from([0, 0, 0, 0, 0]));
  const query = (sql: string) => message('Q', Buffer.from(`${sql}\0`));

  it('sees the announcements of a batch that a vanished connection left open, which the Sync commits', async () => {
    const announced = notification('read_model', '{"version":7}');
    const { connection, seen } = await serverWith({ stream: commandComplete, sync: Buffer.concat([announced, readyForQuery]) });
    await connection.queue.enqueue(connection.handlerId, execute, () => undefined); // Execute, no Sync: the batch stays open
    expect(seen).toEqual([]);
    await connection.queue.clearTransactionIfNeeded(connection.handlerId); // the connection went away
    expect(seen).toEqual(['{"version":7}']);
  });

  it('tells the watchers of every simple query naming UNLISTEN or DISCARD, whatever its length', async () => {
    const { connection, seen } = await serverWith({ stream: Buffer.concat([commandComplete, readyForQuery]), sync: readyForQuery });
    for (let pad = 0; pad < 300; pad++) {
      for (const sql of [`UNLISTEN *;${' '.repeat(pad)}`, `DISCARD ALL${' '.repeat(pad)}`, `SELECT 1${' '.repeat(pad)}`]) {
        seen.length = 0;
        await connection.queue.enqueue(connection.handlerId, query(sql), () => undefined);
        expect([sql.length, seen]).toEqual([sql.length, sql.startsWith('SELECT') ? [] : ['stopped?']]);
      }
    }
  });

  it('tells the watchers before such a statement runs, and again whenever a prepared one is bound', async () => {
    const { connection, seen } = await serverWith({ stream: Buffer.concat([commandComplete, readyForQuery]), sync: readyForQuery });
    const answered = () => seen.push('answered');
    const parse = (name: string, sql: string) => message('P', Buffer.from(`${name}\0${sql}\0\0\0`));
    const bind = (name: string) => message('B', Buffer.from(`\0${name}\0\0\0\0\0\0\0`));
    await connection.queue.enqueue(connection.handlerId, parse('stop', 'UNLISTEN *'), answered);
    await connection.queue.enqueue(connection.handlerId, parse('other', 'SELECT $1'), answered);
    await connection.queue.enqueue(connection.handlerId, bind('stop'), answered);
    await connection.queue.enqueue(connection.handlerId, bind('other'), answered);
    await connection.queue.enqueue(connection.handlerId, parse('stop', 'SELECT 2'), answered); // the name now means something else
    await connection.queue.enqueue(connection.handlerId, bind('stop'), answered);
    expect(seen).toEqual(['stopped?', 'answered', 'answered', 'stopped?', 'answered', 'answered', 'answered', 'answered']);
  });

  it('tells the watchers when a statement may stop the session listening (UNLISTEN, DISCARD), not otherwise', async () => {
    const { connection, seen } = await serverWith({ stream: Buffer.concat([commandComplete, readyForQuery]), sync: readyForQuery });
    for (const sql of ['LISTEN read_model', 'SELECT 1', 'UNLISTEN *', 'unlisten read_model', 'DISCARD ALL', 'SELECT \'listen\'']) {
      await connection.queue.enqueue(connection.handlerId, query(sql), () => undefined);
      seen.push(sql);
    }
    expect(seen).toEqual(['LISTEN read_model', 'SELECT 1', 'stopped?', 'UNLISTEN *', 'stopped?', 'unlisten read_model', 'stopped?', 'DISCARD ALL', "SELECT 'listen'"]);
  });
});
