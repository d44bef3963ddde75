import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ExecutionsController } from './executions.controller';
import { ExecutionsModule } from './executions.module';

/** The execute and executions routes; the guards need the auth and rate-limit modules. */
@Module({
  imports: [ExecutionsModule, AuthModule, RateLimitModule],
  controllers: [ExecutionsController],
})
export class ExecutionsHttpModule {}
