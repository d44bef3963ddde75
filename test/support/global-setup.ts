import type { Config } from 'jest';
import { Client } from 'pg';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres';
import { migrate } from './database';

/**
 * One database per jest worker, migrated here. With DATABASE_URL (CI's PostgreSQL), one database per worker is
 * made beside it on that server: workers sharing one would share its job queue, and an app of one worker could
 * take another's asynchronous execution and run it with its own keys and settings. Otherwise one in-memory
 * embedded PostgreSQL per worker (PGlite's multiplexer serializes a single connection at a time); they run here
 * because PGlite cannot load inside jest's module sandbox. global-teardown.ts drops or stops them.
 */
export default async function globalSetup(config: Config & { maxWorkers: number }): Promise<void> {
  const workers = Math.max(1, config.maxWorkers);
  if (process.env.DATABASE_URL) {
    const urls = await createWorkerDatabases(process.env.DATABASE_URL, workers);
    await Promise.all(urls.map(migrate));
    process.env.AGW_TEST_DATABASE_URLS = JSON.stringify(urls);
    return;
  }
  const databases = await Promise.all(Array.from({ length: workers }, () => EmbeddedPostgres.start()));
  await Promise.all(databases.map((database) => migrate(database.url)));
  (globalThis as { agwTestDatabases?: EmbeddedPostgres[] }).agwTestDatabases = databases;
  process.env.AGW_TEST_DATABASE_URLS = JSON.stringify(databases.map((database) => database.url));
}

/** The per-worker databases' names beside `url`'s: `<its name>_w1`, `_w2`, … */
export function workerDatabaseUrls(url: string, workers: number): string[] {
  return Array.from({ length: workers }, (_, i) => {
    const worker = new URL(url);
    worker.pathname = `${decodeURIComponent(worker.pathname.slice(1))}_w${i + 1}`;
    return worker.toString();
  });
}

/** Runs `statement(name)` for each per-worker database beside `url`, on a connection to `url`. */
export async function eachWorkerDatabase(url: string, workers: number, statement: (name: string) => string): Promise<string[]> {
  const urls = workerDatabaseUrls(url, workers);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    for (const workerUrl of urls) await client.query(statement(decodeURIComponent(new URL(workerUrl).pathname.slice(1)).replaceAll('"', '""')));
  } finally {
    await client.end();
  }
  return urls;
}

async function createWorkerDatabases(url: string, workers: number): Promise<string[]> {
  await eachWorkerDatabase(url, workers, (name) => `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  return eachWorkerDatabase(url, workers, (name) => `CREATE DATABASE "${name}"`);
}
