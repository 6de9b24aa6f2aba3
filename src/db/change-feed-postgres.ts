import pg from 'pg';
import { CHANNEL } from './change-feed.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { ReadCache } from './read-cache.ts';

export type FeedTiming = {
  /** How long after one heartbeat is answered the next is sent. */
  heartbeatMs: number;
  /** How long a heartbeat may go unanswered before the connection is given up and a new one opened. */
  answerWithinMs: number;
  /** How long after losing the connection the feed tries again. */
  reconnectMs: number;
};

const DEFAULT_TIMING: FeedTiming = { heartbeatMs: 1_000, answerWithinMs: 10_000, reconnectMs: 1_000 };
/** An answered heartbeat vouches for the cache this many heartbeat intervals from when it was sent. */
const HEARTBEATS_PER_LEASE = 3;

/**
 * PostgreSQL: LISTEN on a connection of its own. Any notice drops the cache (one from another schema on the same
 * database only costs a reread). The connection vouches for the cache only as far as it has shown itself alive:
 * - when it drops (pg_terminate_backend, a restart, a failover), every read goes to the database until a new
 *   one listens, because a change made meanwhile would go unnoticed;
 * - a connection can also die without a word (a firewall forgets it, the server's host vanishes), so it answers a
 *   heartbeat every second. An answer proves every notice sent before the heartbeat has been heard: PostgreSQL
 *   hands a listener its pending notices before it runs the next statement on that connection. Each answer
 *   extends the cache's lease to three seconds from when the heartbeat was sent; a lease that runs out sends
 *   every read to the database, even while the process is too busy to notice that anything is wrong.
 */
export function listenOnPostgres(url: string, cache: ReadCache, applicationName: string, timing = DEFAULT_TIMING): ChangeFeed {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let beat: NodeJS.Timeout | undefined;

  const lost = () => {
    cache.distrust();
    clearTimeout(beat);
    const gone = client;
    client = undefined;
    gone?.end().catch(() => {});
    if (!stopped && !retry) retry = setTimeout(connect, timing.reconnectMs).unref();
  };
  /** Runs `statement` on the listener; once answered, the cache is vouched for from when it was sent. */
  const vouchAfter = (listener: pg.Client, statement: string) => {
    const sent = performance.now();
    listener.query(statement).then(() => {
      if (client !== listener || stopped) return;
      cache.trustUntil(sent + HEARTBEATS_PER_LEASE * timing.heartbeatMs);
      beat = setTimeout(vouchAfter, timing.heartbeatMs, listener, 'select 1').unref();
    }, () => { if (client === listener) lost(); });
  };
  function connect(): void {
    retry = undefined;
    if (stopped) return;
    const listener = new pg.Client({
      connectionString: url,
      application_name: `${applicationName} config feed`,
      keepAlive: true,
      query_timeout: timing.answerWithinMs,
    });
    client = listener;
    listener.on('error', () => { if (client === listener) lost(); });
    listener.on('end', () => { if (client === listener) lost(); });
    listener.on('notification', () => cache.invalidate());
    listener.connect()
      .then(() => { if (client === listener) vouchAfter(listener, `listen ${CHANNEL}`); })
      .catch(() => { if (client === listener) lost(); });
  }
  connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(beat);
      cache.distrust();
      const open = client;
      client = undefined;
      await open?.end().catch(() => {});
    },
  };
}
