type ErrorLike = { code?: unknown; message?: unknown; cause?: unknown };

/** The error and its causes: Drizzle wraps the driver's error as `cause`. */
function* causes(error: unknown): Generator<ErrorLike> {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 8; depth += 1) {
    const like: ErrorLike = e;
    yield like;
    e = like.cause;
  }
}

/** The SQLSTATE PostgreSQL reported, whichever driver (and Drizzle wrapper) carries it. */
function hasSqlState(error: unknown, state: string): boolean {
  for (const e of causes(error)) if (e.code === state) return true;
  return false;
}

/**
 * SQLSTATEs and socket errors that say the database is away or overloaded, not that the request is wrong:
 * connection exceptions (class 08), an administrator or crash ending the backend (57P01–57P03), too many
 * connections (53300), a statement cancelled by statement_timeout (57014).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** node-postgres and pg-pool report these without a code. */
const UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/** True when the failure is the database's availability, which a retry later can cure (→ 503). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    if (typeof e.code === 'string' && (e.code.startsWith('08') || UNAVAILABLE_STATES.has(e.code) || UNAVAILABLE_SOCKET_CODES.has(e.code))) {
      return true;
    }
    if (isDriverMessage(e.message)) return true;
  }
  return false;
}

/** A unique violation (23505). */
export function isUniqueViolation(error: unknown): boolean {
  return hasSqlState(error, '23505');
}

/** A foreign-key violation (23503): the row is still referenced, or references a missing one. */
export function isForeignKeyViolation(error: unknown): boolean {
  return hasSqlState(error, '23503');
}

/**
 * What a log line may say about a failure. Drizzle's error message holds the SQL and its parameters
 * (customer data), so a database error is logged by its SQLSTATE, constraint and the driver's own message
 * only; any other error keeps its stack, which is what a developer needs.
 */
export function errorForLog(error: unknown): unknown {
  const database = [...causes(error)].find((e) => typeof e.code === 'string' || isDriverMessage(e.message));
  if (!database) return error;
  const { code, message } = database;
  const constraint = 'constraint' in database ? database.constraint : undefined;
  // Data exceptions (class 22) quote the offending input in their message.
  const safeMessage = typeof code === 'string' && code.startsWith('22') ? undefined : message;
  return { type: 'DatabaseError', code, message: safeMessage, ...(typeof constraint === 'string' ? { constraint } : {}) };
}

function isDriverMessage(message: unknown): boolean {
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.startsWith(m));
}
