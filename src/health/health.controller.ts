import { Controller, Get, HttpCode, HttpException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { RedisConnection } from '../rate-limit/redis-connection';
import { ServiceUnavailableError } from '../common/common.errors';
import { MigrationsHealthIndicator } from './migrations.health';
import { ShutdownState } from './shutdown-state';

/** Probes for Kubernetes, outside the versioned prefix and outside the rate limit. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly migrations: MigrationsHealthIndicator,
    private readonly shutdown: ShutdownState,
    private readonly redis: RedisConnection,
    private readonly indicators: HealthIndicatorService,
  ) {}

  /** Redis, when the rate-limit counters live there. */
  private async redisCheck() {
    const indicator = this.indicators.check('redis');
    return (await this.redis.ping()) ? indicator.up() : indicator.down();
  }

  /** Liveness: the process serves requests. */
  @Get('healthz')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: not shutting down, the database answers, its schema is current, and Redis answers if used. */
  @Get('readyz')
  async ready(): Promise<HealthCheckResult> {
    if (this.shutdown.isDraining) throw new ServiceUnavailableError('shutting down');
    try {
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: 2_000 }),
        () => this.migrations.isApplied('migrations'),
        ...(this.redis.client ? [() => this.redisCheck()] : []),
      ]);
    } catch (error) {
      const result = error instanceof HttpException ? (error.getResponse() as Partial<HealthCheckResult>) : {};
      const failed = result.error ?? {};
      throw new ServiceUnavailableError(Object.keys(failed).map((key) => `${key}: down`).join('; ') || 'not ready');
    }
  }
}
