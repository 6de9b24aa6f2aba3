import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANNEL } from '../../src/db/change-feed.ts';
import type { ChangeFeed } from '../../src/db/change-feed.ts';
import { listenOnPostgres } from '../../src/db/change-feed-postgres.ts';
import { ReadCache } from '../../src/db/read-cache.ts';
import { relayPostgres } from '../helpers/tcp-relay.ts';
import type { TcpRelay } from '../helpers/tcp-relay.ts';

/**
 * The feed that vouches for the settings cache, over a relay that can go silent: a connection that dies without a
 * word (no reset, no error) must not leave the cache trusted. Runs on TEST_DATABASE_URL (CI's second pass).
 */
const url = process.env.TEST_DATABASE_URL;
/** Fast heartbeats so the lease runs out in a few hundred milliseconds; the connection itself is never given up. */
const timing = { heartbeatMs: 100, answerWithinMs: 60_000, reconnectMs: 100 };

let relay: TcpRelay | undefined;
let feed: ChangeFeed | undefined;
const side: pg.Client[] = [];
afterEach(async () => {
  relay?.thaw();
  await feed?.stop();
  feed = undefined;
  for (const client of side.splice(0)) await client.end().catch(() => {});
  await relay?.close();
  relay = undefined;
});

async function direct(statement: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  side.push(client);
  await client.connect();
  return client.query(statement);
}

const notifyDirectly = () => direct(`notify ${CHANNEL}`);

/** The backends the feed listens on, as PostgreSQL sees them. */
async function feedBackends(): Promise<number[]> {
  const result = await direct("select pid from pg_stat_activity where application_name = 'butik feed test config feed'");
  return result.rows.map((row: { pid: number }) => row.pid);
}

async function feedThroughRelay(overrides: Partial<typeof timing> = {}): Promise<ReadCache> {
  if (!url) throw new Error('TEST_DATABASE_URL is unset');
  const relayed = await relayPostgres(url);
  relay = relayed.relay;
  const cache = new ReadCache();
  feed = listenOnPostgres(relayed.url, cache, 'butik feed test', { ...timing, ...overrides });
  await expect.poll(() => cache.live).toBe(true);
  return cache;
}

describe.runIf(url)('the PostgreSQL change feed', () => {
  it('drops the cache on every notice on its channel', async () => {
    const cache = await feedThroughRelay();
    const before = cache.generation;
    await notifyDirectly();
    await expect.poll(() => cache.generation).toBeGreaterThan(before);
    expect(cache.live).toBe(true);
  });

  it('stops vouching for the cache when its connection goes silent, and forgets what it held once it is back', async () => {
    const cache = await feedThroughRelay();
    relay?.freeze();
    await expect.poll(() => cache.live, { timeout: 5_000 }).toBe(false);
    // Sent while the connection is silent: held back by the relay, so this instance has not heard of it.
    const unheard = cache.generation;
    await notifyDirectly();
    expect(cache.live).toBe(false);
    relay?.thaw();
    await expect.poll(() => cache.live, { timeout: 5_000 }).toBe(true);
    expect(cache.generation).toBeGreaterThan(unheard);
  });

  it('gives up a connection that stays silent and listens on a new one', async () => {
    const cache = await feedThroughRelay({ answerWithinMs: 300 });
    const [first] = await feedBackends();
    relay?.forgetOpen();
    await expect.poll(() => cache.live, { timeout: 5_000 }).toBe(false);
    const listeningAnew = async () => {
      const backends = await feedBackends();
      return cache.live && backends.some((pid) => pid !== first);
    };
    await expect.poll(listeningAnew, { timeout: 5_000 }).toBe(true);
  });
});
