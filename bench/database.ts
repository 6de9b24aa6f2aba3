import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';

/** Where the benchmark databases live; every profile gets a database of its own so they never clobber each other. */
export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432';

export function benchDatabaseUrl(database: string, serverUrl = process.env.BENCH_DATABASE_SERVER ?? DEFAULT_SERVER_URL): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Creates the database through the maintenance connection when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bench database name must be [a-z0-9_]+, got "${name}"`);
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

/** Creates the database if needed and applies Butik's migrations, exactly as `butik serve` would. */
export async function prepareDatabase(url: string): Promise<void> {
  await ensureDatabase(url);
  const database = await openDatabase({ url, poolSize: 2 });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
}
