import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';

/**
 * Nest's own start-up lines, one per module and route (about 90 of a start's 105 lines): `debug`, not `info`, so a
 * start says what matters to whoever reads it (LOG_LEVEL=debug shows them again).
 */
const BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/**
 * Nest's `Logger` calls written to the service's pino logger (the one Fastify logs requests with), as JSON
 * lines with the Nest context in `context`. Replaces nestjs-pino, whose releases for Nest 12 require Node 22
 * (see README, "Node.js versions"); the application passes request ids explicitly where it logs about a request.
 *
 * Nest calls `error(message, stack?, context?)`, `log(message, context?)` and so on; the context is always the
 * last argument when the `Logger` has one. An object or Error as the message becomes pino's merging object.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && BOOT_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const rest = [...params];
    if (rest.length > 0 && typeof rest[rest.length - 1] === 'string') fields.context = rest.pop();
    if (message instanceof Error) {
      fields.err = message;
      this.logger[level](fields, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const text = rest.find((param): param is string => typeof param === 'string');
      this.logger[level]({ ...fields, ...message }, text);
    } else if (level === 'error' && typeof rest[0] === 'string' && rest[0].includes('\n    at ')) {
      // Nest's own exception handlers pass (message, stack, context).
      this.logger.error({ ...fields, err: { message: String(message), stack: rest[0] } }, String(message));
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
