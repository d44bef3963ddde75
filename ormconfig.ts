import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/load-config';
import { dataSourceOptions } from './src/database/data-source-options';
import { EmbeddedPostgres } from './src/database/embedded-postgres';

/**
 * The data source the TypeORM command line uses (`npm run migration:run`, built to dist/ormconfig.js): the same
 * options as the app, on DATABASE_URL or, without it, on the embedded database under DATA_DIR (which must not
 * be open in a running service: that one applies migrations itself on start).
 */
async function commandLineDataSource(): Promise<DataSource> {
  const config = loadConfig();
  if (config.databaseUrl) return new DataSource(dataSourceOptions(config, config.databaseUrl, false));
  const embedded = await EmbeddedPostgres.start(config.dataDir);
  const dataSource = new DataSource(dataSourceOptions(config, embedded.url, true));
  const destroy = dataSource.destroy.bind(dataSource);
  dataSource.destroy = async () => {
    await destroy();
    await embedded.stop();
  };
  return dataSource;
}

export default commandLineDataSource();
