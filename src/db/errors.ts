/** The SQLSTATE PostgreSQL reported, whichever driver (and Drizzle wrapper) carries it. */
function hasSqlState(error: unknown, state: string): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === state) return true;
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
