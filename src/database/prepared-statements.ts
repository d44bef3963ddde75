import type { Pool, QueryResult, QueryResultRow } from 'pg';

/** "prepared statement ... does not exist" and "... already exists": a pooler gave another server connection. */
const PREPARED_STATEMENT_LOST = new Set(['26000', '42P05']);

/**
 * Named (prepared) statements on a pool's connections, so that the server parses and plans a statement once per
 * connection instead of once per call, unless a pooler in between loses them: a pooler in transaction mode that
 * does not keep prepared statements (PgBouncer before 1.21, or without max_prepared_statements) hands the next
 * transaction another server connection, where the name is unknown (or known already). From the first such
 * error on, statements go unprepared, and the one that met it is sent again so.
 */
export class PreparedStatements {
  private prepare: boolean;

  constructor(
    prepare: boolean,
    private readonly onLost: (code: string) => void,
  ) {
    this.prepare = prepare;
  }

  async query<Row extends QueryResultRow>(pool: Pool, name: string, text: string, values: unknown[]): Promise<QueryResult<Row>> {
    if (!this.prepare) return pool.query<Row>(text, values);
    try {
      return await pool.query<Row>({ name, text, values });
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (!PREPARED_STATEMENT_LOST.has(code)) throw error;
      this.prepare = false;
      this.onLost(code);
      return pool.query<Row>(text, values);
    }
  }
}
