import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { RedisModule } from '../rate-limit/rate-limit.module';
import { HealthController } from './health.controller';
import { HealthModule } from './health.module';
import { MigrationsHealthIndicator } from './migrations.health';

/** `/healthz` and `/readyz`. */
@Module({
  imports: [HealthModule, TerminusModule.forRoot({ logger: false }), RedisModule],
  controllers: [HealthController],
  providers: [MigrationsHealthIndicator],
})
export class HealthHttpModule {}
