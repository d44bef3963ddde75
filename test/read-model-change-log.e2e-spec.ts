import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../src/database/schema';
import { testDatabase } from './support/database';

interface Entry {
  position: number;
  previous: number;
  table_name: string;
  keys: string[] | null;
}

/**
 * What the read model relies on in the database, on PostgreSQL and on the embedded PGlite alike: every change to
 * the tables it keeps is logged by the writing transaction, one entry per statement and table, positions in
 * commit order, each entry naming the one committed before it (migration 1764316800000-read-model-change-log).
 */
describe('the read model\'s change log (read_model_changes, written by the writing transaction)', () => {
  const url = testDatabase().url;
  /**
   * The schema the migrations make, in a schema of its own on the worker's database: on a shared server, the
   * 1,200 tenants imported below would be in other files' tenant lists, and the import's "forget the table" entry
   * would empty every other replica's memory of tenants while their tests count what it reads from the database.
   */
  const schema = `change_log_${randomUUID().replaceAll('-', '')}`;
  const inSchema = (client: Pick<Client, 'query'>) => client.query(`SET search_path TO ${schema}`);
  let writer: Pool;

  beforeAll(async () => {
    const dataSource = new DataSource({ type: 'postgres', url });
    await dataSource.initialize();
    const runner = dataSource.createQueryRunner();
    try {
      await runner.query(`CREATE SCHEMA ${schema}`);
      await runner.query(`SET search_path TO ${schema}`);
      for (const Migration of MIGRATIONS) await new Migration().up(runner);
      // The embedded database is one session: the search path is put back here and below, before any other file runs.
      await runner.query('SET search_path TO public');
    } finally {
      await runner.release();
      await dataSource.destroy();
    }
    writer = new Pool({ connectionString: url, max: 3 });
    writer.on('connect', (client) => void inSchema(client)); // queued before the client's first statement
  });
  afterAll(async () => {
    await writer?.query('SET search_path TO public');
    await writer?.query(`DROP SCHEMA ${schema} CASCADE`);
    await writer?.end();
  });

  /** The entries naming any of `keys`. */
  async function loggedFor(keys: string[]): Promise<Entry[]> {
    const { rows } = await writer.query<Entry>(
      'SELECT position::int, previous::int, table_name, keys FROM read_model_changes WHERE keys && $1::text[] ORDER BY position',
      [keys],
    );
    return rows;
  }

  const insertTenant = (id: string, client: Pool | Client = writer) =>
    client.query(`INSERT INTO tenants (id, name, status, created_at, updated_at) VALUES ($1, 'n', 'active', now(), now())`, [id]);

  it('logs every change in commit order, each entry naming the one before it', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await insertTenant(a);
    await insertTenant(b);
    await writer.query(`UPDATE tenants SET status = 'disabled' WHERE id = $1`, [a]);
    const mine = await loggedFor([a, b]);
    expect(mine.map(({ table_name, keys }) => ({ table_name, keys }))).toEqual([
      { table_name: 'tenants', keys: [a] },
      { table_name: 'tenants', keys: [b] },
      { table_name: 'tenants', keys: [a] },
    ]);
    for (const entry of mine) {
      const [{ exists }] = (await writer.query('SELECT count(*)::int AS exists FROM read_model_changes WHERE position = $1', [entry.previous])).rows;
      expect([entry.previous < entry.position, exists]).toEqual([true, 1]);
    }
    const [{ version }] = (await writer.query('SELECT version::int FROM read_model_version')).rows;
    expect(version).toBeGreaterThanOrEqual(mine[2].position); // the previous release's replicas read this view
  });

  it('logs nothing for a rolled-back transaction, nor for changes the read model does not keep', async () => {
    const id = randomUUID();
    const client = await writer.connect();
    try {
      await client.query('BEGIN');
      await insertTenant(id, client as unknown as Client);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    const kept = randomUUID();
    await insertTenant(kept);
    await writer.query(`UPDATE tenants SET name = 'renamed', updated_at = now() WHERE id = $1`, [kept]); // a name is not kept
    const token = randomUUID();
    await writer.query(
      `INSERT INTO api_tokens (id, tenant_id, name, prefix, token_hash, created_at) VALUES ($1, $2, 't', 'agw_x', $3, now())`,
      [token, kept, randomUUID().replace(/-/g, '').padEnd(64, '0')],
    );
    await writer.query(`UPDATE api_tokens SET last_used_at = now() WHERE id = $1`, [token]); // every exchange does this
    await writer.query(`UPDATE api_tokens SET revoked_at = now() WHERE id = $1`, [token]);
    expect((await loggedFor([id, kept, token])).map(({ table_name, keys }) => ({ table_name, keys }))).toEqual([
      { table_name: 'tenants', keys: [kept] },
      { table_name: 'api_tokens', keys: [token] },
      { table_name: 'api_tokens', keys: [token] },
    ]);
  });

  it('logs a statement of many rows as one entry, and a transaction past 1,000 keys as one "forget the table" entry', async () => {
    const [{ before }] = (await writer.query('SELECT coalesce(max(position), 0)::int AS before FROM read_model_changes')).rows;
    const ids = Array.from({ length: 5 }, () => randomUUID());
    await writer.query(`INSERT INTO tenants (id, name, status, created_at, updated_at) SELECT unnest($1::uuid[]), 'n', 'active', now(), now()`, [ids]);
    expect((await loggedFor(ids)).map((entry) => [...(entry.keys ?? [])].sort())).toEqual([[...ids].sort()]);

    // An import: 1,200 tenants in one transaction, 300 rows a statement.
    const client = await writer.connect();
    try {
      await client.query('BEGIN');
      for (let batch = 0; batch < 4; batch++) {
        await client.query(
          `INSERT INTO tenants (id, name, status, created_at, updated_at) SELECT gen_random_uuid(), 'imported', 'active', now(), now() FROM generate_series(1, 300)`,
        );
      }
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const { rows } = await writer.query<{ keys: number | null }>(
      `SELECT cardinality(keys) AS keys FROM read_model_changes WHERE position > $1 AND table_name = 'tenants' AND (keys IS NULL OR cardinality(keys) = 300) ORDER BY position`,
      [before],
    );
    // 300, 300, 300: 900 keys; the fourth statement would pass 1,000, so it logs "everything", and the table is done.
    expect(rows.slice(-4).map((row) => row.keys)).toEqual([300, 300, 300, null]);
  });

  it('orders positions by commit: a second writer takes its number only once the first has ended', async () => {
    const [early, late] = [randomUUID(), randomUUID()];
    const first = new Client(url);
    await first.connect();
    await inSchema(first);
    try {
      await first.query('BEGIN');
      await insertTenant(early, first); // holds the log's lock until it ends
      let secondDone = false;
      const second = insertTenant(late).then(() => (secondDone = true)); // waits for it
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(secondDone).toBe(false);
      await first.query('COMMIT');
      await second;
    } finally {
      await first.end();
    }
    const [a, b] = await loggedFor([early, late]);
    expect([a.keys, b.keys]).toEqual([[early], [late]]);
    expect(b.previous).toBeGreaterThanOrEqual(a.position);
  });
});
