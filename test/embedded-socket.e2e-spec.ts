import { randomBytes } from 'node:crypto';
import { connect, Socket } from 'node:net';
import { Client } from 'pg';
import { serialize } from 'pg-protocol';
import { testDatabase } from './support/database';

/** A client that speaks the protocol itself, to leave a batch unfinished as `pg` never would. */
async function rawClient(): Promise<{ socket: Socket; send: (...messages: Buffer[]) => void; readyForQuery: () => Promise<void> }> {
  const url = new URL(testDatabase().url);
  const socket = connect(Number(url.port || 5432), url.hostname);
  let received = Buffer.alloc(0);
  let waiting: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    // AuthenticationCleartextPassword (the embedded database's port asks for its password): give it.
    if (received.length >= 9 && received[0] === 0x52 && received.readInt32BE(5) === 3) {
      socket.write(serialize.password(decodeURIComponent(url.password)));
      received = received.subarray(9);
    }
    waiting?.();
  });
  // Resolves once a ReadyForQuery has arrived since the last call.
  const readyForQuery = () =>
    new Promise<void>((resolve) => {
      const check = () => {
        for (let offset = 0; offset + 5 <= received.length; offset += 1 + received.readInt32BE(offset + 1)) {
          if (received[offset] === 0x5a && offset + 6 <= received.length) {
            received = received.subarray(offset + 6);
            waiting = undefined;
            resolve();
            return;
          }
        }
      };
      waiting = check;
      check();
    });
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(serialize.startup({ user: decodeURIComponent(url.username) || 'postgres', database: url.pathname.slice(1) || 'postgres' }));
  await readyForQuery();
  return { socket, send: (...messages) => socket.write(Buffer.concat(messages)), readyForQuery };
}

/**
 * The test database as the `pg` driver sees it. On the embedded one every statement passes through the socket
 * server, which holds a parameterized query's Parse, Bind, Describe and Execute until its Sync and has PGlite run
 * them in one call: what an error in the middle of such a batch leaves behind, transactions and long answers
 * are checked here on the real PGlite (and, with DATABASE_URL, the same on PostgreSQL).
 */
describe('the database through the pg driver (the embedded socket server)', () => {
  const schema = `socket_${randomBytes(4).toString('hex')}`;
  const clients: Client[] = [];

  async function connected(): Promise<Client> {
    const client = new Client({ connectionString: testDatabase().url });
    clients.push(client);
    await client.connect();
    return client;
  }

  beforeAll(async () => {
    const client = await connected();
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.query(`CREATE TABLE ${schema}.parent (id int PRIMARY KEY); CREATE TABLE ${schema}.child (id int, parent int REFERENCES ${schema}.parent (id))`);
    await client.query(`INSERT INTO ${schema}.parent VALUES (1)`);
  });

  afterAll(async () => {
    await clients[0].query(`DROP SCHEMA ${schema} CASCADE`);
    for (const client of clients) await client.end().catch(() => undefined);
  });

  it('answers an error in the middle of a batch once, and the connection goes on', async () => {
    const client = await connected();
    await expect(client.query(`INSERT INTO ${schema}.child VALUES ($1, $2)`, [1, 99])).rejects.toMatchObject({ code: '23503' });
    await expect(client.query('SELEC $1::int', [1])).rejects.toMatchObject({ code: '42601' });
    await expect(client.query('SELECT $1::int + 1 AS next', [41])).resolves.toMatchObject({ rows: [{ next: 42 }] });
    await client.query(`INSERT INTO ${schema}.child VALUES ($1, $2)`, [1, 1]);
    expect((await client.query(`SELECT count(*)::int AS n FROM ${schema}.child`)).rows).toEqual([{ n: 1 }]);
  });

  it('commits nothing of a batch whose client went away before its Sync, however much of it ran', async () => {
    const client = await connected();
    const count = async () => (await client.query(`SELECT count(*)::int AS n FROM ${schema}.parent WHERE id >= 1000`)).rows[0].n;
    const insert = (id: number) => [serialize.parse({ text: `INSERT INTO ${schema}.parent VALUES (${id})` }), serialize.bind({}), serialize.execute({})];

    // Run and flushed, then the connection is cut.
    const flushed = await rawClient();
    flushed.send(...insert(1000), serialize.flush());
    await new Promise((resolve) => setTimeout(resolve, 100));
    flushed.socket.destroy();
    // More than the server holds (1 MB): part of it runs before the cut.
    const large = await rawClient();
    large.send(...Array.from({ length: 15_000 }, (_, index) => insert(2000 + index)).flat());
    await new Promise((resolve) => setTimeout(resolve, 300));
    large.socket.destroy();
    // Held, then a Terminate: a clean goodbye without a Sync.
    const terminated = await rawClient();
    terminated.send(...insert(1001), serialize.end());
    terminated.socket.end();

    await expect(count()).resolves.toBe(0);
    await expect(client.query('SELECT $1::int AS alive', [1])).resolves.toMatchObject({ rows: [{ alive: 1 }] });
  });

  it('runs a named prepared statement again with new values (Bind, Execute, Sync only)', async () => {
    const client = await connected();
    for (const value of [1, 2, 3]) {
      const { rows } = await client.query({ name: 'double', text: 'SELECT $1::int * 2 AS twice', values: [value] });
      expect(rows).toEqual([{ twice: value * 2 }]);
    }
  });

  it("keeps another connection's parameterized statements out of a transaction", async () => {
    const [first, second] = [await connected(), await connected()];
    await first.query('BEGIN');
    await first.query(`INSERT INTO ${schema}.parent VALUES ($1)`, [10]);
    const counted = second.query(`SELECT count(*)::int AS n FROM ${schema}.parent WHERE id = $1`, [10]);
    await first.query(`INSERT INTO ${schema}.parent VALUES ($1)`, [11]);
    await first.query('ROLLBACK');
    // Run inside the transaction, it would have seen the row that was rolled back.
    expect((await counted).rows).toEqual([{ n: 0 }]);
    expect((await second.query(`SELECT count(*)::int AS n FROM ${schema}.parent`)).rows).toEqual([{ n: 1 }]);
  });

  it('delivers a long answer whole', async () => {
    const sender = await connected();
    const { rows } = await sender.query('SELECT g AS n, repeat($1, 100) AS filler FROM generate_series(1, 5000) AS g', ['x']);
    expect(rows.length).toBe(5000);
    expect(rows[4999]).toEqual({ n: 5000, filler: 'x'.repeat(100) });
  });
});
