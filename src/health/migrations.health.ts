import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Ready only once every migration this build knows is applied (an old schema would fail requests). */
@Injectable()
export class MigrationsHealthIndicator {
  private applied = false;

  constructor(
    private readonly health: HealthIndicatorService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async isApplied(key: string) {
    const indicator = this.health.check(key);
    try {
      // Applied migrations stay applied: once seen, no need to ask the database on every probe.
      this.applied ||= !(await this.dataSource.showMigrations());
    } catch {
      return indicator.down({ message: 'cannot read the migrations table' });
    }
    return this.applied ? indicator.up() : indicator.down({ message: 'pending migrations: run npm run migration:run' });
  }
}
