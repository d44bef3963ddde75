import { applyDecorators, UseGuards } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { GatewayThrottlerGuard } from '../rate-limit/gateway-throttler.guard';
import { EXCHANGE_THROTTLER } from '../rate-limit/rate-limit.decorators';
import { BearerAuthGuard } from './bearer-auth.guard';

/**
 * Bearer token required, then the tenant's hourly budget (in this order: the budget needs the tenant). The
 * controller's module imports `AuthModule` and `RateLimitModule`, which these guards are built from.
 */
export const TenantAuthenticated = () =>
  applyDecorators(UseGuards(BearerAuthGuard, GatewayThrottlerGuard), SkipThrottle({ [EXCHANGE_THROTTLER]: true }));
