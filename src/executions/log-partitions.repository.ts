import { Injectable, Logger } from '@nestjs/common';
import { DatabaseSettings } from '../database/database-settings';
import { DedicatedConnection } from '../database/dedicated-connection';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import {
  ATTACH_PARTITION_DDL,
  CREATE_LOCK_SQL,
  CREATE_PARTITION_DDL,
  DETACH_CONCURRENTLY_DDL,
  DETACH_PARTITION_DDL,
  DETACHED_SQL,
  DROP_PARTITION_DDL,
  FINALIZE_DETACH_DDL,
  LOCK_TIMEOUT_SQL,
  LOG_TABLES,
  LogTable,
  PARTITIONS_SQL,
  UTC_SQL,
} from './log-partitions.sql';

export type { LogTable };

const DAY_MS = 86_400_000;

/** A partition and the range of its table it holds; `from` null is MINVALUE (the table the log was before partitioning). */
interface Partition {
  table: LogTable;
  name: string;
  from: Date | null;
  to: Date;
  /** Left half-detached by a DETACH ... CONCURRENTLY that was interrupted. */
  detachPending: boolean;
}

/**
 * The partitions of the delivery log's tables: one per UTC day, named `<table>_pYYYYMMDD`. New ones are created
 * ahead (empty, then ATTACHed, which takes only a SHARE UPDATE EXCLUSIVE lock on the parent: reads and writes go
 * on), old ones detached (CONCURRENTLY on a PostgreSQL server) and dropped: retention never deletes rows one by one.
 * Every statement that waits for a lock gives up after a second (`lock_timeout`), so that it never queues
 * requests behind it; the next run tries again. The statements are in log-partitions.sql.ts; the upkeep's
 * methods take its session last (`withConnection`).
 */
@Injectable()
export class LogPartitionsRepository {
  private readonly logger = new Logger('ExecutionLog');

  constructor(private readonly settings: DatabaseSettings) {}

  /** Runs `work` on a connection of its own (the upkeep's), closed afterwards. */
  @GenerateSql({ params: [async () => undefined] })
  withConnection<T>(work: (session: DedicatedConnection) => Promise<T>): Promise<T> {
    return DedicatedConnection.open(this.settings, 'action-gateway log maintenance', async (session) => {
      await session.query(LOCK_TIMEOUT_SQL);
      await session.query(UTC_SQL);
      return work(session);
    });
  }

  /**
   * Makes sure every table of the log has a partition for each UTC day from `from` to `to` (inclusive). Replicas
   * doing it at once take turns (an advisory lock), and a day some partition already covers is left alone.
   */
  // Today's partitions stand (the upkeep makes them as the service starts): the example creates none.
  @GenerateSql({ name: 'days whose partitions stand', params: [new Date(), new Date()] })
  async ensure(from: Date, to: Date): Promise<number> {
    return this.withConnection((session) => this.ensureOn(from, to, session));
  }

  /** `ensure`, on the upkeep's `session`. */
  @GenerateSql({ name: 'days whose partitions stand', params: [new Date(), new Date(), DummyValue.CONNECTION] })
  async ensureOn(from: Date, to: Date, session: DedicatedConnection): Promise<number> {
    const created = await session.transaction(async () => {
      let made = 0;
      await session.query(CREATE_LOCK_SQL);
      const existing = await this.list(session);
      for (const table of LOG_TABLES) {
        const ranges = existing.filter((partition) => partition.table === table);
        for (let day = startOfDay(from); day.getTime() <= to.getTime(); day = new Date(day.getTime() + DAY_MS)) {
          const end = new Date(day.getTime() + DAY_MS);
          if (ranges.some((partition) => (partition.from === null || partition.from < end) && partition.to > day)) continue;
          const partition = partitionName(table, day);
          await session.query(CREATE_PARTITION_DDL.with({ partition, table }));
          await session.query(ATTACH_PARTITION_DDL.with({ table, partition, from: day.toISOString(), to: end.toISOString() }));
          made += 1;
        }
      }
      return made;
    });
    if (created > 0) this.logger.log({ created }, 'created partitions of the delivery log');
    return created;
  }

  /** Every partition of the log's tables, oldest first. */
  @GenerateSql({ params: [DummyValue.CONNECTION] })
  async list(session: DedicatedConnection): Promise<Partition[]> {
    const rows = await session.query(PARTITIONS_SQL, [LOG_TABLES]);
    return rows
      .map((row) => ({ table: row.table, name: row.name, ...parseBound(row.bound), detachPending: row.detach_pending }))
      .sort((a, b) => (a.from?.getTime() ?? -Infinity) - (b.from?.getTime() ?? -Infinity));
  }

  /**
   * Detaches and drops each partition of `table` that holds nothing newer than `cutoff`. Detaching CONCURRENTLY
   * (on a server) waits for the queries that use the partition and blocks none; the embedded database, one
   * session, detaches at once. Returns the names dropped.
   */
  // A cutoff before every partition: the example drops nothing.
  @GenerateSql({ name: 'nothing past retention', params: ['execution_stats_hourly', new Date(0), true, DummyValue.CONNECTION] })
  async dropBefore(table: LogTable, cutoff: Date, concurrently: boolean, session: DedicatedConnection): Promise<string[]> {
    const dropped: string[] = [];
    for (const { table: of, name, to, detachPending } of await this.list(session)) {
      if (of !== table || to > cutoff) continue;
      const detach = detachPending ? FINALIZE_DETACH_DDL : concurrently ? DETACH_CONCURRENTLY_DDL : DETACH_PARTITION_DDL;
      await session.query(detach.with({ table, name }));
      await session.query(DROP_PARTITION_DDL.with({ name }));
      dropped.push(name);
    }
    // A partition detached by a run that stopped before dropping it.
    for (const { name } of await session.query(DETACHED_SQL, [`${table}\\_p%`])) {
      const day = dayOfName(table, name);
      if (day && day.getTime() + DAY_MS <= cutoff.getTime()) {
        await session.query(DROP_PARTITION_DDL.with({ name }));
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
