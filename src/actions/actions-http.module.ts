import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ActionsController } from './actions.controller';
import { ActionsModule } from './actions.module';

/** The actions routes of the gateway interface; the guards need the auth and rate-limit modules. */
@Module({
  imports: [ActionsModule, AuthModule, RateLimitModule],
  controllers: [ActionsController],
})
export class ActionsHttpModule {}
