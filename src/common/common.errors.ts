import { DomainError } from './domain.error';

// Errors every module may raise. Module-specific ones live beside their module (actions.errors.ts, ...);
// several tiny classes share a file because each is two lines.

export class InvalidRequestError extends DomainError {
  readonly kind = 'invalid';
  constructor(details: string) {
    super('Invalid request', details);
  }
}

export class InvalidTokenError extends DomainError {
  readonly kind = 'unauthenticated';
  constructor() {
    super('Invalid token');
  }
}

export class RouteNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor() {
    super('Not found');
  }
}

export class MethodNotAllowedError extends DomainError {
  readonly kind = 'method_not_allowed';
  constructor(allowed: string[]) {
    super('Method not allowed');
    this.headers.Allow = allowed.join(', ');
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly kind = 'payload_too_large';
  constructor() {
    super('Payload too large');
  }
}

export class RateLimitExceededError extends DomainError {
  readonly kind = 'rate_limited';
  constructor(retryAfterSeconds: number) {
    super('Rate limit exceeded');
    this.headers['Retry-After'] = String(Math.max(1, retryAfterSeconds));
  }
}

export class ServiceUnavailableError extends DomainError {
  readonly kind = 'unavailable';
  constructor(details?: string) {
    super('Service unavailable', details);
  }
}
