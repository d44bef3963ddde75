import type { Config } from 'jest';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres';
import { migrate } from './database';

/**
 * With DATABASE_URL (CI's PostgreSQL), migrate it once for all workers. Otherwise start one in-memory embedded
 * PostgreSQL per jest worker (PGlite's multiplexer serializes a single connection at a time, so workers must
 * not share one); they run here because PGlite cannot load inside jest's module sandbox.
 */
export default async function globalSetup(config: Config & { maxWorkers: number }): Promise<void> {
  if (process.env.DATABASE_URL) {
    await migrate(process.env.DATABASE_URL);
    return;
  }
  const databases = await Promise.all(Array.from({ length: Math.max(1, config.maxWorkers) }, () => EmbeddedPostgres.start()));
  await Promise.all(databases.map((database) => migrate(database.url)));
  (globalThis as { agwTestDatabases?: EmbeddedPostgres[] }).agwTestDatabases = databases;
  process.env.AGW_TEST_DATABASE_URLS = JSON.stringify(databases.map((database) => database.url));
}
