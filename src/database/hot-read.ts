import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Runs a read that every bearer request makes straight on the pool under TypeORM. `DataSource.query()` creates,
 * connects and releases a query runner per call and wraps the result: 4 KB of the 99 KB the service allocated per
 * `GET /actions` request (docs/benchmarks.md). Same pool, same connections, same timeouts; errors are pg's
 * own, which `isDatabaseUnavailable` reads the same way.
 */
export async function hotRead<Row>(dataSource: DataSource, sql: string, parameters: unknown[]): Promise<Row[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool | undefined;
  if (!pool) return dataSource.query(sql, parameters);
  return (await pool.query(sql, parameters)).rows as Row[];
}
