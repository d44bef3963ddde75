import pino, { Logger, LoggerOptions } from 'pino';
import { AppConfig } from '../config/app-config';
import { LOGGER_TRACE, TracedLogger } from '../tracing/request-trace';
import { logIds } from '../tracing/trace-context';

/** Paths of log fields that may hold a secret: they are written as [redacted]. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'api_token',
  'admin_api_key',
  'jwt_token',
  'token',
  'key',
  'secret',
  '*.api_token',
  '*.admin_api_key',
  '*.jwt_token',
  '*.token',
  '*.key',
  '*.secret',
];

export function loggerOptions(config: AppConfig): LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
    // A request's lines name its trace (`trace_id`, `span_id`): asked of its logger when a line is written.
    mixin: (_fields, _level, logger) => {
      const traceOf = (logger as unknown as TracedLogger)[LOGGER_TRACE];
      return traceOf ? logIds(traceOf()) : {};
    },
  };
}

/**
 * pino's error serializer copies every enumerable field, and TypeORM's QueryFailedError carries the query's
 * `parameters` (tenants' data, token hashes) and pg's error, whose `detail` repeats key values
 * (`Key (name)=(acme) already exists`). Keep the SQL text and the error's code and message, not the values.
 */
export function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  if (typeof serialized !== 'object' || serialized === null) return serialized;
  const { parameters: _parameters, driverError, detail: _detail, ...rest } = serialized;
  if (driverError && typeof driverError === 'object') {
    const { code, message, severity, routine } = driverError as Record<string, unknown>;
    rest.driverError = { code, message, severity, routine };
  }
  return rest;
}

export function createLogger(config: AppConfig): Logger {
  return pino(loggerOptions(config));
}
