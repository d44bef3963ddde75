import { AppConfig } from '../config/app-config';
import { DatabaseSettings } from '../database/database-settings';
import { Metrics } from '../metrics/metrics';
import { AsyncExecutionWorker } from './async-execution-worker';
import { ExecutionJobs, RETRY_DELAY_MS, TakenJob } from './execution-jobs';
import { ExecutionsService } from './executions.service';

describe('AsyncExecutionWorker', () => {
  const job: TakenJob = { id: 'job-1', data: { tenantId: 't', executionId: 'e', createdAt: new Date(0).toISOString(), actionName: 'a', parameters: '{}' }, retryCount: 0 };

  /** A worker on the embedded database (lease 60 s: idle polls every 15 s) whose first run of `job` fails to store. */
  function worker() {
    let due: TakenJob[] = [job];
    const jobs = {
      start: jest.fn(async () => undefined),
      stop: jest.fn(async () => undefined),
      whenWoken: jest.fn(),
      take: jest.fn(async () => due.splice(0)),
      takeAbandoned: jest.fn(async () => []),
      done: jest.fn(async () => undefined),
      // pg-boss makes the job due again after its retry delay.
      failed: jest.fn(async () => void setTimeout(() => (due = [job]), RETRY_DELAY_MS)),
    };
    const runAccepted = jest.fn().mockRejectedValueOnce(new Error('the database went away')).mockResolvedValue(true);
    const config = { asyncExecutions: { concurrency: 2, leaseMs: 60_000 } } as unknown as AppConfig;
    const metrics = { asyncExecutionsRunning: { set: jest.fn() } } as unknown as Metrics;
    const settings = { embedded: true } as DatabaseSettings;
    const subject = new AsyncExecutionWorker(jobs as unknown as ExecutionJobs, { runAccepted } as unknown as ExecutionsService, config, metrics, settings);
    return { subject, jobs, runAccepted };
  }

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('asks for a failed run again when its retry is due, not at the next idle poll', async () => {
    const { subject, jobs, runAccepted } = worker();
    await subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10);
    expect(runAccepted).toHaveBeenCalledTimes(1);
    expect(jobs.failed).toHaveBeenCalledWith('job-1', expect.any(Error));

    // Well before the idle poll (15 s on the embedded database with a 60 s lease), just after the retry's delay.
    await jest.advanceTimersByTimeAsync(RETRY_DELAY_MS + 200);
    expect(runAccepted).toHaveBeenCalledTimes(2);
    expect(jobs.done).toHaveBeenCalledWith('job-1');
    await subject.beforeApplicationShutdown();
  });

  it('polls the embedded database when idle only as often as the upkeep puts leases back', async () => {
    const { subject, jobs } = worker();
    await subject.onApplicationBootstrap();
    // The start's poll, the failed run and its retry are over after 2 s.
    await jest.advanceTimersByTimeAsync(2_000);
    const asked = [jobs.take.mock.calls.length, jobs.takeAbandoned.mock.calls.length];
    await jest.advanceTimersByTimeAsync(12_900);
    expect([jobs.take.mock.calls.length, jobs.takeAbandoned.mock.calls.length]).toEqual(asked);
    await jest.advanceTimersByTimeAsync(200);
    expect([jobs.take.mock.calls.length, jobs.takeAbandoned.mock.calls.length]).toEqual([asked[0] + 1, asked[1] + 1]);
    await subject.beforeApplicationShutdown();
  });
});
