import { Module } from '@nestjs/common';
import { ActionsModule } from '../actions/actions.module';
import { AuthModule } from '../auth/auth.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { ExecutionsController } from './executions.controller';
import { ExecutionsRepository } from './executions.repository';
import { ExecutionsService } from './executions.service';
import { ParameterValidators } from './parameter-validators';

@Module({
  imports: [ActionsModule, AuthModule, RateLimitModule, WebhooksModule],
  controllers: [ExecutionsController],
  providers: [ExecutionsRepository, ExecutionsService, ParameterValidators],
  exports: [ExecutionsService],
})
export class ExecutionsModule {}
