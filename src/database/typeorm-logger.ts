import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLoggerInterface } from 'typeorm';

const MAX_SQL = 500;

/**
 * TypeORM's messages as the service's JSON log lines (through Nest's Logger, which writes to pino), instead of
 * TypeORM's plain-text console lines. Parameter values are never written: they hold tenants' data and secrets'
 * hashes. Only the SQL text (placeholders, no values) and the error's message and code are.
 *
 * A failed query is logged at debug: whoever ran it decides what it means. A unique violation is an expected 409,
 * a lost database a 503 the exception filter logs, and anything else a 500 the filter logs with its stack.
 * Every query at trace is not offered: `logQuery` runs on every TypeORM query and stays a no-op.
 */
export class TypeOrmLogger implements TypeOrmLoggerInterface {
  private readonly logger = new NestLogger('Database');

  logQuery(): void {
    // Deliberately nothing (see the class comment).
  }

  logQueryError(error: string | Error, query: string): void {
    const { message, code } = typeof error === 'string' ? { message: error, code: undefined } : (error as Error & { code?: string });
    this.logger.debug({ sql: sql(query), code, error: message }, 'query failed');
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ sql: sql(query), durationMs: time }, 'slow query');
  }

  /** Migrations report through here too ("Migration X has been executed successfully."): an operator wants those. */
  logSchemaBuild(message: string): void {
    this.logger.log(message);
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.log(String(message));
  }
}

function sql(query: string): string {
  const compact = query.replace(/\s+/g, ' ').trim();
  return compact.length > MAX_SQL ? `${compact.slice(0, MAX_SQL)}…` : compact;
}
