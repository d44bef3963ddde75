import { DomainError } from '../common/domain.error';

export class HmacKeyLimitReachedError extends DomainError {
  readonly kind = 'forbidden';
  constructor(limit: number) {
    super(`hmac key limit reached: a tenant may have at most ${limit} active HMAC keys`);
  }
}

export class HmacKeyNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor() {
    super('HMAC key not found');
  }
}

/** Spec 4.1.2: the registration test did not pass. */
export class WebhookValidationError extends DomainError {
  readonly kind = 'invalid';
  constructor(problem: string) {
    super(`action validation failed: ${problem}`);
  }
}
