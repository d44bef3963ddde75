import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isUuid } from '../common/uuid';
import { RequestBudgets } from './request-budgets';

/** What the guard reads of a management request: who made it (ManagementAuthGuard, which runs first) and the route's tenant. */
interface ManagedRequest {
  management?: { kind: 'operator' | 'tenant' };
  params?: Record<string, string | undefined>;
}

/**
 * On a management route under /tenants/{tenant_id} that runs the tenant's action: an operator's request counts
 * against that tenant's hourly budget too (the same counter as its bearer requests), so running an action from
 * the console costs what running it through the gateway does. A tenant session's request has been counted
 * against it already, like each of its management calls (ManagementAuthGuard).
 */
@Injectable()
export class ManagedTenantThrottlerGuard implements CanActivate {
  constructor(private readonly budgets: RequestBudgets) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<ManagedRequest>();
    if (request.management?.kind !== 'operator') return true;
    const tenantId = request.params?.tenant_id;
    // A UUID in any case names the same tenant; the bearer requests' counter uses the lowercase form.
    await this.budgets.charge('tenant', `tenant:${tenantId && isUuid(tenantId) ? tenantId.toLowerCase() : 'unknown'}`, http.getResponse<FastifyReply>());
    return true;
  }
}

/** Counts an operator's request against the budget of the route's tenant (after the management guard has let it in). */
export const TenantBudgeted = () => applyDecorators(UseGuards(ManagedTenantThrottlerGuard));
