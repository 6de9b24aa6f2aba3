import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/client.ts';

/** A table whose rows are single records with an `id` (products, pages, orders, …). */
export type VersionedTable = PgTable & { id: AnyPgColumn };

/** JSON with object keys sorted, so the same stored state always gives the same text. */
function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
  }
  return value;
}

/**
 * The version token of a stored row: a digest of all its columns, so any write that changes the row changes it,
 * whether or not that write remembered to touch updatedAt (a sale's stock decrement does not). Strong and opaque.
 */
export function versionToken(row: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(canonical(row))).digest('base64url').slice(0, 22);
}

/**
 * The current version token of record `id`, or undefined when there is no such row. With `lock`, the row stays
 * locked until the transaction ends, so a comparison against it holds for the write that follows.
 */
export async function currentVersion(db: Queryable, table: VersionedTable, id: string, options: { lock?: boolean } = {}): Promise<string | undefined> {
  const query = db.select().from(table as PgTable).where(eq(table.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ? versionToken(row) : undefined;
}
