import { DomainError } from '../common/domain.error';

export class InvalidParametersError extends DomainError {
  readonly kind = 'invalid';
  constructor(details: string) {
    super('Invalid parameters', details);
  }
}

export class NoActiveHmacKeyError extends DomainError {
  readonly kind = 'conflict';
  constructor() {
    super('no active HMAC key for this tenant');
  }
}

export class ExecutionNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor() {
    super('Execution not found');
  }
}
