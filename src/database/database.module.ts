import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { EmbeddedDatabaseService } from './embedded-database.service';

@Module({
  providers: [EmbeddedDatabaseService],
  exports: [EmbeddedDatabaseService],
})
class EmbeddedDatabaseModule {}

/**
 * TypeORM on PostgreSQL: the configured server, or the embedded one. Schema changes come from migrations only,
 * applied on start when RUN_MIGRATIONS is on (the default outside production).
 */
@Module({
  imports: [
    EmbeddedDatabaseModule,
    TypeOrmModule.forRootAsync({
      imports: [EmbeddedDatabaseModule],
      inject: [AppConfig, EmbeddedDatabaseService],
      useFactory: async (config: AppConfig, embedded: EmbeddedDatabaseService) => ({
        ...dataSourceOptions(config, await embedded.connectionUrl(), embedded.isEmbedded),
        autoLoadEntities: true,
        migrationsRun: config.runMigrations,
        retryAttempts: 3,
        retryDelay: 1_000,
      }),
    }),
  ],
  exports: [EmbeddedDatabaseModule],
})
export class DatabaseModule {}
