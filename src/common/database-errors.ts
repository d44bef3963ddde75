const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
// SQLSTATE classes and codes that mean "the database is not there right now", not "your query is wrong".
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Connection is not established',
  'Client has encountered a connection error',
  'Driver not Connected',
  'Query read timeout',
];

/** True when an error says the database is unreachable (503), as opposed to a bug (500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    const code = typeof candidate.code === 'string' ? candidate.code : '';
    if (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) return true;
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if (CONNECTION_MESSAGES.some((text) => message.includes(text))) return true;
    current = candidate.driverError ?? candidate.cause;
  }
  return false;
}
