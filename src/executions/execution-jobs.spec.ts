import { AppConfig } from '../config/app-config';
import { DatabasePool } from '../database/database-pool';
import { ExecutionJobs } from './execution-jobs';

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
});
