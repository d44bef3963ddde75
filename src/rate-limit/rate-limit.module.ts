import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { EXCHANGE_THROTTLER, TENANT_THROTTLER } from './rate-limit.decorators';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * The request budgets: RATE_LIMIT_PER_HOUR per tenant (sliding hour, no extra penalty once over) and
 * TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE per client address on the token exchange. Counters live in memory;
 * the storage is the throttler's, so a shared one can be swapped in without touching the guard.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        throttlers: [
          { name: TENANT_THROTTLER, ttl: HOUR_MS, limit: config.rateLimit.perHour, blockDuration: 0 },
          {
            name: EXCHANGE_THROTTLER,
            ttl: MINUTE_MS,
            limit: config.rateLimit.tokenExchangePerMinute,
            blockDuration: 0,
            setHeaders: false,
          },
        ],
      }),
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
