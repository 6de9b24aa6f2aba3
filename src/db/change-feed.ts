import type { PGlite } from '@electric-sql/pglite';
import type { ReadCache } from './read-cache.ts';

/** The channel the settings and feature_flags triggers notify on (see the shop_config_notify migration). */
export const CHANNEL = 'butik_shop_config';

/** Stops a change feed; the cache is distrusted with it. */
export type ChangeFeed = { stop(): Promise<void> };

/**
 * PGlite: one process owns the data directory, so nothing but this process writes; its listen still catches every
 * writer in it (audit.revert and an import write the rows without saying so).
 */
export async function listenOnPglite(client: PGlite, cache: ReadCache): Promise<ChangeFeed> {
  const unlisten = await client.listen(CHANNEL, () => cache.invalidate());
  cache.trustUntil(Number.POSITIVE_INFINITY);
  return {
    async stop() {
      cache.distrust();
      await unlisten();
    },
  };
}
