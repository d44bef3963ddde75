import { applyDecorators, UseGuards } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { GatewayThrottlerGuard } from './gateway-throttler.guard';

export const TENANT_THROTTLER = 'default';
export const EXCHANGE_THROTTLER = 'exchange';

/** Bearer token required, then the tenant's hourly budget (in this order: the budget needs the tenant). */
export const TenantAuthenticated = () =>
  applyDecorators(UseGuards(BearerAuthGuard, GatewayThrottlerGuard), SkipThrottle({ [EXCHANGE_THROTTLER]: true }));

/** The per-address limit of the token exchange, against guessing. */
export const ExchangeRateLimited = () =>
  applyDecorators(UseGuards(GatewayThrottlerGuard), SkipThrottle({ [TENANT_THROTTLER]: true }));
