import { Controller, Get, HttpCode, HttpException } from '@nestjs/common';
import { HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ServiceUnavailableError } from '../common/common.errors';
import { MigrationsHealthIndicator } from './migrations.health';
import { ShutdownState } from './shutdown-state';

/** Probes for Kubernetes, outside the versioned prefix and outside the rate limit. */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly migrations: MigrationsHealthIndicator,
    private readonly shutdown: ShutdownState,
  ) {}

  /** Liveness: the process serves requests. */
  @Get('healthz')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: not shutting down, the database answers and its schema is current. */
  @Get('readyz')
  async ready(): Promise<HealthCheckResult> {
    if (this.shutdown.isDraining) throw new ServiceUnavailableError('shutting down');
    try {
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: 2_000 }),
        () => this.migrations.isApplied('migrations'),
      ]);
    } catch (error) {
      const result = error instanceof HttpException ? (error.getResponse() as Partial<HealthCheckResult>) : {};
      const failed = result.error ?? {};
      throw new ServiceUnavailableError(Object.keys(failed).map((key) => `${key}: down`).join('; ') || 'not ready');
    }
  }
}
