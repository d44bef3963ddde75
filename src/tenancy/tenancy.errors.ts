import { DomainError } from '../common/domain.error';

export class TenantNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor() {
    super('Tenant not found');
  }
}
