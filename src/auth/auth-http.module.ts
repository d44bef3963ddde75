import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { AuthModule } from './auth.module';
import { TokenExchangeController } from './token-exchange.controller';

/** `POST /token/exchange`, rate-limited per client address. */
@Module({
  imports: [AuthModule, RateLimitModule],
  controllers: [TokenExchangeController],
})
export class AuthHttpModule {}
