import type { Config } from 'jest';
import type { EmbeddedPostgres } from '../../src/database/embedded-postgres';
import { eachWorkerDatabase } from './global-setup';

export default async function globalTeardown(config: Config & { maxWorkers: number }): Promise<void> {
  if (process.env.DATABASE_URL) {
    // The per-worker databases of global-setup.ts; any connection a test left open is closed with them.
    await eachWorkerDatabase(process.env.DATABASE_URL, Math.max(1, config.maxWorkers), (name) => `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    return;
  }
  await Promise.all(((globalThis as { agwTestDatabases?: EmbeddedPostgres[] }).agwTestDatabases ?? []).map((database) => database.stop()));
}
