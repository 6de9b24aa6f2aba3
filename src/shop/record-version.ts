import { hash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';

/** A table whose rows are single records with an `id` (products, pages, orders, …). */
export type VersionedTable = PgTable & { id: AnyPgColumn };

/**
 * The row version PostgreSQL keeps itself: `xmin`, the transaction that wrote this version of the row. Every
 * write of the row makes a new version with a new xmin, whether or not that write remembered to touch updatedAt
 * (a sale's stock decrement does not), and a lock alone (SELECT … FOR UPDATE) leaves it as it is. Being a column,
 * it is read by the same statement as the record, so a read needs neither a second query nor a transaction to
 * give the token of what it shows. The same holds in PGlite, which is PostgreSQL.
 */
export function rowVersion(table: PgTable): SQL<string> {
  return sql<string>`${table}.xmin::text`;
}

/**
 * The version token of a row: its id and xmin digested, so the token is opaque (it does not tell a reader how
 * many transactions the database has run) and differs between records. Strong; compare it, never parse it. One-shot
 * hashing: products.get computes one per request, and a Hash object per call costs about twice as much.
 */
export function versionToken(id: string, xmin: string): string {
  return hash('sha256', `${id}:${xmin}`, 'base64url').slice(0, 22);
}

/**
 * The current version token of record `id`, or undefined when there is no such row. With `lock`, the row stays
 * locked until the transaction ends, so a comparison against it holds for the write that follows.
 */
export async function currentVersion(db: Queryable, table: VersionedTable, id: string, options: { lock?: boolean } = {}): Promise<string | undefined> {
  const query = db.select({ xmin: rowVersion(table) }).from(table as PgTable).where(eq(table.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ? versionToken(id, row.xmin) : undefined;
}
