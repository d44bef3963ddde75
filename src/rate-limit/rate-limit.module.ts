import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { MetricsModule } from '../metrics/metrics.module';
import { EXCHANGE_THROTTLER, TENANT_THROTTLER } from './rate-limit.decorators';
import { RedisConnection } from './redis-connection';
import { MemoryThrottlerStorage } from './memory-throttler-storage';
import { RedisThrottlerStorage } from './redis-throttler-storage';
import { ManagedTenantThrottlerGuard } from './managed-tenant-throttler.guard';
import { RequestBudgets } from './request-budgets';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

@Module({ imports: [MetricsModule], providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}

/**
 * The request budgets: RATE_LIMIT_PER_HOUR per tenant (sliding hour, no extra penalty once over) and
 * TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE per client address on the token exchange, through @nestjs/throttler's
 * guard; the management API's (RequestBudgets) on the same storage. Counters live in Redis when REDIS_URL is set
 * (shared by all replicas), otherwise in this process's memory.
 */
@Module({
  imports: [
    RedisModule,
    MetricsModule,
    ThrottlerModule.forRootAsync({
      imports: [RedisModule, MetricsModule],
      inject: [AppConfig, RedisConnection, Metrics],
      useFactory: (config: AppConfig, redis: RedisConnection, metrics: Metrics) => ({
        storage: redis.client ? new RedisThrottlerStorage(redis.client, () => metrics.rateLimitFallbacks.inc()) : new MemoryThrottlerStorage(),
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
  providers: [RequestBudgets, ManagedTenantThrottlerGuard],
  exports: [ThrottlerModule, RedisModule, MetricsModule, RequestBudgets, ManagedTenantThrottlerGuard],
})
export class RateLimitModule {}
