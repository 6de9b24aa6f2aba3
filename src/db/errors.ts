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

/** Members of drivers' and Drizzle's errors that carry SQL text, its parameters or row values. */
const UNLOGGABLE = new Set(['query', 'params', 'parameters', 'detail', 'where', 'hint', 'internalQuery', 'queryOptions']);
/**
 * SQLSTATE classes whose messages name only the schema (a constraint, a column, a lock): connection, integrity,
 * transaction state, rollback, syntax or access, resources, object state, operator intervention. Others, data
 * exceptions (class 22) first, may quote the offending value.
 */
const PLAIN_MESSAGE_CLASSES = new Set(['08', '23', '25', '40', '42', '53', '55', '57']);
const SQLSTATE = /^[0-9A-Z]{5}$/;
const MAX_CAUSES = 4;

/** An error as a log line carries it (the shape pino's own serializer gives). */
export type LoggedError = { type: string; message: string; stack: string; [member: string]: unknown };

/** The database's or the driver's failure in an error's causes: Drizzle wraps it with the SQL and its parameters. */
function databaseFailure(error: unknown): LoggedError | undefined {
  for (const e of causes(error)) {
    const code = typeof e.code === 'string' ? e.code : undefined;
    const driverMessage = isDriverMessage(e.message) && typeof e.message === 'string' ? e.message : undefined;
    if (code !== undefined && SQLSTATE.test(code)) {
      const summary = `SQLSTATE ${code}`;
      const message = PLAIN_MESSAGE_CLASSES.has(code.slice(0, 2)) && typeof e.message === 'string' ? e.message : summary;
      const constraint = 'constraint' in e && typeof e.constraint === 'string' ? { constraint: e.constraint } : {};
      return { type: 'DatabaseError', code, message, stack: summary, ...constraint };
    }
    if ((code !== undefined && UNAVAILABLE_SOCKET_CODES.has(code)) || driverMessage !== undefined) {
      const message = driverMessage ?? code ?? 'database unavailable';
      return { type: 'DatabaseError', ...(code !== undefined ? { code } : {}), message, stack: message };
    }
  }
  return undefined;
}

/**
 * The `err` serializer of every log line (set once on the logger, so no route can forget it). A database
 * error is logged by its SQLSTATE and constraint, with the driver's message only where it cannot quote a value;
 * any other error keeps its type, message, stack and plain members, minus anything that could hold SQL or its
 * parameters, down its causes.
 */
export function logSafeError(error: unknown, depth = 0): LoggedError {
  const database = databaseFailure(error);
  if (database) return database;
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  const members = Object.entries(error).filter(([name, value]) => !UNLOGGABLE.has(name) && value !== null && typeof value !== 'object');
  // Drizzle's wrapper writes the statement and its parameters into its message, and so into its stack.
  const withheld = error.message.startsWith('Failed query');
  const message = withheld ? 'Failed query (the statement is not logged)' : error.message;
  return {
    ...Object.fromEntries(members),
    type: error.constructor.name,
    message,
    stack: withheld ? message : error.stack ?? message,
    ...(error.cause !== undefined && depth < MAX_CAUSES ? { cause: logSafeError(error.cause, depth + 1) } : {}),
  };
}

function isDriverMessage(message: unknown): boolean {
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.startsWith(m));
}
