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

/** A replay needs the parameters as sent: an execution whose payload was not logged has none to send. */
export class PayloadNotLoggedError extends DomainError {
  readonly kind = 'conflict';
  constructor(reason: string) {
    super(`execution cannot be replayed: ${reason}`);
  }
}

/** A replay of an execution whose payload is past EXECUTION_PAYLOAD_RETENTION_DAYS. */
export class PayloadExpiredError extends DomainError {
  readonly kind = 'gone';
  constructor(days: number) {
    super(`execution cannot be replayed: its payload has expired (payloads are kept ${days} days)`);
  }
}

/**
 * A tenant with ASYNC_EXECUTIONS_PER_TENANT asynchronous executions unfinished (pending or running) gets no more
 * until some end: what one tenant's calls to a receiver that hangs can hold is bounded.
 */
export class TooManyUnfinishedExecutionsError extends DomainError {
  readonly kind = 'rate_limited';
  constructor(limit: number, retryAfterSeconds: number) {
    super(`too many unfinished asynchronous executions: a tenant may have at most ${limit} pending or running`);
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

/** A key sent again with another request (other parameters, or another action): nothing is sent. */
export class IdempotencyKeyReusedError extends DomainError {
  readonly kind = 'unprocessable';
  constructor(key: string) {
    super(`idempotency key '${key}' was first used with other parameters or another action: a key stands for one request`);
  }
}

/** A key whose first request is still running (no execution stored yet): the caller tries again shortly. */
export class IdempotencyKeyInUseError extends DomainError {
  readonly kind = 'conflict';
  constructor(key: string, retryAfterSeconds: number) {
    super(`idempotency key '${key}' is in use by a request still running: try again in ${retryAfterSeconds} s for its execution`);
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}
