import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import { RateLimitExceededError } from '../common/common.errors';
import { Principal } from '../auth/principal';

/**
 * @nestjs/throttler keyed by tenant (after the bearer guard has set it) or by client address, with one budget
 * per tenant across all routes rather than the library's default of one per route.
 */
@Injectable()
export class GatewayThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(request: { user?: Principal; ip: string }): Promise<string> {
    return request.user ? `tenant:${request.user.tenantId}` : `ip:${request.ip}`;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  protected override async throwThrottlingException(_context: ExecutionContext, limit: ThrottlerLimitDetail): Promise<void> {
    throw new RateLimitExceededError(limit.timeToBlockExpire);
  }
}
