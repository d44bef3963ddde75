import { INestApplication } from '@nestjs/common';
import { ExecutionLogMaintenance, MaintenanceReport } from '../../src/executions/execution-log-maintenance';

/**
 * One maintenance run of `app` that really ran. On a shared PostgreSQL every jest worker's app is a replica of
 * the same database, and each runs the maintenance when it starts: a run that finds another replica holding the
 * lock skips (as it should), so a test that needs the work done waits for its turn.
 */
export async function runMaintenance(app: INestApplication, force = false, timeoutMs = 30_000): Promise<MaintenanceReport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = await app.get(ExecutionLogMaintenance).run(force);
    if (report.ran || Date.now() >= deadline) return report;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
