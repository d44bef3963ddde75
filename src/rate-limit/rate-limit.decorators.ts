import { applyDecorators, UseGuards } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { GatewayThrottlerGuard } from './gateway-throttler.guard';

export const TENANT_THROTTLER = 'default';
export const EXCHANGE_THROTTLER = 'exchange';

/** The per-address limit of the token exchange, against guessing. */
export const ExchangeRateLimited = () =>
  applyDecorators(UseGuards(GatewayThrottlerGuard), SkipThrottle({ [TENANT_THROTTLER]: true }));
