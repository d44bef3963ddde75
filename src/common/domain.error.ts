/**
 * What went wrong, in the service's own terms. The one place that turns a kind into an HTTP status is
 * `HttpErrorFilter`; services never think in status codes.
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable';

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  /** Response headers the error implies (for example Retry-After). */
  readonly headers: Record<string, string> = {};

  constructor(
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
