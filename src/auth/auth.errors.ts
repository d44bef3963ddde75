import { DomainError } from '../common/domain.error';

export class InvalidApiTokenError extends DomainError {
  readonly kind = 'unauthenticated';
  constructor() {
    super('Invalid API token');
  }
}

export class ApiTokenLimitReachedError extends DomainError {
  readonly kind = 'forbidden';
  constructor(limit: number) {
    super(`api token limit reached: a tenant may have at most ${limit} usable API tokens`);
  }
}

export class ApiTokenNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor() {
    super('API token not found');
  }
}
