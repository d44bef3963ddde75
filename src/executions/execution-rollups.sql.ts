// The rollups of the delivery log (ExecutionRollupsRepository): the statistics' reads and the counts' upsert.
import { logWrite, readOfEveryPartition } from './executions.sql';

/** A rollup row as read: counts and the duration histogram of one action (or the tenant's total) over one period. */
export interface StatsDbRow {
  action_id: string;
  period_start: Date;
  executions: number;
  succeeded: number;
  failed: number;
  duration_histogram: number[];
}

/**
 * The histograms are read as JSON: pg parses an integer[] character by character (postgres-array), short-lived
 * strings that were the largest allocation of a query run (docs/benchmarks.md, "The statistics: histograms as
 * JSON, both series in one statement"); JSON.parse reads the same numbers natively.
 */
const seriesOf = (period: 'hour' | 'day', table: string, since: string) =>
  `SELECT '${period}'::text AS period, action_id, period_start, executions, succeeded, failed, to_json(duration_histogram) AS duration_histogram ` +
  `FROM ${table} WHERE tenant_id = $1 AND action_id = $2 AND period_start >= ${since}`;
/** Both series in one statement: one round trip and one connection of the read pool, where two took both. */
export const SERIES_SQL = readOfEveryPartition<[actionId: string, hoursFrom: Date, daysFrom: Date], StatsDbRow & { period: 'hour' | 'day' }>(
  `${seriesOf('hour', 'execution_stats_hourly', '$3')} UNION ALL ${seriesOf('day', 'execution_stats_daily', '$4')} ORDER BY period, period_start`,
);
export const STATS_PER_ACTION_SQL = readOfEveryPartition<[tenantTotal: string, since: Date], StatsDbRow>(
  `SELECT action_id, min(period_start) AS period_start, sum(executions)::int AS executions, sum(succeeded)::int AS succeeded, ` +
    `sum(failed)::int AS failed, to_json(execution_histogram_sum(duration_histogram)) AS duration_histogram ` +
    `FROM execution_stats_hourly WHERE tenant_id = $1 AND action_id <> $2 AND period_start >= $3 GROUP BY action_id`,
);

const STATS_COLUMNS = 'tenant_id, action_id, period_start, executions, succeeded, failed, duration_histogram';
/** The upsert's parameters, one array a column; the histogram goes as its array literal: unnest would flatten an array of arrays. */
export const STATS_TYPES = ['uuid', 'uuid', 'timestamptz', 'integer', 'integer', 'integer', 'text'];
const unnest = (types: string[], from: number) => `unnest(${types.map((type, index) => `$${from + index}::${type}[]`).join(', ')})`;

/** The rollup rows from `$from` on, in the order given (WITH ORDINALITY), so that every write locks rows in one order. */
function upsertStats(table: string, from: number): string {
  return (
    `INSERT INTO ${table} (${STATS_COLUMNS}) SELECT tenant_id, action_id, period_start, executions, succeeded, failed, histogram::integer[] ` +
    `FROM ${unnest(STATS_TYPES, from)} WITH ORDINALITY AS r(tenant_id, action_id, period_start, executions, succeeded, failed, histogram, n) ORDER BY n ` +
    `ON CONFLICT (tenant_id, action_id, period_start) DO UPDATE SET ` +
    `executions = ${table}.executions + EXCLUDED.executions, succeeded = ${table}.succeeded + EXCLUDED.succeeded, ` +
    `failed = ${table}.failed + EXCLUDED.failed, ` +
    `duration_histogram = execution_histogram_add(${table}.duration_histogram, EXCLUDED.duration_histogram)`
  );
}

/** The counts into the hourly rows (the first STATS_TYPES.length parameters), then into the daily ones. */
export const ROLLUPS_SQL = logWrite(
  'agw_log_rollups',
  'the counts of executions of any tenants are written together; each row carries its own',
  `WITH h AS (${upsertStats('execution_stats_hourly', 1)}) ${upsertStats('execution_stats_daily', STATS_TYPES.length + 1)}`,
);
