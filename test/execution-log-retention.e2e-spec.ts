import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { Clock } from '../src/common/clock';
import { LogPartitionsRepository, LogTable } from '../src/executions/log-partitions.repository';
import { migrate, testDatabase } from './support/database';
import { runMaintenance } from './support/maintenance';
import { startTestApp, TestApp } from './support/test-app';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const RETENTION_DAYS = 30;
const PAYLOAD_RETENTION_DAYS = 7;
const HOURLY_STATS_DAYS = 3;
/** The own database's zone (PostgreSQL): its midnight is no UTC hour, and it has no daylight saving. */
const ZONE = 'Asia/Kathmandu';

/** The UTC midnight a time falls after, computed here rather than by the code under test. */
const startOfDay = (time: Date | number) => new Date(Math.floor(new Date(time).getTime() / DAY_MS) * DAY_MS);

/** The test's "now": real time until a case sets it. */
class PinnedClock extends Clock {
  at?: Date;
  override now(): Date {
    return this.at ? new Date(this.at) : new Date();
  }
}

/**
 * The retention boundary of the delivery log's upkeep (docs/operations.md, "The delivery log's upkeep"): a table's partition is
 * dropped once it holds nothing newer than the cutoff (now minus the table's retention), so the day that holds the
 * cutoff stays whole and the day before it goes. Each case puts rows and payloads (and rollups) on both sides of a
 * UTC midnight next to the cutoff and counts what is left after a maintenance run, the clock pinned.
 *
 * The log's first partition (the table before partitioning) reaches to the day after the migration, so a cutoff
 * with day partitions on both sides lies days ahead of today, and the run drops everything before it: on
 * PostgreSQL this file therefore works in a database of its own (its time zone not UTC); the embedded database
 * is this jest worker's alone, and gets its first partition back at the end.
 */
