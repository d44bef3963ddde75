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

/** A request that only this service's own pages may make, from another origin (or from one it cannot tell). */
export class CrossOriginRequestError extends DomainError {
  readonly kind = 'forbidden';
  constructor() {
    super('Cross-origin request refused', 'Origin: must be this service\'s own (or Sec-Fetch-Site: same-origin without Origin)');
  }
}

export class OperatorsOnlyError extends DomainError {
  readonly kind = 'forbidden';
  constructor() {
    super('Operators only');
  }
}

/**
 * A portal link opened in a browser that holds another console session (an operator's, or another tenant's
 * portal): not redeemed until the person confirms, so a link someone else sent cannot switch them silently.
 */
export class ConsoleSessionHeldError extends DomainError {
  readonly kind = 'conflict';
  constructor(held: 'operator' | 'tenant') {
    super(
      'This browser already holds a console session',
      `replace_session: must be true, with the session's X-CSRF-Token, to end this browser's ${held === 'operator' ? 'operator session' : 'portal session of another tenant'} and open this link's portal (the link is still unused)`,
    );
  }
}
