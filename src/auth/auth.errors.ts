import { DomainError } from '../common/domain.error';

export class InvalidApiTokenError extends DomainError {
  readonly kind = 'unauthenticated';
  constructor() {
    super('Invalid API token');
  }
}

export class ApiTokenNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor() {
    super('API token not found');
  }
}
