import type { Redis } from 'ioredis';
import type { Log } from '../log.ts';
import { newRedis } from './redis-driver.ts';

/** How long a request may wait on Redis before it is counted in process memory instead. */
const COMMAND_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 2_000;
/** Reconnect forever, backing off to one attempt every two seconds. */
const MAX_RECONNECT_DELAY_MS = 2_000;

export type RedisConnection = {
  client: Redis;
  /** True while commands can be sent. */
  isReady(): boolean;
  /** Resolves once connected; rejects on the first connection error or when connecting times out. */
  ready(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A Redis client for rate-limit counters that never makes a request wait for it: no offline queue
 * (a command while disconnected fails at once), short timeouts, no retries of a command that was in
 * flight (it would be counted twice), and reconnection without end. Every failure is the caller's cue
 * to count in memory instead.
 */
export function connectRedis(url: string, log: Log): RedisConnection {
  const client = newRedis(url, {
    enableOfflineQueue: false,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
  });
  // One warning per outage, not one per reconnect attempt; the address never carries the password.
  let outage = true;
  let warned = false;
  const target = redactedAddress(url);
  client.on('ready', () => {
    if (outage) log.info({ redis: target }, 'rate-limit counters in Redis');
    outage = false;
    warned = false;
  });
  client.on('error', (error: Error) => {
    outage = true;
    if (warned) return;
    warned = true;
    log.warn({ redis: target, reason: error.message }, 'Redis unreachable: rate limits count in process memory until it is back');
  });
  client.on('close', () => { outage = true; });

  return {
    client,
    isReady: () => client.status === 'ready',
    ready() {
      const timeoutMs = CONNECT_TIMEOUT_MS + 1_000;
      if (client.status === 'ready') return Promise.resolve();
      return new Promise((resolve, reject) => {
        const settle = (error?: Error) => {
          clearTimeout(timer);
          client.off('ready', onReady);
          client.off('error', onError);
          if (error) reject(error);
          else resolve();
        };
        const onReady = () => settle();
        const onError = (error: Error) => settle(new Error(`Redis at ${target} did not answer: ${error.message}`));
        const timer = setTimeout(() => settle(new Error(`Redis at ${target} did not answer within ${timeoutMs} ms`)), timeoutMs);
        client.once('ready', onReady);
        client.once('error', onError);
      });
    },
    async close() {
      if (client.status === 'ready') {
        await client.quit().catch(() => client.disconnect());
      } else {
        client.disconnect();
      }
    },
  };
}

function redactedAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}
