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

  /** The 429 carries the budget headers too (the library sets only Retry-After before throwing). */
  protected override async throwThrottlingException(_context: ExecutionContext, limit: ThrottlerLimitDetail): Promise<void> {
    const error = new RateLimitExceededError(limit.timeToBlockExpire);
    Object.assign(error.headers, {
      'X-RateLimit-Limit': String(limit.limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(limit.timeToExpire),
    });
    throw error;
  }
}
