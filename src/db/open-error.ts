/** The database cannot be opened at start-up; the message says why in words an operator can act on. */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

type DriverError = { code?: unknown; message?: unknown };

/**
 * CLI and `serve` print this instead of Drizzle's "Failed query: select 1": the real cause, and the command
 * that fixes it where there is one. The URL is shown without its password.
 */
export function describeConnectFailure(error: unknown, url: string): DatabaseOpenError {
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.replace(/^\//, '')) || target.username || 'postgres';
  const user = decodeURIComponent(target.username) || 'the current user';
  const at = `${target.hostname}:${target.port || '5432'}`;
  const cause = rootCause(error);
  const code = typeof cause.code === 'string' ? cause.code : '';
  const detail = typeof cause.message === 'string' ? cause.message : String(error);
  switch (code) {
    case '3D000':
      return new DatabaseOpenError(`database "${database}" does not exist — create it with createdb ${database} (or point DATABASE_URL at an existing one)`);
    case '28P01':
    case '28000':
      return new DatabaseOpenError(`PostgreSQL at ${at} refused the login of ${user}: ${detail}. Check the user and password in DATABASE_URL.`);
    case 'ECONNREFUSED':
      return new DatabaseOpenError(`cannot connect to PostgreSQL at ${at}: connection refused. Is PostgreSQL running and listening there?`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new DatabaseOpenError(`cannot connect to PostgreSQL: the host "${target.hostname}" is not known.`);
    default:
      return new DatabaseOpenError(`cannot use PostgreSQL at ${at}, database "${database}": ${detail}`);
  }
}

function rootCause(error: unknown): DriverError {
  let current: unknown = error;
  for (let depth = 0; depth < 8; depth += 1) {
    if (!current || typeof current !== 'object') break;
    const next: { cause?: unknown } = current;
    if (!next.cause || typeof next.cause !== 'object') return current;
    current = next.cause;
  }
  return current && typeof current === 'object' ? current : {};
}
