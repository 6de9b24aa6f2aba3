import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { listenOnPostgres } from './change-feed-postgres.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { Database, DatabaseOptions, Db } from './client.ts';
import { migrationsFolder } from './migrations-folder.ts';
import { releaseClientsWhoseBeginFails } from './release-failed-begin.ts';
import { describeConnectFailure } from './open-error.ts';
import { attachReadCache } from './read-cache.ts';

/** Any constant works; it only has to be the same for every Butik instance. */
const MIGRATION_LOCK = 0x627574696b;
const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
const DEFAULT_ACQUIRE_TIMEOUT_MS = 5_000;

/** PostgreSQL through a `pg` pool; migrations run on a connection of their own under an advisory lock. */
export async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
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
  releaseClientsWhoseBeginFails(pool);
  const typed = drizzle(pool);
  const db = typed as unknown as Db;
  const cache = attachReadCache(db);
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
        await migrate(drizzle(lock), { migrationsFolder, migrationsSchema });
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
