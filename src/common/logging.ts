import pino, { Logger, LoggerOptions } from 'pino';
import { AppConfig } from '../config/app-config';
import { LOGGER_TRACE, TracedLogger } from '../tracing/request-trace';
import { logIds } from '../tracing/trace-context';

/** Log fields that may hold a secret, at the top of a line or one level down (`{ body: { token } }`): written as [redacted]. */
const SECRET_FIELDS = new Set(['api_token', 'admin_api_key', 'jwt_token', 'token', 'key', 'secret']);
/** Request headers that carry credentials, in a logged `headers` object, at the top of a line or one level down. */
const SECRET_HEADERS = ['authorization', 'cookie'];
const REDACTED = '[redacted]';

/**
 * A line's fields with every secret written as [redacted]; the object logged is never changed (a copy is made
 * only where something is redacted). Only plain objects are looked into: a request or an error is written by its
 * serializer, which keeps no credentials. This replaces pino's `redact` option, which parsed each of its paths
 * again for every line and for every child logger's bindings (each request makes one), a visible share of what
 * a request allocated (docs/benchmarks.md, "The read model at 100,000 tenants").
 */
export function redactSecrets(fields: Record<string, unknown>): Record<string, unknown> {
  let out = fields;
  for (const name in fields) {
    const value = fields[name];
    if (value === undefined) continue;
    const redacted = SECRET_FIELDS.has(name) ? REDACTED : !isPlainObject(value) ? value : name === 'headers' ? redactHeaders(value) : redactNested(value);
    if (redacted !== value) {
      if (out === fields) out = { ...fields };
      out[name] = redacted;
    }
  }
  return out;
}

/** One level down: secret fields, and the credentials of a `headers` object. */
function redactNested(value: Record<string, unknown>): Record<string, unknown> {
  let out = value;
  const copy = () => (out === value ? (out = { ...value }) : out);
  for (const name in value) {
    if (SECRET_FIELDS.has(name) && value[name] !== undefined) copy()[name] = REDACTED;
  }
  const headers = value.headers;
  if (isPlainObject(headers)) {
    const redacted = redactHeaders(headers);
    if (redacted !== headers) copy().headers = redacted;
  }
  return out;
}

/** A `headers` object with its credentials written as [redacted] (a copy, when there are any). */
function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  if (!SECRET_HEADERS.some((header) => headers[header] !== undefined)) return headers;
  const redacted: Record<string, unknown> = { ...headers };
  for (const header of SECRET_HEADERS) if (redacted[header] !== undefined) redacted[header] = REDACTED;
  return redacted;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

export function loggerOptions(config: AppConfig): LoggerOptions {
  return {
    level: config.logLevel,
    formatters: { log: redactSecrets },
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
