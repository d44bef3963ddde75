import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { Pool } from 'pg';
import { isDatabaseUnavailable } from './database-errors';
import { DEADLINE_CHECK_MS, DeadlineClient, QueryDeadlineError, watchedClients } from './query-deadline';

const DEADLINE_MS = 1_000;
const PG_VERSION = (JSON.parse(readFileSync(require.resolve('pg/package.json'), 'utf8')) as { version: string }).version;

/** A message of PostgreSQL's protocol: its type, its length, its body. */
function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}
const READY = message('Z', Buffer.from('I'));
const AUTHENTICATED = message('R', Buffer.alloc(4));
const SELECT_0 = message('C', Buffer.from('SELECT 0\0'));

/**
 * A database on 127.0.0.1 that accepts the connection and then answers each simple query after `answerAfterMs`,
 * or never (`undefined`): a server that hangs, a network that drops its packets.
 */
async function fakeDatabase(answerAfterMs: number | undefined): Promise<{ url: string; server: Server; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    let started = false;
    socket.on('data', (data) => {
      if (!started) {
        started = true;
        socket.write(Buffer.concat([AUTHENTICATED, READY]));
        return;
      }
      if (data[0] === 'Q'.charCodeAt(0) && answerAfterMs !== undefined) setTimeout(() => socket.write(Buffer.concat([SELECT_0, READY])), answerAfterMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `postgres://postgres@127.0.0.1:${(server.address() as AddressInfo).port}/db`, server, sockets };
}

describe('DeadlineClient', () => {
  let database: Awaited<ReturnType<typeof fakeDatabase>> | undefined;
  afterEach(async () => {
    database?.sockets.forEach((socket) => socket.destroy());
    database?.server.close();
    database = undefined;
  });

  it('closes the connection of a query left unanswered past its deadline, failing it as the database unavailable', async () => {
    database = await fakeDatabase(undefined);
    const client = new DeadlineClient({ connectionString: database.url, queryDeadlineMs: DEADLINE_MS });
    client.on('error', () => undefined);
    // Watched from its connection on, not before (a client made and never connected would stay watched).
    expect(watchedClients()).toBe(0);
    await client.connect();
    const ended = new Promise((resolve) => client.once('end', resolve));
    expect(watchedClients()).toBe(1);
    const started = performance.now();
    const error = await client.query('SELECT 0').then(
      () => undefined,
      (failure: unknown) => failure,
    );
    const waited = performance.now() - started;
    expect(error).toBeInstanceOf(QueryDeadlineError);
    expect((error as Error).message).toBe(`Query read timeout: the database did not answer within ${DEADLINE_MS} ms`);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(waited).toBeGreaterThanOrEqual(DEADLINE_MS);
    // Cut at a look of the watchdog after the deadline; the room past two looks is for a loaded machine's late timers.
    expect(waited).toBeLessThan(DEADLINE_MS + 2 * DEADLINE_CHECK_MS + 3_000);
    await ended;
    expect(watchedClients()).toBe(0);
  });

  it('lets a slow query that is answered within its deadline finish, and forgets a client once it ends', async () => {
    // Each answer comes after two of the watchdog's looks: it sees the query running, then still running, and lets
    // it run on. The deadline is 2 s past the answer, so a stalled event loop (a loaded machine) does not let a look
    // cut the query first.
    const deadlineMs = 2 * DEADLINE_CHECK_MS + 2_000;
    database = await fakeDatabase(2 * DEADLINE_CHECK_MS);
    const client = new DeadlineClient({ connectionString: database.url, queryDeadlineMs: deadlineMs });
    await client.connect();
    for (let i = 0; i < 3; i++) expect((await client.query('SELECT 0')).command).toBe('SELECT');
    await client.end();
    expect(watchedClients()).toBe(0);
  });

  it("takes a pool's connection out of the pool when its query is cut: the query waiting for it gets a new one", async () => {
    database = await fakeDatabase(undefined);
    const pool = new Pool({ connectionString: database.url, max: 1, Client: DeadlineClient, queryDeadlineMs: DEADLINE_MS } as ConstructorParameters<typeof Pool>[0]);
    pool.on('error', () => undefined);
    const results = await Promise.allSettled([pool.query('SELECT 0'), pool.query('SELECT 0')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    for (const result of results) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(QueryDeadlineError);
    expect(database.sockets).toHaveLength(2);
    await pool.end();
    expect(watchedClients()).toBe(0);
  });

  it(`pg ${PG_VERSION} still has what the watchdog reads: _activeQuery while a query runs, _ended, connection.stream`, async () => {
    // The watchdog reads three private fields of pg's Client (see DeadlineClient). If an upgrade renames one, the
    // deadline would silently never fire: this says which, by name, instead of a test timing out.
    database = await fakeDatabase(100);
    const client = new DeadlineClient({ connectionString: database.url, queryDeadlineMs: DEADLINE_MS });
    await client.connect();
    const internals = client as unknown as { _activeQuery?: unknown; _ended?: unknown; connection?: { stream?: unknown } };
    expect({ activeQuery: '_activeQuery' in internals, ended: internals._ended, stream: internals.connection?.stream instanceof Socket }).toEqual({
      activeQuery: true,
      ended: false,
      stream: true,
    });
    expect(internals._activeQuery ?? null).toBeNull();
    const query = client.query('SELECT 0');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(internals._activeQuery).toEqual(expect.objectContaining({ text: 'SELECT 0' }));
    await query;
    expect(internals._activeQuery ?? null).toBeNull();
    await client.end();
    expect(internals._ended).toBe(true);
  });

  it('sets no deadline, and watches nothing, without queryDeadlineMs', () => {
    const client = new DeadlineClient({ connectionString: 'postgres://postgres@127.0.0.1:1/db' });
    expect(watchedClients()).toBe(0);
    expect(client).toBeInstanceOf(DeadlineClient);
  });
});
