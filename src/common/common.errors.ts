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

/**
 * A body that must be JSON and says otherwise (or nothing): only where the media type guards something (portal-link
 * redemption: a page of another origin can send text/plain without asking the browser first). Elsewhere a wrong
 * Content-Type is the contract's 400 (docs/decisions.md, "Only JSON bodies are read").
 */
export class UnsupportedMediaTypeError extends DomainError {
  readonly kind = 'unsupported_media_type';
  constructor() {
    super('Unsupported media type', 'Content-Type: must be application/json');
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
