import { DataSource } from 'typeorm';
import { DURATION_BUCKETS, durationBucket } from '../../src/executions/duration-histogram';
import { TENANT_TOTAL } from '../../src/executions/rollup-buffer';
import { LogPartitionsRepository } from '../../src/executions/log-partitions.repository';
import { TestApp } from './test-app';

/**
 * Rows written straight into the delivery log: `count` executions of the action, one a second back from `newest`,
 * with no payload and no rollup (lists and lookups only), their day partitions made first.
 */
export async function seedExecutions(
  testApp: TestApp,
  tenantId: string,
  action: { id: string; name: string },
  count: number,
  newest: Date,
  status = 'succeeded',
): Promise<void> {
  await testApp.app.get(LogPartitionsRepository).ensure(new Date(newest.getTime() - count * 1000), newest);
  await testApp.app.get(DataSource).query(
    `INSERT INTO executions (id, tenant_id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, created_at)
     SELECT gen_random_uuid(), $1, $2, $3, $4, 200, 'seeded ' || n, '', 5, 1, '[]', $5::timestamptz - n * interval '1 second'
     FROM generate_series(0, $6 - 1) AS n`,
    [tenantId, action.id, action.name, status, newest, count],
  );
}

/** One period of an action's numbers, as the rollups keep them. */
export interface RollupPoint {
  start: Date;
  succeeded: number;
  failed: number;
  /** The duration of each execution, in ms (their histogram gives p50 and p95). */
  durations: number[];
}

/**
 * Rollup rows written straight into `execution_stats_hourly` or `_daily`: the action's and the tenant's total, added
 * to what is there, as storing executions at those times would have counted them (the charts' history).
 */
export async function seedRollups(testApp: TestApp, tenantId: string, actionId: string, period: 'hourly' | 'daily', points: RollupPoint[]): Promise<void> {
  const starts = points.map((point) => point.start.getTime());
  await testApp.app.get(LogPartitionsRepository).ensure(new Date(Math.min(...starts)), new Date(Math.max(...starts)));
  const table = `execution_stats_${period}`;
  for (const point of points) {
    const histogram = new Array<number>(DURATION_BUCKETS).fill(0);
    for (const duration of point.durations) histogram[durationBucket(duration)] += 1;
    for (const owner of [actionId, TENANT_TOTAL]) {
      await testApp.app.get(DataSource).query(
        `INSERT INTO ${table} (tenant_id, action_id, period_start, executions, succeeded, failed, duration_histogram) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (tenant_id, action_id, period_start) DO UPDATE SET executions = ${table}.executions + EXCLUDED.executions,
           succeeded = ${table}.succeeded + EXCLUDED.succeeded, failed = ${table}.failed + EXCLUDED.failed,
           duration_histogram = execution_histogram_add(${table}.duration_histogram, EXCLUDED.duration_histogram)`,
        [tenantId, owner, point.start, point.succeeded + point.failed, point.succeeded, point.failed, `{${histogram.join(',')}}`],
      );
    }
  }
}
