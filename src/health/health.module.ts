import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { RedisModule } from '../rate-limit/rate-limit.module';
import { HealthController } from './health.controller';
import { MigrationsHealthIndicator } from './migrations.health';
import { ShutdownState } from './shutdown-state';

@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false }), RedisModule],
  controllers: [HealthController],
  providers: [MigrationsHealthIndicator, ShutdownState],
  exports: [ShutdownState],
})
export class HealthModule {}
