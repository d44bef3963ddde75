import type { EmbeddedPostgres } from '../../src/database/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  await Promise.all(((globalThis as { agwTestDatabases?: EmbeddedPostgres[] }).agwTestDatabases ?? []).map((database) => database.stop()));
}
