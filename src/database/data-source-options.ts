import type { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ENTITIES, MIGRATIONS } from './schema';

export const POOL_SIZE = 10;

/** One description of the database for the app and the TypeORM command line. */
export function dataSourceOptions(config: AppConfig, url: string, embedded: boolean): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    migrationsTransactionMode: 'all',
    synchronize: false,
    logging: ['error', 'warn', 'migration'],
    extra: {
      max: POOL_SIZE,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      // PGlite answers one statement at a time and has no timer to cancel one with.
      ...(embedded ? {} : { statement_timeout: 10_000 }),
    },
  };
}