describe('the delivery log retention boundary', () => {
  const clock = new PinnedClock();
  let testApp: TestApp;
  let dataSource: DataSource;
  let partitions: LogPartitionsRepository;
  let ownDatabase: { server: string; name: string } | undefined;

  beforeAll(async () => {
    let url = testDatabase().url;
    if (!testDatabase().embedded) {
      const name = `agw_retention_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      ownDatabase = { server: url, name };
      await onServer(url, [`CREATE DATABASE ${name}`, `ALTER DATABASE ${name} SET TimeZone = '${ZONE}'`]);
      const own = new URL(url);
      own.pathname = `/${name}`;
      url = own.toString();
      await migrate(url);
    }
    testApp = await startTestApp({
      env: { DATABASE_URL: url, EXECUTION_RETENTION_DAYS: String(RETENTION_DAYS), EXECUTION_PAYLOAD_RETENTION_DAYS: String(PAYLOAD_RETENTION_DAYS) },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    dataSource = testApp.app.get(DataSource);
    partitions = testApp.app.get(LogPartitionsRepository);
  });

  afterAll(async () => {
    clock.at = undefined;
    try {
      if (!ownDatabase) await restoreWorkerDatabase();
    } finally {
      await testApp?.close();
      if (ownDatabase) await onServer(ownDatabase.server, [`DROP DATABASE IF EXISTS ${ownDatabase.name} WITH (FORCE)`]);
    }
  });

  /** The embedded database outlives this file: its log gets a first partition for every time before those left, as the migration made it, and today's. */
  async function restoreWorkerDatabase(): Promise<void> {
    const left = (await partitions.withConnection((sql) => partitions.list(sql))).filter((partition) => partition.table === 'executions');
    if (!left.some((partition) => partition.from === null)) {
      await dataSource.query(`CREATE TABLE executions_legacy PARTITION OF executions FOR VALUES FROM (MINVALUE) TO ('${left[0].from!.toISOString()}')`);
    }
    await partitions.ensure(new Date(Date.now() - DAY_MS), new Date(Date.now() + 7 * DAY_MS));
    await dataSource.query(`DELETE FROM execution_log_maintenance`);
  }

  /** The first day each case uses: the log's first partition ends the day after the migration, today at the latest. */
  let nextDay = startOfDay(Date.now()).getTime() + 3 * DAY_MS;

  interface Edge {
    table: LogTable;
    /** Rows at these times must be there after the run... */
    kept: Date[];
    /** ...and these gone. */
    dropped: Date[];
  }

  /**
   * The rows of one case: for each table, its cutoff from `now`, one row just inside retention (`inside` after
   * the cutoff), one in the cutoff's day but older than the cutoff (where there is room: kept, the day is whole),
   * and one just before that day's UTC midnight (dropped).
   */
  function edges(now: Date, inside: number): Edge[] {
    const cutoff = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const around = (table: LogTable, days: number, align: (time: Date) => Date, before: number): Edge => {
      const at = cutoff(days);
      const day = startOfDay(at);
      const kept = [align(new Date(at.getTime() + inside))];
      if (at.getTime() > day.getTime() && kept[0].getTime() !== day.getTime()) kept.push(day);
      return { table, kept, dropped: [new Date(day.getTime() - before)] };
    };
    const exact = (time: Date) => time;
    const hour = (time: Date) => new Date(Math.floor(time.getTime() / HOUR_MS) * HOUR_MS);
    return [
      around('executions', RETENTION_DAYS, exact, 1),
      around('execution_payloads', PAYLOAD_RETENTION_DAYS, exact, 1),
      around('execution_stats_hourly', HOURLY_STATS_DAYS, hour, HOUR_MS),
      around('execution_stats_daily', RETENTION_DAYS, startOfDay, DAY_MS),
    ];
  }

  async function seed(tenantId: string, table: LogTable, times: Date[]): Promise<void> {
    await partitions.ensure(new Date(Math.min(...times.map(Number))), new Date(Math.max(...times.map(Number))));
    for (const time of times) {
      if (table === 'executions') {
        await dataSource.query(
          `INSERT INTO executions (id, tenant_id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, created_at, payload)
           VALUES ($1, $2, $3, 'edge', 'succeeded', 200, 'ok', '', 5, 1, '[]', $4, 'kept')`,
          [randomUUID(), tenantId, randomUUID(), time],
        );
      } else if (table === 'execution_payloads') {
        await dataSource.query(`INSERT INTO execution_payloads (execution_id, tenant_id, created_at, request, attempts) VALUES ($1, $2, $3, '{}', '[]')`, [
          randomUUID(),
          tenantId,
          time,
        ]);
      } else {
        await dataSource.query(
          `INSERT INTO ${table} (tenant_id, action_id, period_start, executions, succeeded, failed, duration_histogram) VALUES ($1, $2, $3, 1, 1, 0, '{1}')`,
          [tenantId, randomUUID(), time],
        );
      }
    }
  }

  /** The tenant's rows of `table` at each of `times`, counted in the database. */
  async function countAt(tenantId: string, table: LogTable, times: Date[]): Promise<number[]> {
    const column = table.startsWith('execution_stats') ? 'period_start' : 'created_at';
    const rows: Array<{ at: Date; n: number }> = await dataSource.query(
      `SELECT ${column} AS at, count(*)::int AS n FROM ${table} WHERE tenant_id = $1 GROUP BY ${column}`,
      [tenantId],
    );
    return times.map((time) => rows.find((row) => row.at.getTime() === time.getTime())?.n ?? 0);
  }

  const cases: Array<[title: string, offset: number, inside: number]> = [
    ['a minute after a UTC midnight: the cutoff\'s day is kept whole, the rows a second either side of its midnight split', 60_000, 1_000],
    ['exactly at a UTC midnight: a row at the cutoff is kept, one a millisecond older goes with its day', 0, 0],
    ['a second before a UTC midnight: a row half a second inside retention keeps its day', DAY_MS - 1_000, 500],
  ];

  it.each(cases)('%s', async (_title, offset, inside) => {
    const day = nextDay;
    nextDay += 2 * DAY_MS;
    const now = new Date(day + RETENTION_DAYS * DAY_MS + offset);
    const tenantId = randomUUID();
    const cases = edges(now, inside);
    for (const edge of cases) await seed(tenantId, edge.table, [...edge.kept, ...edge.dropped]);
    for (const edge of cases) {
      expect(await countAt(tenantId, edge.table, [...edge.kept, ...edge.dropped])).toEqual([...edge.kept, ...edge.dropped].map(() => 1));
    }

    clock.at = now;
    const report = await runMaintenance(testApp.app, true);
    expect(report.ran).toBe(true);

    for (const edge of cases) {
      const name = (time: Date) => `${edge.table}_p${startOfDay(time).toISOString().slice(0, 10).replaceAll('-', '')}`;
      expect({ table: edge.table, kept: await countAt(tenantId, edge.table, edge.kept), dropped: await countAt(tenantId, edge.table, edge.dropped) }).toEqual({
        table: edge.table,
        kept: edge.kept.map(() => 1),
        dropped: edge.dropped.map(() => 0),
      });
      expect(report.dropped).toContain(name(edge.dropped[0]));
      expect(report.dropped).not.toContain(name(edge.kept[0]));
    }
  });
});

async function onServer(url: string, statements: string[]): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
