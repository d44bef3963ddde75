import { DomainError } from '../common/domain.error';

export class InvalidAdminKeyError extends DomainError {
  readonly kind = 'unauthenticated';
  constructor() {
    super('Invalid admin API key');
  }
}

/** Unknown, used, expired, or for a disabled tenant: one answer, so a link reveals nothing about itself. */
export class InvalidPortalLinkError extends DomainError {
  readonly kind = 'unauthenticated';
  constructor() {
    super('Invalid portal link');
  }
}

export class CsrfTokenError extends DomainError {
  readonly kind = 'forbidden';
  constructor() {
    super('Missing or invalid CSRF token');
  }
}

export class OperatorsOnlyError extends DomainError {
  readonly kind = 'forbidden';
  constructor() {
    super('Operators only');
  }
}
