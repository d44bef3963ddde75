import { Module } from '@nestjs/common';
import { ActionsModule } from '../actions/actions.module';
import { AuthModule } from '../auth/auth.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ExecutionsController } from './executions.controller';
import { ExecutionsModule } from './executions.module';
import { TenantExecutionsController } from './tenant-executions.controller';

/** The execute, executions, replay and stats routes; the guards need the auth and rate-limit modules. */
@Module({
  imports: [ExecutionsModule, ActionsModule, AuthModule, RateLimitModule],
  controllers: [ExecutionsController, TenantExecutionsController],
})
export class ExecutionsHttpModule {}
