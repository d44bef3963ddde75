import { DomainError } from '../common/domain.error';

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
