import pg from 'pg';
import { CHANNEL } from './change-feed.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { ReadCache } from './read-cache.ts';

const RECONNECT_MS = 1_000;

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
