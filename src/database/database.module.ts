import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { MetricsModule } from '../metrics/metrics.module';
import { DatabasePool } from './database-pool';
import { DatabaseSettings } from './database-settings';
import { dataSourceOptions } from './data-source-options';
import { EmbeddedDatabaseService } from './embedded-database.service';
import { ReadModel } from './read-model';
import { TracingModule } from '../tracing/tracing.module';

/** Where the database is: the configured server, or the embedded one, started on first use. */
@Module({
  providers: [
    EmbeddedDatabaseService,
    {
      provide: DatabaseSettings,
      inject: [AppConfig, EmbeddedDatabaseService],
      useFactory: async (config: AppConfig, embedded: EmbeddedDatabaseService) =>
        DatabaseSettings.of(config, await embedded.connectionUrl(), embedded.isEmbedded, embedded.inProcessConnector()),
    },
  ],
  exports: [EmbeddedDatabaseService, DatabaseSettings],
})
class DatabaseConnectionModule {}

/**
 * TypeORM on PostgreSQL: the configured server, or the embedded one. Schema changes come from migrations only,
 * applied on start when RUN_MIGRATIONS is on (the default outside production). Also the pool under TypeORM for
 * hand-written statements, and the read model every module keeps its hot data in. Global: every repository
 * and service may use them.
 */
@Global()
@Module({
  imports: [
    DatabaseConnectionModule,
    MetricsModule,
    TracingModule,
    TypeOrmModule.forRootAsync({
      imports: [DatabaseConnectionModule],
      inject: [AppConfig, DatabaseSettings],
      useFactory: (config: AppConfig, settings: DatabaseSettings) => ({
        ...dataSourceOptions(settings),
        autoLoadEntities: true,
        migrationsRun: config.runMigrations,
        retryAttempts: 3,
        retryDelay: 1_000,
      }),
    }),
  ],
  providers: [DatabasePool, ReadModel],
  exports: [DatabaseConnectionModule, DatabasePool, ReadModel],
})
export class DatabaseModule {}
