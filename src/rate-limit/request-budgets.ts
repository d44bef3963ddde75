import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { RateLimitExceededError } from '../common/common.errors';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { rateLimitHeaders } from './rate-limit-headers';
import { TENANT_THROTTLER } from './rate-limit.decorators';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * The budgets counted outside @nestjs/throttler's guard, on the same storage (memory, or Redis across replicas):
 * - `tenant`: the tenant's hourly budget, the very counter its bearer requests use (GatewayThrottlerGuard's key),
 *   for its portal sessions' management calls;
 * - `operator`: management calls made with the ADMIN_API_KEY or an operator's session, all together, per minute;
 * - `admin-key-failures`: wrong admin keys per client address per minute (sign-in, or a management call's bearer);
 * - `redemption`: portal-link redemptions per client address per minute.
 */
type BudgetName = 'tenant' | 'operator' | 'admin-key-failures' | 'redemption';

interface Budget {
  /** The storage key's first part; the tenant budget's is the throttler's own, so both count one counter. */
  prefix: string;
  ttlMs: number;
  limit: number;
  /** Whether answers carry X-RateLimit-Limit, -Remaining and -Reset (the address budgets say only Retry-After). */
  headers: boolean;
}

/** What a counted request found: whether it was over, and the figures its headers give. */
interface BudgetState {
  exceeded: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request stops counting. */
  resetSeconds: number;
}

@Injectable()
export class RequestBudgets {
  private readonly budgets: Record<BudgetName, Budget>;

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly metrics: Metrics,
    config: AppConfig,
  ) {
    const { perHour, operatorPerMinute, adminKeyFailuresPerMinute, tokenExchangePerMinute } = config.rateLimit;
    this.budgets = {
      tenant: { prefix: TENANT_THROTTLER, ttlMs: HOUR_MS, limit: perHour, headers: true },
      operator: { prefix: 'operator', ttlMs: MINUTE_MS, limit: operatorPerMinute, headers: true },
      'admin-key-failures': { prefix: 'admin-key-failures', ttlMs: MINUTE_MS, limit: adminKeyFailuresPerMinute, headers: false },
      redemption: { prefix: 'redemption', ttlMs: MINUTE_MS, limit: tokenExchangePerMinute, headers: false },
    };
  }

  /** Counts one request of `tracker` (`tenant:<id>`, `operator`, `ip:<address>`) against `name`'s budget. */
  async count(name: BudgetName, tracker: string): Promise<BudgetState> {
    const budget = this.budgets[name];
    const record = await this.storage.increment(`${budget.prefix}:${tracker}`, budget.ttlMs, budget.limit, 0, budget.prefix);
    return { exceeded: record.isBlocked, limit: budget.limit, remaining: Math.max(0, budget.limit - record.totalHits), resetSeconds: record.timeToExpire };
  }

  /**
   * Counts one request against `name`'s budget and, for the budgets that have them, writes the X-RateLimit
   * headers on `reply`; past the budget, throws the contract's 429 (`Retry-After`, and the headers too).
   */
  async charge(name: BudgetName, tracker: string, reply: FastifyReply): Promise<void> {
    const state = await this.count(name, tracker);
    if (state.exceeded) throw this.exceeded(name, state);
    if (this.budgets[name].headers) reply.headers(rateLimitHeaders(state));
  }

  /**
   * Counts one failure (a wrong key) of `tracker` against `name`'s budget; past it, throws the 429 instead of
   * letting the caller answer the failure. Successes are never counted.
   */
  async countFailure(name: BudgetName, tracker: string): Promise<void> {
    const state = await this.count(name, tracker);
    if (state.exceeded) throw this.exceeded(name, state);
  }

  /** The 429 for a request found over `name`'s budget. */
  exceeded(name: BudgetName, state: BudgetState): RateLimitExceededError {
    this.metrics.rateLimited.inc({ throttler: this.budgets[name].prefix });
    const error = new RateLimitExceededError(state.resetSeconds);
    if (this.budgets[name].headers) Object.assign(error.headers, rateLimitHeaders({ ...state, remaining: 0 }));
    return error;
  }
}
