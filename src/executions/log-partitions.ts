import { Injectable, Logger } from '@nestjs/common';
import { DatabaseSettings } from '../database/database-settings';

const DAY_MS = 86_400_000;

/** The tables of the delivery log, each partitioned by day on its time column. */
const LOG_TABLES = ['executions', 'execution_payloads', 'execution_stats_hourly', 'execution_stats_daily'] as const;
export type LogTable = (typeof LOG_TABLES)[number];

/** Advisory lock keys (any two numbers the service uses for nothing else). */
const CREATE_LOCK = 0x61677701;
export const MAINTENANCE_LOCK = 0x61677702;

/** A partition and the range of its table it holds; `from` null is MINVALUE (the table the log was before partitioning). */
interface Partition {
  table: LogTable;
  name: string;
  from: Date | null;
  to: Date;
  /** Left half-detached by a DETACH ... CONCURRENTLY that was interrupted. */
  detachPending: boolean;
}

/** One connection's statements: a client of its own, so that locks and transactions stay on it. */
export type Sql = <Row = Record<string, unknown>>(sql: string, parameters?: unknown[]) => Promise<Row[]>;

/**
 * The partitions of the delivery log's tables: one per UTC day, named `<table>_pYYYYMMDD`. New ones are created
 * ahead (empty, then ATTACHed, which takes only a SHARE UPDATE EXCLUSIVE lock on the parent: reads and writes go
 * on), old ones detached (CONCURRENTLY on a PostgreSQL server) and dropped: retention never deletes rows one by one.
 * Every statement that waits for a lock gives up after a second (`lock_timeout`), so that it never queues
 * requests behind it; the next run tries again.
 */
@Injectable()
export class ExecutionLogPartitions {
  private readonly logger = new Logger('ExecutionLog');

  constructor(private readonly settings: DatabaseSettings) {}

  /** Runs `work` on a connection of its own, closed afterwards. */
  async withConnection<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    const client = this.settings.newClient('action-gateway log maintenance');
    client.on('error', () => undefined);
    await client.connect();
    try {
      const sql: Sql = async <Row,>(text: string, parameters?: unknown[]) => (await client.query<Row & object>(text, parameters)).rows;
      await sql(`SET lock_timeout = '1s'`);
      await sql(`SET TimeZone = 'UTC'`);
      return await work(sql);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /**
   * Makes sure every table of the log has a partition for each UTC day from `from` to `to` (inclusive). Replicas
   * doing it at once take turns (an advisory lock), and a day some partition already covers is left alone.
   */
  async ensure(from: Date, to: Date): Promise<number> {
    return this.withConnection((sql) => this.ensureWith(sql, from, to));
  }

  async ensureWith(sql: Sql, from: Date, to: Date): Promise<number> {
    let created = 0;
    await sql('BEGIN');
    try {
      await sql(`SELECT pg_advisory_xact_lock(${CREATE_LOCK})`);
      const existing = await this.list(sql);
      for (const table of LOG_TABLES) {
        const ranges = existing.filter((partition) => partition.table === table);
        for (let day = startOfDay(from); day.getTime() <= to.getTime(); day = new Date(day.getTime() + DAY_MS)) {
          const end = new Date(day.getTime() + DAY_MS);
          if (ranges.some((partition) => (partition.from === null || partition.from < end) && partition.to > day)) continue;
          const name = partitionName(table, day);
          await sql(`CREATE TABLE ${name} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
          await sql(`ALTER TABLE ${table} ATTACH PARTITION ${name} FOR VALUES FROM ('${day.toISOString()}') TO ('${end.toISOString()}')`);
          created += 1;
        }
      }
      await sql('COMMIT');
    } catch (error) {
      await sql('ROLLBACK').catch(() => undefined);
      throw error;
    }
    if (created > 0) this.logger.log({ created }, 'created partitions of the delivery log');
    return created;
  }

  /** Every partition of the log's tables, oldest first. */
  async list(sql: Sql): Promise<Partition[]> {
    const rows = await sql<{ table: LogTable; name: string; bound: string; detach_pending: boolean }>(
      `SELECT p.relname AS table, c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound, i.inhdetachpending AS detach_pending
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
       WHERE p.relname = ANY($1) AND p.relnamespace = c.relnamespace AND p.relnamespace = current_schema()::regnamespace`,
      [LOG_TABLES],
    );
    return rows
      .map((row) => ({ table: row.table, name: row.name, ...parseBound(row.bound), detachPending: row.detach_pending }))
      .sort((a, b) => (a.from?.getTime() ?? -Infinity) - (b.from?.getTime() ?? -Infinity));
  }

  /**
   * Detaches and drops each partition of `table` that holds nothing newer than `cutoff`. Detaching CONCURRENTLY
   * (on a server) waits for the queries that use the partition and blocks none; the embedded database, one
   * session, detaches at once. Returns the names dropped.
   */
  async dropBefore(sql: Sql, table: LogTable, cutoff: Date, concurrently: boolean): Promise<string[]> {
    const dropped: string[] = [];
    for (const partition of await this.list(sql)) {
      if (partition.table !== table || partition.to > cutoff) continue;
      if (partition.detachPending) await sql(`ALTER TABLE ${table} DETACH PARTITION ${partition.name} FINALIZE`);
      else await sql(`ALTER TABLE ${table} DETACH PARTITION ${partition.name}${concurrently ? ' CONCURRENTLY' : ''}`);
      await sql(`DROP TABLE ${partition.name}`);
      dropped.push(partition.name);
    }
    // A partition detached by a run that stopped before dropping it.
    const leftovers = await sql<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c WHERE c.relkind = 'r' AND c.relname LIKE $1 AND c.relnamespace = current_schema()::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid)`,
      [`${table}\\_p%`],
    );
    for (const { name } of leftovers) {
      const day = dayOfName(table, name);
      if (day && day.getTime() + DAY_MS <= cutoff.getTime()) {
        await sql(`DROP TABLE ${name}`);
        dropped.push(name);
      }
    }
    return dropped;
  }
}

function startOfDay(time: Date): Date {
  return new Date(Math.floor(time.getTime() / DAY_MS) * DAY_MS);
}

function partitionName(table: LogTable, day: Date): string {
  return `${table}_p${day.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

function dayOfName(table: LogTable, name: string): Date | undefined {
  const match = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})$`).exec(name);
  return match ? new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`) : undefined;
}

/** `FOR VALUES FROM ('2026-11-27 00:00:00+00') TO ('2026-11-28 00:00:00+00')`, as written with TimeZone UTC. */
function parseBound(bound: string): { from: Date | null; to: Date } {
  const match = /FROM \((.+)\) TO \((.+)\)/.exec(bound);
  if (!match) throw new Error(`unexpected partition bound: ${bound}`);
  const time = (literal: string) => new Date(literal.replace(/^'|'$/g, '').replace(' ', 'T').replace(/\+00$/, 'Z'));
  return { from: match[1] === 'MINVALUE' ? null : time(match[1]), to: time(match[2]) };
}
