import { Pool } from 'pg';
import { DatabaseSettings } from './database-settings';

const CONNECTIONS = 2;

/**
 * Connections with `synchronous_commit = off`, for log rows written on a request's hot path. A commit then
 * returns before its WAL record reaches the disk, which saves the flush on every request (docs/benchmarks.md,
 * "Asynchronous commit of execution records"; `node bench/commit-cost.mjs` measures it); the price is that a crash of the database SERVER (not of this
 * service) may lose the last fraction of a second of such rows, never corrupting anything (PostgreSQL,
 * "Asynchronous Commit"). Everything else keeps synchronous commits.
 *
 * `undefined` (use the main pool) when the database allows only one connection, as the embedded one does.
 */
export function asyncCommitPool(settings: DatabaseSettings): Pool | undefined {
  return sidePool(settings, '-c synchronous_commit=off');
}

/**
 * On the embedded database, one connection of its own for the delivery log's writes and the idempotency keys'
 * claims, prepared (ExecutionLogPools), kept open: PGlite is one session, where a name a connection prepared stays
 * known to all, so a connection opened again would find its statements prepared already (PreparedStatements then
 * goes on unprepared). Commits there cost no flush (PGlite runs with fsync off): the point is planning once.
 * `undefined` on a PostgreSQL server.
 */
export function embeddedPreparingConnection(settings: DatabaseSettings): Pool | undefined {
  if (!settings.embedded) return undefined;
  const pool = new Pool({ ...settings.poolOptions(), connectionString: settings.url, max: 1, idleTimeoutMillis: 0 });
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Connections whose prepared statements always take their generic plan (`plan_cache_mode = force_generic_plan`),
 * for reads whose planning costs more than running them: the delivery log's lists, which read every partition kept
 * (about 40), whose planning took several times as long as running them (docs/benchmarks.md, "The log's lists:
 * generic plans"). A generic plan is made
 * once per connection and statement (again after a partition is added, dropped or analyzed), and the partitions
 * a call's parameters exclude are pruned as it starts. Left to choose (`auto`), PostgreSQL kept custom plans for a
 * large tenant's lists, whose generic plan it estimated dearer. Only these connections: the setting would apply
 * to every statement of a connection, unprepared ones included, whose custom plans prune partitions while planning.
 *
 * `undefined` (use the main pool, unprepared) on the embedded database, as for `asyncCommitPool`.
 */
export function genericPlanPool(settings: DatabaseSettings): Pool | undefined {
  // Kept open while idle: a connection opened again makes every plan again (planning over every partition),
  // which a pool closing idle connections after 30 s would put on a request after each lull.
  return sidePool(settings, '-c plan_cache_mode=force_generic_plan', 0);
}

/**
 * CONNECTIONS connections beside the main pool, with `options` set for their sessions, closed after
 * `idleTimeoutMillis` unused (0: never); none on the embedded database.
 */
function sidePool(settings: DatabaseSettings, options: string, idleTimeoutMillis = settings.poolOptions().idleTimeoutMillis): Pool | undefined {
  if (settings.embedded || settings.poolSize < 2) return undefined;
  const pool = new Pool({ ...settings.poolOptions(), connectionString: settings.url, max: CONNECTIONS, options, idleTimeoutMillis });
  // An idle connection the server dropped: the pool discards it and opens another on the next query.
  pool.on('error', () => undefined);
  return pool;
}
