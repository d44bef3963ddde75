import type { DataSourceOptions } from 'typeorm';
import { DatabaseSettings } from './database-settings';
import { MIGRATIONS } from './schema';
import { TypeOrmLogger } from './typeorm-logger';

/**
 * One description of the database for the app and the TypeORM command line. The entities come from the modules
 * that own them (`TypeOrmModule.forFeature` in each service module, `autoLoadEntities`); the migrations, which
 * need none, are the database's own.
 */
export function dataSourceOptions(settings: DatabaseSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    migrations: MIGRATIONS,
    migrationsRun: false,
    // Each migration in a transaction of its own, so that one may run without (`transaction = false`): the delivery
    // log's move to partitions validates and builds indexes beside live traffic, each step committed on its own.
    migrationsTransactionMode: 'each',
    synchronize: false,
    // TypeORM's messages go to the JSON log, without parameter values (typeorm-logger.ts).
    logger: new TypeOrmLogger(),
    extra: settings.poolOptions(),
  };
}
