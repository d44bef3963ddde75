import 'reflect-metadata';
import { DataSource, DataSourceOptions } from 'typeorm';
import { describeStartupFailure } from './src/common/startup-failure';
import { loadConfig } from './src/config/load-config';
import { dataSourceOptions } from './src/database/data-source-options';
import { DatabaseSettings } from './src/database/database-settings';
import { EmbeddedDatabaseInUseError, EmbeddedPostgres } from './src/database/embedded-postgres';

/**
 * The data source the TypeORM command line uses (`npm run migration:run`, built to dist/ormconfig.js): the same
 * options as the app, on DATABASE_URL or, without it, on the embedded database under DATA_DIR (which must not
 * be open in a running service: that one applies migrations itself on start). TypeORM's messages go to the
 * terminal as TypeORM writes them, since a person reads them here.
 */
async function commandLineDataSource(): Promise<DataSource> {
  const config = loadConfig();
  const options: Pick<DataSourceOptions, 'logger' | 'logging'> = { logger: 'advanced-console', logging: ['error', 'warn', 'migration', 'schema'] };
  if (config.databaseUrl) return new DataSource({ ...dataSourceOptions(DatabaseSettings.of(config, config.databaseUrl, false)), ...options });
  const embedded = await EmbeddedPostgres.start(config.dataDir);
  const settings = DatabaseSettings.of(config, embedded.url, true, () => embedded.connectInProcess());
  const dataSource = new DataSource({ ...dataSourceOptions(settings), ...options });
  const destroy = dataSource.destroy.bind(dataSource);
  dataSource.destroy = async () => {
    await destroy();
    await embedded.stop();
  };
  return dataSource;
}

/** A problem the operator can fix is one line (TypeORM would print it with a stack trace); exit 1. */
function refuse(error: unknown): never {
  if (error instanceof EmbeddedDatabaseInUseError) {
    console.error(
      `Cannot open the embedded database in ${error.dataDir}: the service running as process ${error.endpoint.pid} holds it. ` +
        'That service applies pending migrations itself when it starts (RUN_MIGRATIONS), and its /readyz says whether any are pending; ' +
        'stop it to run migration commands.',
    );
    process.exit(1);
  }
  const line = describeStartupFailure(error);
  if (line === undefined) throw error;
  console.error(line);
  process.exit(1);
}

export default commandLineDataSource().catch(refuse);
