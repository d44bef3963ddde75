import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { TenantId } from '../common/tenant-id';
import { TenancyService } from './tenancy.service';

type TenantRequest = { params: Record<string, string | undefined>; existingTenantId?: TenantId };

/**
 * On a route under /tenants/{tenant_id}: the tenant must exist (else `404 Tenant not found`); `@ExistingTenant()`
 * then gives its checked id. Runs after the route's authentication guard.
 */
@Injectable()
export class ExistingTenantGuard implements CanActivate {
  constructor(private readonly tenancy: TenancyService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<TenantRequest>();
    request.existingTenantId = await this.tenancy.requireId(request.params.tenant_id ?? '');
    return true;
  }
}

/** The tenant of the route, checked by `ExistingTenantGuard`. */
export const ExistingTenant = createParamDecorator((_: unknown, context: ExecutionContext): TenantId => {
  const tenantId = context.switchToHttp().getRequest<TenantRequest>().existingTenantId;
  if (!tenantId) throw new Error('@ExistingTenant() on a route without ExistingTenantGuard');
  return tenantId;
});
