import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../src/database/schema';

/** Applies the migrations, as the app does on start. */
export async function migrate(url: string): Promise<void> {
  const dataSource = new DataSource({ type: 'postgres', url, migrations: MIGRATIONS });
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}

/**
 * The database the tests of this worker use, made and migrated by the global setup: its own database beside
 * DATABASE_URL's when that is given (CI's PostgreSQL), else its own embedded one.
 */
export function testDatabase(): { url: string; embedded: boolean } {
  const urls = JSON.parse(process.env.AGW_TEST_DATABASE_URLS ?? '[]') as string[];
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  const url = urls[(worker - 1) % urls.length];
  if (!url) throw new Error('no test database: run the tests through jest (npm test)');
  return { url, embedded: !process.env.DATABASE_URL };
}
