import { ConfigError } from '../config/config.error';
import { EmbeddedDatabaseInUseError, EmbeddedDatabasePortError } from '../database/embedded-postgres';
import { isDatabaseUnavailable } from '../database/database-errors';

/**
 * The line (or, for configuration, the lines) an operator reads when the service or a command cannot start for
 * a reason they can fix: the configuration, a data directory another service holds, a port already taken or
 * not allowed, a database that does not answer or refuses the login. `undefined` for anything else, which is a bug and keeps its
 * stack trace.
 */
export function describeStartupFailure(error: unknown): string | undefined {
  if (error instanceof ConfigError) return error.message;
  if (error instanceof EmbeddedDatabaseInUseError || error instanceof EmbeddedDatabasePortError) return `Cannot start: ${error.message}`;
  const { code, syscall, address, port, message } = (error ?? {}) as NodeJS.ErrnoException & { address?: string; port?: number };
  if (syscall === 'listen') {
    const where = `${address ?? 'the address'}:${port ?? '?'}`;
    if (code === 'EADDRINUSE') return `Cannot start: ${where} is already in use by another process (set PORT, or HOST)`;
    if (code === 'EACCES') return `Cannot start: not allowed to listen on ${where} (ports below 1024 need privileges: set PORT)`;
    if (code === 'EADDRNOTAVAIL') return `Cannot start: ${address} is not an address of this machine (set HOST)`;
  }
  if (isDatabaseUnavailable(error)) {
    // A server that answered with a refusal (pg's DatabaseError, which carries the server's severity) is not one
    // that did not answer (a socket error such as ECONNREFUSED or EPIPE).
    const refused = typeof (error as { severity?: unknown }).severity === 'string';
    const what = refused ? 'refused the connection' : 'does not answer';
    return `Cannot start: the database ${what} (${message ?? code}): check DATABASE_URL`;
  }
  return undefined;
}

/**
 * `listening`, but a HOST that names no address (a typo, an unknown name) fails as a configuration line rather
 * than as a database that does not answer (getaddrinfo's ENOTFOUND reads like one) or a stack trace.
 */
export async function namingHost<T>(host: string, listening: Promise<T>): Promise<T> {
  try {
    return await listening;
  } catch (error) {
    const { syscall, code } = (error ?? {}) as NodeJS.ErrnoException;
    if (syscall !== 'getaddrinfo') throw error;
    throw new ConfigError([{ variable: 'HOST', problem: `must be an address of this machine or a name for one, not "${host}" (${code})` }]);
  }
}
