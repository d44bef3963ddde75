import pino, { Logger, LoggerOptions } from 'pino';
import { AppConfig } from '../config/app-config';

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
  return { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}

export function createLogger(config: AppConfig): Logger {
  return pino(loggerOptions(config));
}
