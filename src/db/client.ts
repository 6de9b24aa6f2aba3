import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/**
 * The one database type app code sees, whichever driver is underneath. Without the schema: nothing uses Drizzle's
 * relational `db.query` API, and a database handed the schema builds one query builder per table for every
 * transaction it opens.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle has the same query surface as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Where a query may run: the database itself or an open transaction. */
export type Queryable = Db | Tx;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the committed migrations in drizzle/; safe to call from several instances at once. */
  migrate(): Promise<void>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Embedded only: how many entries of an existing data directory other users could read before this start. */
  loosenedEntries?: number;
};

export type DatabaseOptions = {
  /** `postgres://…`; unset → embedded PGlite. */
  url?: string | undefined;
  /** PGlite data directory; unset with no url → in memory (tests). */
  dataDir?: string | undefined;
  /** PostgreSQL schema to live in (tests give every app its own). Default: the server's search_path. */
  schemaName?: string | undefined;
  poolSize?: number;
  /** Server-side limit per statement; the client gives up one second later if the server stays silent. */
  statementTimeoutMs?: number;
  /** How long a caller waits for a pooled connection (or a new one) before the request fails with 503. */
  acquireTimeoutMs?: number;
  /** Shown in pg_stat_activity; lets operators (and the fault tests) tell Butik's connections apart. */
  applicationName?: string;
  /** PGlite only: the memory budget its buffers and work memory are derived from (embedded-settings.ts). */
  embeddedMemoryBytes?: number;
};

/**
 * Each driver is loaded only when its database is opened: a shop on PostgreSQL never loads the embedded engine,
 * and an embedded one never loads `pg` (whose first load also loads Node's fetch implementation, about 70 ms of
 * every embedded start).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const { openPostgres } = await import('./open-postgres.ts');
    return openPostgres(options.url, options);
  }
  const { openPglite } = await import('./open-pglite.ts');
  return openPglite(options.dataDir, options.embeddedMemoryBytes);
}
