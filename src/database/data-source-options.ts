import type { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DatabaseSettings } from './database-settings';
import { ENTITIES, MIGRATIONS } from './schema';

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
    extra: DatabaseSettings.of(config, url, embedded).poolOptions(),
  };
}
