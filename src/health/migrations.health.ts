import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, MigrationExecutor } from 'typeorm';

/**
 * Ready only once every migration this build knows is applied (an old schema would fail requests). At start-up
 * it also says so in the log, naming the pending migrations, so an operator who started a production service
 * before `npm run migration:run` (RUN_MIGRATIONS is off there) learns why requests answer 503.
 */
@Injectable()
export class MigrationsHealthIndicator implements OnApplicationBootstrap {
  private readonly logger = new Logger('Migrations');
  private applied = false;

  constructor(
    private readonly health: HealthIndicatorService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    let pending: string[];
    try {
      pending = await this.pending();
    } catch (error) {
      this.logger.warn(`cannot read the migrations table: ${(error as Error).message}`);
      return;
    }
    if (pending.length > 0) {
      this.logger.warn(
        { pending },
        `${pending.length} database migration(s) pending: run "npm run migration:run" (or set RUN_MIGRATIONS=true); ` +
          'until then /readyz is 503 and requests that need the new schema answer 503',
      );
    }
  }

  async isApplied(key: string) {
    const indicator = this.health.check(key);
    try {
      // Applied migrations stay applied: once seen, no need to ask the database on every probe.
      this.applied ||= (await this.pending()).length === 0;
    } catch {
      return indicator.down({ message: 'cannot read the migrations table' });
    }
    return this.applied ? indicator.up() : indicator.down({ message: 'pending migrations: run npm run migration:run' });
  }

  private async pending(): Promise<string[]> {
    const executor = new MigrationExecutor(this.dataSource);
    return (await executor.getPendingMigrations()).map((migration) => migration.name);
  }
}
