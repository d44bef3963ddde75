import { DomainError } from '../common/domain.error';

export class TenantNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor() {
    super('Tenant not found');
  }
}

/**
 * Running a disabled tenant's actions (execute, replay) through the management API: refused as its own bearer
 * token is, so disabling a tenant stops every call made on its behalf (docs/decisions.md, "Disabled tenants").
 */
export class TenantDisabledError extends DomainError {
  readonly kind = 'conflict';
  constructor() {
    super('tenant is disabled: enable it to execute or replay its actions');
  }
}
