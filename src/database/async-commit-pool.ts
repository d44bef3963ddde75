import { Pool } from 'pg';
import { DatabaseSettings } from './database-settings';

const CONNECTIONS = 2;

/**
 * Connections with `synchronous_commit = off`, for log rows written on a request's hot path. A commit then
 * returns before its WAL record reaches the disk, which saves the flush (0.3 ms at the median, 1.5 ms at p99
 * on the benchmark machine) on every request; the price is that a crash of the database SERVER (not of this
 * service) may lose the last fraction of a second of such rows, never corrupting anything (PostgreSQL,
 * "Asynchronous Commit"). Everything else keeps synchronous commits.
 *
 * `undefined` (use the main pool) when the database allows only one connection, as the embedded one does.
 */
export function asyncCommitPool(settings: DatabaseSettings): Pool | undefined {
  if (settings.embedded || settings.poolSize < 2) return undefined;
  const pool = new Pool({
    ...settings.poolOptions(),
    connectionString: settings.url,
    max: CONNECTIONS,
    options: '-c synchronous_commit=off',
  });
  // An idle connection the server dropped: the pool discards it and opens another on the next query.
  pool.on('error', () => undefined);
  return pool;
}
