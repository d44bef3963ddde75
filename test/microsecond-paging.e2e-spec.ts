import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TOKENS_PAGE_AFTER_SQL } from '../src/auth/api-tokens.sql';
import { PageCursors } from '../src/common/page-cursors';
import { TENANTS_PAGE_AFTER_SQL } from '../src/tenancy/tenants.sql';
import { KEYS_PAGE_AFTER_SQL } from '../src/webhooks/hmac-keys.sql';
import { admin, createTenant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Microseconds after one shared millisecond (`date_trunc('milliseconds', now())`, so on PGlite too, whose `now()`
 * keeps milliseconds): ties, rows between them, and one on the millisecond itself, which is what a cursor cut to
 * milliseconds pointed at. Rows written by SQL (an import, a restore, psql) look like this.
 */
const OFFSETS = [456, 456, 456, 0, 123, 999, 999];

interface Listed {
  id: string;
  created_at: string;
}

/**
 * The management lists (tenants, a tenant's API tokens and HMAC keys) page exactly over rows whose `created_at` has
 * microseconds: the cursor carries the position as PostgreSQL spells it, not a JavaScript Date (milliseconds), so
 * nothing tied on that time, nor anything between the millisecond and it, is skipped or repeated.
 */
describe('paging over microsecond timestamps', () => {
  let testApp: TestApp;
  let database: DataSource;

  beforeAll(async () => {
    testApp = await startTestApp();
    database = testApp.app.get(DataSource);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  /** Reads `path` page after page, `limit` at a time, until the list ends or `enough` says so (after a page). */
  async function walk(path: string, key: string, limit: number, enough: (seen: Listed[]) => boolean = () => false): Promise<Listed[]> {
    const seen: Listed[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 2_000; pages++) {
      const response = await admin(testApp, 'GET', `${path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect([response.status, response.body[key]?.length <= limit]).toEqual([200, true]);
      seen.push(...(response.body[key] as Listed[]));
      cursor = response.body.next_cursor;
      if (cursor === null || enough(seen)) return seen;
    }
    throw new Error(`${path} did not end in 2,000 pages`);
  }

  /** `ids` as the database orders the list: newest first, ties by id. */
  async function inDatabaseOrder(table: string, ids: string[]): Promise<string[]> {
    const rows: Array<{ id: string }> = await database.query(`SELECT id FROM ${table} WHERE id = ANY($1) ORDER BY created_at DESC, id DESC`, [ids]);
    return rows.map((row) => row.id);
  }

  const ids = (listed: Listed[]) => listed.map((item) => item.id);

  it('lists every tenant written by SQL with one now(), in order, a page of 1 or 2 at a time', async () => {
    const made: Array<{ id: string; since: Date }> = await database.query(
      `INSERT INTO tenants (id, name, status, created_at, updated_at)
       SELECT gen_random_uuid(), 'microseconds-' || n, 'active', at + offset_us * interval '1 microsecond', at + offset_us * interval '1 microsecond'
       FROM (SELECT date_trunc('milliseconds', now()) AS at) AS shared, unnest($1::int[]) WITH ORDINALITY AS o (offset_us, n)
       RETURNING id, date_trunc('milliseconds', created_at) AS since`,
      [OFFSETS],
    );
    const ours = made.map((row) => row.id);
    const since = made[0].since.getTime();
    expect(await database.query(`SELECT count(*)::int AS n FROM tenants WHERE id = ANY($1) AND created_at <> date_trunc('milliseconds', created_at)`, [ours])).toEqual([
      { n: OFFSETS.filter((offset) => offset > 0).length },
    ]);
    const expected = await inDatabaseOrder('tenants', ours);
    // On a shared database other suites make tenants all the while: they are listed before ours, or among them.
    // A walk goes on until it has passed below ours (the millisecond they share), and every tenant listed by then
    // and there before and after it (ours, and anyone's of that millisecond or later) is listed once, in order.
    const atOrAfter = async () => new Set(((await database.query('SELECT id FROM tenants WHERE created_at >= $1', [new Date(since)])) as Array<{ id: string }>).map((row) => row.id));
    try {
      for (const limit of [1, 2]) {
        const before = await atOrAfter();
        const walked = ids(await walk('/tenants', 'tenants', limit, (seen) => Date.parse(seen[seen.length - 1].created_at) < since));
        const after = await atOrAfter();
        expect(new Set(walked).size).toBe(walked.length);
        expect(walked.filter((id) => ours.includes(id))).toEqual(expected);
        expect(walked.filter((id) => before.has(id) && after.has(id))).toEqual(await inDatabaseOrder('tenants', [...before].filter((id) => after.has(id))));
      }
    } finally {
      await database.query('DELETE FROM tenants WHERE id = ANY($1)', [ours]);
    }
  });

  it('lists every API token and HMAC key written by SQL with one now(), in order, a page of 1 or 2 at a time', async () => {
    const tenant = await createTenant(testApp);
    const shared = `FROM (SELECT date_trunc('milliseconds', now()) AS at) AS shared, unnest($2::int[]) WITH ORDINALITY AS o (offset_us, n)`;
    const time = `at + offset_us * interval '1 microsecond'`;
    await database.query(
      `INSERT INTO api_tokens (id, tenant_id, name, prefix, token_hash, created_at)
       SELECT gen_random_uuid(), $1, 'microseconds-' || n, 'agw_import', md5(random()::text) || md5(random()::text), ${time} ${shared}`,
      [tenant.tenantId, OFFSETS],
    );
    // Revoked: nothing reads them to sign, so their ciphertext need not decrypt.
    await database.query(`INSERT INTO hmac_keys (id, tenant_id, key_ciphertext, created_at, revoked_at) SELECT gen_random_uuid(), $1, 'imported', ${time}, ${time} ${shared}`, [
      tenant.tenantId,
      OFFSETS,
    ]);
    for (const [table, path, key] of [
      ['api_tokens', `/tenants/${tenant.tenantId}/api-tokens`, 'api_tokens'],
      ['hmac_keys', `/tenants/${tenant.tenantId}/hmac-keys`, 'hmac_keys'],
    ]) {
      const all: Array<{ id: string }> = await database.query(`SELECT id FROM ${table} WHERE tenant_id = $1`, [tenant.tenantId]);
      // The tenant's own (made by the API, to the millisecond) and the imported ones.
      expect(all).toHaveLength(OFFSETS.length + 1);
      const expected = await inDatabaseOrder(table, all.map((row) => row.id));
      for (const limit of [1, 2]) expect({ table, limit, walked: ids(await walk(path, key, limit)) }).toEqual({ table, limit, walked: expected });
    }
  });

  it('still reads a cursor of the format before (the time to the millisecond)', async () => {
    const tenant = await createTenant(testApp);
    const [first] = (await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/api-tokens`)).body.api_tokens as Listed[];
    const cursors = testApp.app.get(PageCursors);
    const older = cursors.make('api tokens', tenant.tenantId, [new Date(Date.parse(first.created_at) + 1).toISOString(), randomUUID()]);
    const page = await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/api-tokens?cursor=${encodeURIComponent(older)}`);
    expect([page.status, ids(page.body.api_tokens), page.body.next_cursor]).toEqual([200, [first.id], null]);
  });

  it('reads a next page from the index, from the position on', async () => {
    const plan = async (statement: string, parameters: unknown[]) => {
      const runner = database.createQueryRunner();
      await runner.connect();
      try {
        // A small table is read whole by choice; with that choice taken away, the plan shows what the index serves.
        await runner.startTransaction();
        await runner.query('SET LOCAL enable_seqscan = off');
        const rows: Array<{ 'QUERY PLAN': string }> = await runner.query(`EXPLAIN ${statement}`, parameters);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
    };
    const position = ['2026-01-01 00:00:00.123456+00', randomUUID()];
    const tenants = await plan(TENANTS_PAGE_AFTER_SQL.text, [...position, 2]);
    expect(tenants).toMatch(/Index Scan Backward using tenants_created_idx/);
    expect(tenants).toMatch(/Index Cond: \(ROW\(created_at, id\) < ROW\(/);
    expect(tenants).not.toMatch(/Sort/);
    // A tenant's tokens and keys (at most 201 and 111 of them) are found by (tenant_id, created_at): from the
    // position's time on, then ordered by id among the ties.
    for (const [statement, index] of [
      [TOKENS_PAGE_AFTER_SQL.text, 'api_tokens_tenant_idx'],
      [KEYS_PAGE_AFTER_SQL.text, 'hmac_keys_tenant_idx'],
    ]) {
      const found = await plan(statement, [randomUUID(), ...position, 2]);
      // Either way through the index (which one depends on the table's statistics: on CI's shared database other
      // suites' rows make a bitmap scan of the same index cheaper); never the whole table.
      expect(found).toMatch(new RegExp(`(Index Scan Backward using|Bitmap Index Scan on) ${index}`));
      expect(found).not.toMatch(/Seq Scan/);
      expect(found).toMatch(/Index Cond: \(\(tenant_id = .+\) AND \(created_at <= .+\)\)/);
    }
  });
});
