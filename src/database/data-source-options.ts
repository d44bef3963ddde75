import type { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { MIGRATIONS } from './schema';
import { TypeOrmLogger } from './typeorm-logger';

/**
 * One description of the database for the app and the TypeORM command line. The entities come from the modules
 * that own them (`TypeOrmModule.forFeature` in each service module, `autoLoadEntities`); the migrations, which
 * need none, are the database's own.
 */
export function dataSourceOptions(config: AppConfig, url: string, embedded: boolean): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsRun: false,
    migrationsTransactionMode: 'all',
    synchronize: false,
    // TypeORM's messages go to the JSON log, without parameter values (typeorm-logger.ts).
    logger: new TypeOrmLogger(),
    extra: {
      // PGlite is one session behind a multiplexer that interleaves the protocol messages of concurrent
      // connections (a Bind of one lands between the Parse and Execute of another), so the embedded database
      // gets exactly one connection; it runs one statement at a time anyway.
      max: embedded ? 1 : config.databasePoolSize,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      // The server cancels a slow statement; the client also stops waiting, for a database that does not answer
      // at all (a network that drops packets, a server that hangs), so a request is a prompt 503, not a hang.
      statement_timeout: config.databaseStatementTimeoutMs,
      query_timeout: config.databaseStatementTimeoutMs + 1_000,
    },
  };
}
