/**
 * Whether a query failed because the database cannot be reached right now (refused, reset, shut down, timed out
 * connecting), whatever the driver. Like a full disk it is the operator's to fix and passes on its own, so the
 * panel answers 503 with a plain sentence instead of a 500 (http/error-handler.ts).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    if (isUnavailableItself(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The system's words for a connection that could not be made or was cut. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE']);
/**
 * PostgreSQL: connection exceptions (08xxx), admin or crash shutdown (57P01, 57P02), starting up (57P03); mysql2:
 * a lost connection, or the server going away.
 */
const DATABASE_CODES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  'PROTOCOL_CONNECTION_LOST',
  'ER_SERVER_SHUTDOWN',
  'ER_CON_COUNT_ERROR',
]);
/** node-postgres says these in words only. */
const PG_TEXT =
  /^Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/;

function isUnavailableItself(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || DATABASE_CODES.has(code))) return true;
  return typeof message === 'string' && PG_TEXT.test(message);
}
