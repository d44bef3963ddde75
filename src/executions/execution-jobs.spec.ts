import { AppConfig } from '../config/app-config';
import { DatabasePool } from '../database/database-pool';
import { ExecutionJobs, idlePollMs, maintenanceIntervalSeconds } from './execution-jobs';

describe('ExecutionJobs', () => {
  it("runs the job queue's own statements beside the read model, never as statements the read model counts", async () => {
    const pool = {
      queryBesideReadModel: jest.fn(async () => [{ polled: true }]),
      query: jest.fn(async () => {
        throw new Error('a job queue statement went to the counted pool');
      }),
    };
    const config = { runMigrations: false, asyncExecutions: { leaseMs: 60_000, concurrency: 1 } } as unknown as AppConfig;
    const jobs = new ExecutionJobs(config, pool as unknown as DatabasePool);

    // pg-boss reaches the database only through the adapter it was given (its polls, its upkeep, its sends).
    const result = await jobs['boss'].getDb().executeSql('SELECT 1 AS polled', [7]);

    expect(result.rows).toEqual([{ polled: true }]);
    expect(pool.queryBesideReadModel).toHaveBeenCalledTimes(1);
    expect(pool.queryBesideReadModel.mock.calls[0]).toEqual([expect.objectContaining({ text: 'SELECT 1 AS polled' }), [7]]);
    expect(pool.query).not.toHaveBeenCalled();
  });

  it('puts expired leases back every quarter of the lease, from 1 s to 60 s', () => {
    expect([4_000, 11_000, 60_000, 300_000, 3_600_000].map(maintenanceIntervalSeconds)).toEqual([1, 3, 15, 60, 60]);
  });

  it('polls every second on a PostgreSQL server, and on the embedded database only as often as leases are put back', () => {
    // Other replicas accept on a server; on the embedded database only this process does, and its accepts wake it.
    expect([4_000, 60_000, 3_600_000].map((lease) => idlePollMs(lease, false))).toEqual([1_000, 1_000, 1_000]);
    expect([4_000, 11_000, 60_000, 3_600_000].map((lease) => idlePollMs(lease, true))).toEqual([1_000, 3_000, 15_000, 60_000]);
  });
});
