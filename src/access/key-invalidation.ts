import type { Log } from '../log.ts';
import { newRedis } from './redis-driver.ts';

/**
 * Tells every instance that a key was rotated or revoked, so each drops its cached lookup at once instead
 * of trusting it for up to KEY_CACHE_TTL_MS (the old secret must be dead at once). Over Redis
 * pub/sub when REDIS_URL is set; the cache's short lifetime stays the fallback while Redis is away.
 */
export type KeyInvalidation = {
  /** Resolves once announced (or once announcing failed, which is logged): never rejects. */
  publish(keyId: string): Promise<void>;
  /** Calls `onKey` for every key id published by any instance, this one included. */
  subscribe(onKey: (keyId: string) => void): void;
  /** Resolves once the subscription listens (or could not be made, which the cache's TTL covers). */
  listening(): Promise<void>;
  close(): Promise<void>;
};

export const localKeyInvalidation: KeyInvalidation = {
  publish: async () => {},
  subscribe: () => {},
  listening: async () => {},
  close: async () => {},
};

export function redisKeyInvalidation(options: { url: string; prefix: string; log: Log }): KeyInvalidation {
  const channel = `${options.prefix}:keys:changed`;
  // A subscribed connection can do nothing else, so publishing has a connection of its own. A message that
  // cannot be sent is not retried: it only means the cache's TTL applies.
  const settings = { maxRetriesPerRequest: 0, connectTimeout: 2_000, lazyConnect: true };
  const publisher = newRedis(options.url, settings);
  const subscriber = newRedis(options.url, settings);
  for (const client of [publisher, subscriber]) client.on('error', () => {});
  publisher.connect().catch(() => {});
  let listening: Promise<void> = Promise.resolve();
  return {
    async publish(keyId) {
      await publisher.publish(channel, keyId).then(() => {}, (error: unknown) => {
        options.log.warn({ reason: error instanceof Error ? error.message : String(error), keyId },
          'could not announce a key change; other instances honour it within the key cache lifetime');
      });
    },
    subscribe(onKey) {
      subscriber.on('message', (from: string, keyId: string) => { if (from === channel) onKey(keyId); });
      listening = subscriber.connect().then(() => subscriber.subscribe(channel)).then(() => {}, () => {});
    },
    listening: () => listening,
    async close() {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
