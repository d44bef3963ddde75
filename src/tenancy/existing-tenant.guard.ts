import { CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TenantId } from '../common/tenant-id';
import { TenancyService } from './tenancy.service';

type TenantRequest = { params: Record<string, string | undefined>; existingTenantId?: TenantId };

const ACTIVE_TENANT_ONLY = 'agw:active-tenant-only';

/**
 * A route that runs the tenant's actions (execute, replay): a disabled tenant is `409 tenant is disabled: …`, as its
 * own bearer token is refused, so nothing goes out on its behalf once it is disabled, whoever asks.
 */
export const ActiveTenantOnly = () => SetMetadata(ACTIVE_TENANT_ONLY, true);

/**
 * On a route under /tenants/{tenant_id}: the tenant must exist (else `404 Tenant not found`), and be active on a
 * route marked `@ActiveTenantOnly()`; `@ExistingTenant()` then gives its checked id. Runs after the route's
 * authentication guard.
 */
@Injectable()
export class ExistingTenantGuard implements CanActivate {
  constructor(
    private readonly tenancy: TenancyService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<TenantRequest>();
    const id = request.params.tenant_id ?? '';
    const activeOnly = this.reflector.getAllAndOverride<boolean>(ACTIVE_TENANT_ONLY, [context.getHandler(), context.getClass()]);
    request.existingTenantId = activeOnly ? await this.tenancy.requireActiveId(id) : await this.tenancy.requireId(id);
    return true;
  }
}

/** The tenant of the route, checked by `ExistingTenantGuard`. */
export const ExistingTenant = createParamDecorator((_: unknown, context: ExecutionContext): TenantId => {
  const tenantId = context.switchToHttp().getRequest<TenantRequest>().existingTenantId;
  if (!tenantId) throw new Error('@ExistingTenant() on a route without ExistingTenantGuard');
  return tenantId;
});
