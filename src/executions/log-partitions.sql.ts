// The statements of the delivery log's partitions (LogPartitionsRepository), run on the upkeep's own connection.
// None is about one tenant: a partition holds one day of every tenant's rows.
import { globalStatement, Statement } from '../database/statement';

/** The tables of the delivery log, each partitioned by day on its time column. */
export const LOG_TABLES = ['executions', 'execution_payloads', 'execution_stats_hourly', 'execution_stats_daily'] as const;
export type LogTable = (typeof LOG_TABLES)[number];

/** Advisory lock key (a number the service uses for nothing else) of the creation of partitions. */
const CREATE_LOCK = 0x61677701;
const PARTITIONS = 'partitions hold every tenant\'s rows of a day';

/** The upkeep's connection: no statement waits more than a second for a lock (the next run tries again). */
export const LOCK_TIMEOUT_SQL = globalStatement(PARTITIONS, `SET lock_timeout = '1s'`);
/** ...and partition bounds are written in UTC (parseBound reads them so). */
export const UTC_SQL = globalStatement(PARTITIONS, `SET TimeZone = 'UTC'`);
/** Replicas creating partitions at once take turns, until the transaction ends. */
export const CREATE_LOCK_SQL = globalStatement(PARTITIONS, `SELECT pg_advisory_xact_lock(${CREATE_LOCK})`);

/** Every partition of the log's tables, with its bound as PostgreSQL writes it. */
export const PARTITIONS_SQL = globalStatement<[tables: readonly LogTable[]], { table: LogTable; name: string; bound: string; detach_pending: boolean }>(
  PARTITIONS,
  `SELECT p.relname AS table, c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound, i.inhdetachpending AS detach_pending
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
       WHERE p.relname = ANY($1) AND p.relnamespace = c.relnamespace AND p.relnamespace = current_schema()::regnamespace`,
);

/** Tables named like a partition (`$1`, a LIKE pattern) that are no partition: detached by a run that stopped before dropping them. */
export const DETACHED_SQL = globalStatement<[pattern: string], { name: string }>(
  PARTITIONS,
  `SELECT c.relname AS name FROM pg_class c WHERE c.relkind = 'r' AND c.relname LIKE $1 AND c.relnamespace = current_schema()::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid)`,
);

/**
 * What may fill a slot of a DDL template: a table of the log; a new partition's name (`<table>_pYYYYMMDD`); a
 * partition's name as the catalog gives it (`name`: the first partition of `executions` is `executions_legacy`,
 * the table it was before partitioning), a plain identifier, which needs no quotes; a bound (a UTC midnight as
 * Date.toISOString writes it). Anything else is refused before a statement is made.
 */
const SLOTS = {
  table: new RegExp(`^(${LOG_TABLES.join('|')})$`),
  partition: new RegExp(`^(${LOG_TABLES.join('|')})_p\\d{8}$`),
  name: /^[a-z_][a-z0-9_]{0,62}$/,
  from: /^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/,
  to: /^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/,
} as const;
type Slot = keyof typeof SLOTS;

/**
 * A DDL statement of the partitions, declared once here. DDL names tables, which no parameter (`$1`) can stand
 * for, and a partition's name is computed from its table and day; so the text is a template whose `{slot}`s
 * `with` fills only with values each slot's pattern (SLOTS) accepts, and the bounds, which an ALTER TABLE takes
 * as literals only, likewise. The statement it makes is about no tenant, as the others of this file.
 */
export class PartitionDdl<Slots extends Slot> {
  constructor(readonly template: string) {
    const unknown = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).filter((slot) => !(slot in SLOTS));
    if (unknown.length > 0) throw new Error(`A partition's DDL fills only ${Object.keys(SLOTS).join(', ')}: ${template}`);
  }

  with(values: Record<Slots, string>): Statement<[]> {
    const text = this.template.replace(/\{(\w+)\}/g, (_, slot: Slot) => {
      const value = (values as Record<Slot, string | undefined>)[slot];
      if (value === undefined || !SLOTS[slot].test(value)) throw new Error(`Not a ${slot} of the delivery log's partitions: ${String(value)}`);
      return value;
    });
    return globalStatement(PARTITIONS, text);
  }
}

/** A new partition, empty, made like its table... */
export const CREATE_PARTITION_DDL = new PartitionDdl<'partition' | 'table'>('CREATE TABLE {partition} (LIKE {table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)');
/** ...then attached for its day (a SHARE UPDATE EXCLUSIVE lock on the table: reads and writes go on). */
export const ATTACH_PARTITION_DDL = new PartitionDdl<'table' | 'partition' | 'from' | 'to'>("ALTER TABLE {table} ATTACH PARTITION {partition} FOR VALUES FROM ('{from}') TO ('{to}')");
/** A partition past retention, detached at once (the embedded database: one session)... */
export const DETACH_PARTITION_DDL = new PartitionDdl<'table' | 'name'>('ALTER TABLE {table} DETACH PARTITION {name}');
/** ...or without blocking the queries that use it (a server)... */
export const DETACH_CONCURRENTLY_DDL = new PartitionDdl<'table' | 'name'>('ALTER TABLE {table} DETACH PARTITION {name} CONCURRENTLY');
/** ...or, left half-detached by an interrupted DETACH ... CONCURRENTLY, finished... */
export const FINALIZE_DETACH_DDL = new PartitionDdl<'table' | 'name'>('ALTER TABLE {table} DETACH PARTITION {name} FINALIZE');
/** ...then dropped. */
export const DROP_PARTITION_DDL = new PartitionDdl<'name'>('DROP TABLE {name}');
