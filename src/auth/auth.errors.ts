import { InvalidTokenError } from '../common/common.errors';
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

/**
 * A bearer token that did not verify (the contract's 401 `Invalid token`); `failure` is why, jsonwebtoken's error or
 * `claims` for a token without the claims this service issues (bearer-problem.ts words it for the challenge).
 */
export class UnverifiedTokenError extends InvalidTokenError {
  constructor(readonly failure: unknown) {
    super();
  }
}
