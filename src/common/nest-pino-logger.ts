import { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/** Nest's own log lines (boot, errors from the filter) through the same pino logger as request logs. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, rest: unknown[]): void {
    // Nest passes the context (a class name) last; an error's stack, when there is one, before it.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    if (message !== null && typeof message === 'object') {
      this.pino[level]({ context, ...(message as object) }, (message as { msg?: string }).msg ?? '');
    } else {
      this.pino[level]({ context }, String(message));
    }
  }
}
