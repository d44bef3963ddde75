import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  InvalidRequestError,
  InvalidTokenError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RouteNotFoundError,
  ServiceUnavailableError,
} from './common.errors';
import { isDatabaseUnavailable, isSchemaMissing } from '../database/database-errors';
import { DomainError, ErrorKind } from './domain.error';
import { ErrorBody } from './error-body';
import { RouteTable } from './route-table';

const UNSUPPORTED_MEDIA_TYPE = 'body: Content-Type must be application/json';

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

/**
 * The one place where failures become HTTP: domain errors by their kind, framework and parser errors by what
 * they mean, a lost database as 503, and anything else as a 500 that says nothing about internals.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  constructor(private readonly routes: RouteTable) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (reply.sent) return;
    if (isClientAbort(exception)) {
      // The body stream failed because the client went away (or was cut at REQUEST_TIMEOUT_MS): nobody is left to
      // answer, and nothing is wrong with the service.
      this.logger.debug({ reqId: request.id }, 'client closed the connection before its request was read');
      return;
    }

    const error = this.toDomainError(exception, request);
    if (!error) {
      this.logger.error({ err: exception, reqId: request.id }, 'unexpected failure');
      this.send(reply, 500, { error: 'Internal server error' }, {});
      return;
    }
    if (error instanceof ServiceUnavailableError && error !== exception) {
      const missing = isSchemaMissing(exception);
      const reason = missing ? 'database schema missing what this build needs: pending migrations? (npm run migration:run)' : 'database unavailable';
      this.logger.warn({ reqId: request.id, cause: errorSummary(exception) }, reason);
    }
    const body: ErrorBody = { error: error.message };
    if (error.details !== undefined) body.details = error.details;
    this.send(reply, STATUS[error.kind], body, error.headers);
  }

  private toDomainError(exception: unknown, request: FastifyRequest): DomainError | undefined {
    if (exception instanceof DomainError) return exception;
    if (exception instanceof NotFoundException) {
      // A route that exists for this very method and still found nothing (a missing static file) is a 404.
      const allowed = this.routes.allowedMethods(request.url);
      return allowed.length > 0 && !allowed.includes(request.method as (typeof allowed)[number]) ? new MethodNotAllowedError(allowed) : new RouteNotFoundError();
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 401) return new InvalidTokenError();
      // No guard here throws Nest's 403 (they throw domain errors): this is the console's file server refusing a
      // path (`/console/assets/`, a `..`), which names nothing there is to see.
      if (status === 403) return new RouteNotFoundError();
      if (status === 413) return new PayloadTooLargeError();
      if (status === 415) return new InvalidRequestError(UNSUPPORTED_MEDIA_TYPE);
      if (status === 400) return new InvalidRequestError(`body: ${exception.message}`);
      return undefined;
    }
    if (isDatabaseUnavailable(exception) || isSchemaMissing(exception)) return new ServiceUnavailableError();
    return this.fromParserError(exception);
  }

  /**
   * Errors Fastify raises while reading the body, before any handler runs. Every well-formed content type is
   * read as bytes and judged later by RawBody.parseObject, but a Content-Type header Fastify cannot parse at all
   * (`application/json, text/plain`) still fails here with a 415: it must stay a 400, not become a 500.
   */
  private fromParserError(exception: unknown): DomainError | undefined {
    const { code, statusCode, message } = exception as { code?: string; statusCode?: number; message?: string };
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || statusCode === 413) return new PayloadTooLargeError();
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || statusCode === 415) {
      return new InvalidRequestError(UNSUPPORTED_MEDIA_TYPE);
    }
    if (statusCode === 400 && typeof message === 'string') return new InvalidRequestError(`request: ${message}`);
    return undefined;
  }

  private send(reply: FastifyReply, status: number, body: ErrorBody, headers: Record<string, string>): void {
    reply.status(status).headers(headers).type('application/json; charset=utf-8').send(JSON.stringify(body));
  }
}

/** What a 503's log line needs to say about its cause: the kind and message, not a stack trace. */
function errorSummary(error: unknown): { type: string; message: string; code?: string } {
  const { name, message, code } = error as { name?: unknown; message?: unknown; code?: unknown };
  return {
    type: typeof name === 'string' ? name : typeof error,
    message: typeof message === 'string' ? message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/** Node's error for a request whose connection closed before its body was read: `aborted`, code ECONNRESET. */
function isClientAbort(exception: unknown): boolean {
  const { code, message } = exception as { code?: unknown; message?: unknown };
  return code === 'ECONNRESET' && message === 'aborted';
}
