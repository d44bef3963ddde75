import { ExecutionContext, Injectable } from '@nestjs/common';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModuleOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import { Metrics } from '../metrics/metrics';
import { RateLimitExceededError } from '../common/common.errors';
import { rateLimitHeaders } from './rate-limit-headers';
import { RouteMetadataCache } from './route-metadata-cache';

/** What the guard reads of a request: the tenant the bearer guard (which runs first) has set, or the address. */
interface ThrottledRequest {
  user?: { tenantId: string };
  ip: string;
}

/**
 * @nestjs/throttler keyed by tenant (after the bearer guard has set it) or by client address, with one budget
 * per tenant across all routes rather than the library's default of one per route.
 */
@Injectable()
export class GatewayThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    private readonly metrics: Metrics,
  ) {
    // The library asks the route's metadata six times per throttler on every request: the answers are remembered.
    super(options, storage, new RouteMetadataCache());
  }

  protected override async getTracker(request: ThrottledRequest): Promise<string> {
    return request.user ? `tenant:${request.user.tenantId}` : `ip:${request.ip}`;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  /** The 429 carries the budget headers too (the library sets only Retry-After before throwing). */
  protected override async throwThrottlingException(context: ExecutionContext, limit: ThrottlerLimitDetail): Promise<void> {
    this.metrics.rateLimited.inc({ throttler: limit.key.split(':')[0] });
    const error = new RateLimitExceededError(limit.timeToBlockExpire);
    Object.assign(error.headers, rateLimitHeaders({ limit: limit.limit, remaining: 0, resetSeconds: limit.timeToExpire }));
    throw error;
  }
}
