import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { listenOnPglite, listenOnPostgres } from './change-feed.ts';
import type { ChangeFeed } from './change-feed.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { chooseEngineCompiler, DEFAULT_EMBEDDED_MEMORY_BYTES, embeddedStartParams } from './embedded-settings.ts';
import { createPrivateDir, restrictToOwner } from './data-dir-mode.ts';
import { describeConnectFailure } from './open-error.ts';
import { ReadCache, attachReadCache } from './read-cache.ts';
import * as schema from './schema.ts';

const migrationsFolder = findMigrationsFolder(dirname(fileURLToPath(import.meta.url)));
/** Any constant works; it only has to be the same for every Butik instance. */
const MIGRATION_LOCK = 0x627574696b;

/** The one database type app code sees, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
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

const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
const DEFAULT_ACQUIRE_TIMEOUT_MS = 5_000;

/** drizzle/ of the checkout this code runs from: two levels up from src/db/, one from the bundle in dist/. */
function findMigrationsFolder(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const folder = join(dir, 'drizzle');
    if (existsSync(join(folder, 'meta', '_journal.json'))) return folder;
    if (dirname(dir) === dir) throw new Error(`no drizzle/ migrations folder above ${from}`);
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url
    ? openPostgres(options.url, options)
    : openPglite(options.dataDir, options.embeddedMemoryBytes ?? DEFAULT_EMBEDDED_MEMORY_BYTES);
}

async function openPglite(dataDir: string | undefined, memoryBytes: number): Promise<Database> {
  let dir: string | undefined;
  let unlock = () => {};
  let loosenedEntries = 0;
  if (dataDir) {
    createPrivateDir(dataDir);
    loosenedEntries = restrictToOwner(dataDir);
    unlock = lockDataDir(dataDir);
    dir = join(dataDir, 'pgdata');
    createPrivateDir(dir);
  }
  let client: PGlite;
  try {
    chooseEngineCompiler(memoryBytes);
    client = await PGlite.create(dir, {
      extensions: { pg_trgm },
      startParams: embeddedStartParams(PGlite.defaultStartParams, memoryBytes),
    });
  } catch (error) {
    unlock();
    throw error;
  }
  // A first start has just written the cluster's files 0666; they become the owner's before anything is served.
  if (dataDir) restrictToOwner(dataDir);
  const typed = drizzlePglite(client, { schema });
  const db = typed as unknown as Db;
  const cache = new ReadCache();
  attachReadCache(db, cache);
  let feed: ChangeFeed | undefined;
  return {
    db,
    kind: 'pglite',
    async migrate() {
      await migratePglite(typed, { migrationsFolder });
      // Only now do the triggers that feed the cache exist.
      feed ??= await listenOnPglite(client, cache);
    },
    ping: async () => { await client.query('select 1'); },
    close: async () => {
      await feed?.stop();
      await client.close().finally(unlock);
    },
    loosenedEntries,
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const searchPath = options.schemaName ? `-c search_path=${options.schemaName},public` : undefined;
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeoutMs,
    // A frozen server (or network) never answers, so statement_timeout cannot fire: give up client-side too.
    query_timeout: statementTimeoutMs + 1_000,
    application_name: options.applicationName ?? 'butik',
    ...(searchPath ? { options: searchPath } : {}),
  });
  // A connection that loses its server (pg_terminate_backend, a restart, a failover) emits 'error': the pool
  // listens while the client is idle, but a client checked out for a transaction has no listener of the
  // pool's, and an unhandled 'error' event would end the process. The query in flight fails on its own and
  // the request answers 503; the broken client is not queryable, so the pool drops it on release.
  pool.on('error', () => {});
  pool.on('connect', (client) => { client.on('error', () => {}); });
  const typed = drizzlePg(pool, { schema });
  const db = typed as unknown as Db;
  const cache = new ReadCache();
  attachReadCache(db, cache);
  let feed: ChangeFeed | undefined;
  try {
    await pool.query('select 1');
    if (options.schemaName) await pool.query(`create schema if not exists "${options.schemaName}"`);
  } catch (error) {
    await pool.end().catch(() => {});
    throw describeConnectFailure(error, url);
  }
  const migrationsSchema = options.schemaName ?? 'drizzle';
  return {
    db,
    kind: 'postgres',
    async migrate() {
      // A connection of its own, without the pool's per-statement timeouts: a migration may rewrite or backfill
      // the products table, which at a large catalog takes longer than any request may.
      const lock = new pg.Client({
        connectionString: url,
        application_name: `${options.applicationName ?? 'butik'} migrate`,
        ...(searchPath ? { options: searchPath } : {}),
      });
      lock.on('error', () => {});
      await lock.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        // On the connection that holds the lock, so the lock covers every statement.
        await migratePg(drizzlePg(lock, { schema }), { migrationsFolder, migrationsSchema });
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        await lock.end().catch(() => {});
      }
      // Only now do the triggers that feed the cache exist.
      feed ??= listenOnPostgres(url, cache, options.applicationName ?? 'butik');
    },
    ping: async () => { await pool.query('select 1'); },
    close: async () => {
      await feed?.stop();
      await pool.end();
    },
  };
}
