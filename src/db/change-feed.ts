import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { ReadCache } from './read-cache.ts';

/** The channel the settings and feature_flags triggers notify on (see the shop_config_notify migration). */
const CHANNEL = 'butik_shop_config';
const RECONNECT_MS = 1_000;

/** Stops a change feed; the cache goes dead with it. */
export type ChangeFeed = { stop(): Promise<void> };

/**
 * PostgreSQL: LISTEN on a connection of its own. Any notice drops the cache (one from another schema on the same
 * database only costs a reread). The cache is live only while the connection listens: when it drops, every read
 * goes to the database until it is back, because a change made meanwhile would go unnoticed.
 */
export function listenOnPostgres(url: string, cache: ReadCache, applicationName: string): ChangeFeed {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = () => {
    cache.setLive(false);
    const gone = client;
    client = undefined;
    gone?.end().catch(() => {});
    if (!stopped && !retry) retry = setTimeout(connect, RECONNECT_MS).unref();
  };
  function connect(): void {
    retry = undefined;
    if (stopped) return;
    const listener = new pg.Client({ connectionString: url, application_name: `${applicationName} config feed`, keepAlive: true });
    client = listener;
    listener.on('error', () => { if (client === listener) lost(); });
    listener.on('end', () => { if (client === listener) lost(); });
    listener.on('notification', () => cache.invalidate());
    listener.connect()
      .then(() => listener.query(`listen ${CHANNEL}`))
      .then(() => { if (client === listener && !stopped) cache.setLive(true); })
      .catch(() => { if (client === listener) lost(); });
  }
  connect();
  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      cache.setLive(false);
      const open = client;
      client = undefined;
      await open?.end().catch(() => {});
    },
  };
}

/**
 * PGlite: one process owns the data directory, so nothing but this process writes; its listen still catches every
 * writer in it (audit.revert and an import write the rows without saying so).
 */
export async function listenOnPglite(client: PGlite, cache: ReadCache): Promise<ChangeFeed> {
  const unlisten = await client.listen(CHANNEL, () => cache.invalidate());
  cache.setLive(true);
  return {
    async stop() {
      cache.setLive(false);
      await unlisten();
    },
  };
}
