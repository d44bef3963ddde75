import type { Pool } from 'pg';
import { PreparedStatements } from './prepared-statements';

/** A pool that records how each statement came (named or as text) and answers what `answer` says. */
function recordingPool(answer: (named: boolean) => Promise<unknown>): { pool: Pool; calls: string[] } {
  const calls: string[] = [];
  const pool = {
    query: (statement: unknown) => {
      const named = typeof statement === 'object' && statement !== null && 'name' in statement;
      calls.push(named ? `named ${(statement as { name: string }).name}` : 'text');
      return answer(named);
    },
  } as unknown as Pool;
  return { pool, calls };
}

const rows = (named: boolean) => Promise.resolve({ rows: [{ named }] });

describe('PreparedStatements', () => {
  it('sends a statement by its name, so each connection prepares it once', async () => {
    const { pool, calls } = recordingPool(rows);
    const statements = new PreparedStatements(true, () => undefined);
    await expect(statements.query(pool, 'agw_a', 'SELECT 1', [])).resolves.toEqual({ rows: [{ named: true }] });
    await statements.query(pool, 'agw_a', 'SELECT 1', []);
    expect(calls).toEqual(['named agw_a', 'named agw_a']);
  });

  it('sends the text alone where prepared statements are off (the embedded database)', async () => {
    const { pool, calls } = recordingPool(rows);
    await new PreparedStatements(false, () => undefined).query(pool, 'agw_a', 'SELECT 1', []);
    expect(calls).toEqual(['text']);
  });

  it.each(['26000', '42P05'])('goes on unprepared, once and for all, when a pooler loses a prepared statement (%s)', async (code) => {
    const lost = Object.assign(new Error('prepared statement "agw_a"'), { code });
    const { pool, calls } = recordingPool((named) => (named ? Promise.reject(lost) : rows(false)));
    const said: string[] = [];
    const statements = new PreparedStatements(true, (lostCode) => said.push(lostCode));
    await expect(statements.query(pool, 'agw_a', 'SELECT 1', [])).resolves.toEqual({ rows: [{ named: false }] });
    await statements.query(pool, 'agw_b', 'SELECT 2', []);
    expect({ calls, said }).toEqual({ calls: ['named agw_a', 'text', 'text'], said: [code] });
  });

  it('passes any other error on, and keeps preparing', async () => {
    const failed = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    let first = true;
    const { pool, calls } = recordingPool(() => (first ? ((first = false), Promise.reject(failed)) : rows(true)));
    const statements = new PreparedStatements(true, () => undefined);
    await expect(statements.query(pool, 'agw_a', 'SELECT 1', [])).rejects.toBe(failed);
    await statements.query(pool, 'agw_a', 'SELECT 1', []);
    expect(calls).toEqual(['named agw_a', 'named agw_a']);
  });
});
