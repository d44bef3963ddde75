import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { testDatabase } from './support/database';

/**
 * The test database as the `pg` driver sees it. On the embedded one every statement passes through the socket
 * server, which holds a parameterized query's Parse, Bind, Describe and Execute until its Sync and has PGlite run
 * them in one call: what an error in the middle of such a batch leaves behind, transactions, long answers and
 * notifications are checked here on the real PGlite (and, with DATABASE_URL, the same on PostgreSQL).
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

  it('delivers a long answer whole, and a notification a parameterized statement sends to the listening connection', async () => {
    const [listener, sender] = [await connected(), await connected()];
    const { rows } = await sender.query('SELECT g AS n, repeat($1, 100) AS filler FROM generate_series(1, 5000) AS g', ['x']);
    expect(rows.length).toBe(5000);
    expect(rows[4999]).toEqual({ n: 5000, filler: 'x'.repeat(100) });

    await listener.query('LISTEN news');
    const heard = new Promise((resolve) => listener.once('notification', (message) => resolve(message.payload)));
    await sender.query('SELECT pg_notify($1, $2)', ['news', 'hello']);
    await expect(heard).resolves.toBe('hello');
  });
});
