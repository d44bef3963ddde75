import { applyDecorators, Injectable, UseGuards } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { isUuid } from '../common/uuid';
import { GatewayThrottlerGuard } from './gateway-throttler.guard';
import { EXCHANGE_THROTTLER } from './rate-limit.decorators';

/**
 * The tenant's hourly budget on a management route under /tenants/{tenant_id}: the same counter as the tenant's
 * bearer requests, so running an action from the console costs what running it through the gateway does.
 */
@Injectable()
export class ManagedTenantThrottlerGuard extends GatewayThrottlerGuard {
  protected override async getTracker(request: { ip: string; params?: Record<string, string | undefined> }): Promise<string> {
    const tenantId = request.params?.tenant_id;
    // A UUID in any case names the same tenant; the bearer requests' counter uses the lowercase form.
    return `tenant:${tenantId && isUuid(tenantId) ? tenantId.toLowerCase() : 'unknown'}`;
  }
}

/** Counts the request against the budget of the route's tenant (after the management guard has let it in). */
export const TenantBudgeted = () => applyDecorators(UseGuards(ManagedTenantThrottlerGuard), SkipThrottle({ [EXCHANGE_THROTTLER]: true }));
