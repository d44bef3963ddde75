import { randomUUID } from 'node:crypto';
import { Client, Notification, Pool } from 'pg';
import { testDatabase } from './support/database';

/**
 * What the read model relies on in the database, on PostgreSQL and on the embedded PGlite alike (whose socket
 * server relays notifications between connections and keeps one connection's statements together, see
 * EmbeddedSocketServer): changes numbered in commit order and announced to every listening connection.
 */
describe('change announcements (LISTEN/NOTIFY from the writing transaction)', () => {
  const url = testDatabase().url;
  let listener: Client;
  let writer: Pool;
  const received: Array<{ version: number; table: string; key: string | null }> = [];

  beforeAll(async () => {
    listener = new Client(url);
    await listener.connect();
    listener.on('notification', (message: Notification) => received.push(JSON.parse(message.payload ?? '')));
    await listener.query('LISTEN read_model');
    writer = new Pool({ connectionString: url, max: 3 });
  });
  afterAll(async () => {
    await listener?.end();
    await writer?.end();
  });

  /** What was announced about `keys` (other tests may write at the same time on a shared server). */
  async function announcedFor(keys: string[], count: number) {
    for (let wait = 0; wait < 100; wait++) {
      const mine = received.filter((change) => change.key !== null && keys.includes(change.key));
      if (mine.length >= count) return mine;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return received.filter((change) => change.key !== null && keys.includes(change.key));
  }

  async function insertTenant(id: string): Promise<void> {
    await writer.query(`INSERT INTO tenants (id, name, status, created_at, updated_at) VALUES ($1, 'n', 'active', now(), now())`, [id]);
  }

  it('numbers every change in commit order and announces it from the writing transaction, to another connection', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await insertTenant(a);
    await insertTenant(b);
    await writer.query(`UPDATE tenants SET status = 'disabled' WHERE id = $1`, [a]);
    const [{ version }] = (await writer.query('SELECT version FROM read_model_version')).rows;

    const mine = await announcedFor([a, b], 3);
    expect(mine.map(({ table, key }) => ({ table, key }))).toEqual([
      { table: 'tenants', key: a },
      { table: 'tenants', key: b },
      { table: 'tenants', key: a },
    ]);
    const versions = mine.map((change) => change.version);
    expect(versions).toEqual([...versions].sort((x, y) => x - y));
    expect(Number(version)).toBeGreaterThanOrEqual(versions[2]);
  });

  it('announces nothing for a rolled-back transaction, and nothing for changes the read model does not keep', async () => {
    const id = randomUUID();
    const client = await writer.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO tenants (id, name, status, created_at, updated_at) VALUES ($1, 'n', 'active', now(), now())`, [id]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    const kept = randomUUID();
    await insertTenant(kept);
    await writer.query(`UPDATE tenants SET name = 'renamed' WHERE id = $1`, [kept]); // a name is not kept in memory
    const token = randomUUID();
    await writer.query(
      `INSERT INTO api_tokens (id, tenant_id, name, prefix, token_hash, created_at) VALUES ($1, $2, 't', 'agw_x', $3, now())`,
      [token, kept, randomUUID().replace(/-/g, '').padEnd(64, '0')],
    );
    await writer.query(`UPDATE api_tokens SET last_used_at = now() WHERE id = $1`, [token]); // every exchange does this
    await writer.query(`UPDATE api_tokens SET revoked_at = now() WHERE id = $1`, [token]);

    const mine = await announcedFor([id, kept, token], 3);
    expect(mine.map(({ table, key }) => ({ table, key }))).toEqual([
      { table: 'tenants', key: kept },
      { table: 'api_tokens', key: token },
      { table: 'api_tokens', key: token },
    ]);
  });

  it('keeps each connection\'s statements and transactions apart while others run theirs', async () => {
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        index % 4 === 0 ? listener.query(`SELECT ${index} AS n`) : writer.query('SELECT $1::int AS n', [index]),
      ),
    );
    expect(results.map((result) => Number(result.rows[0].n))).toEqual(Array.from({ length: 60 }, (_, index) => index));

    // A connection that goes away inside a transaction: its changes are rolled back, and nobody waits on it.
    const id = randomUUID();
    const abandoned = new Client(url);
    abandoned.on('error', () => undefined);
    await abandoned.connect();
    await abandoned.query('BEGIN');
    await abandoned.query(`INSERT INTO tenants (id, name, status, created_at, updated_at) VALUES ($1, 'n', 'active', now(), now())`, [id]);
    (abandoned as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    let rows: unknown[] = [];
    for (let attempt = 0; attempt < 50; attempt++) {
      rows = (await writer.query('SELECT id FROM tenants WHERE id = $1', [id])).rows;
      if (rows.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(rows).toEqual([]);
  });
});
