const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
// SQLSTATEs that mean "the database is not there for this service right now", not "the query is wrong":
// - 08: connection exceptions; 53300 too many clients, 53100 disk full (not 53200 / 53400, out of memory or a
//   limit reached by one statement, which a retry would only repeat);
// - 57P: the server shutting down, starting up, the database dropped (57P01-57P05); 57014: statement timeout;
// - refused logins: 3D000 the database does not exist (dropped), 28000 / 28P01 the role or password no longer
//   accepted; 55000 is also "not currently accepting connections" (ALLOW_CONNECTIONS false).
const UNAVAILABLE_SQLSTATES = new Set(['57014', '3D000', '28000', '28P01', '53300', '53100']);
const UNAVAILABLE_CLASSES = ['08', '57P'];
const NOT_ACCEPTING_CONNECTIONS = 'not currently accepting connections';
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Connection is not established',
  'Client has encountered a connection error',
  'Driver not Connected',
  'Query read timeout',
];

// The schema lacks what the query names: a table, column, type or schema (42P01, 42703, 42704, 3F000).
const SCHEMA_MISSING_SQLSTATES = new Set(['42P01', '42703', '42704', '3F000']);

/** True when an error says the database is unreachable (503), as opposed to a bug (500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return someCause(error, (code, message) => {
    if (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_CLASSES.some((prefix) => code.startsWith(prefix))) return true;
    if (code === '55000' && message.includes(NOT_ACCEPTING_CONNECTIONS)) return true;
    return CONNECTION_MESSAGES.some((text) => message.includes(text));
  });
}

/**
 * True when the database's schema is missing what this build needs: migrations are pending (a production start
 * before `npm run migration:run`, or a rollback of the database without the code). The service cannot answer
 * until an operator applies them: 503, not 500, like a database that is not there.
 */
export function isSchemaMissing(error: unknown): boolean {
  return someCause(error, (code) => SCHEMA_MISSING_SQLSTATES.has(code));
}

/** Whether the error, or one of its causes (TypeORM wraps pg's error as driverError), passes the test. */
function someCause(error: unknown, test: (code: string, message: string) => boolean): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    const code = typeof candidate.code === 'string' ? candidate.code : '';
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if (test(code, message)) return true;
    current = candidate.driverError ?? candidate.cause;
  }
  return false;
}
