import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { Log } from '../tools/context.ts';
import type { RateLimitBackend } from './rate-limit.ts';
import { connectRedis } from './redis-client.ts';

export type RedisBackendOptions = {
  url: string;
  /** Namespaces every counter (`<keyPrefix>:rl:<policy>:<subject>`), so deployments and tests sharing a Redis stay apart. */
  keyPrefix: string;
  windowSeconds: number;
  log: Log;
};

/**
 * Counters shared by every instance (CONTRACT §5): one atomic Lua script per request in Redis
 * (SET NX EX starts the window, INCRBY counts, PTTL tells the reset).
 * While Redis does not answer, each instance counts in its own memory (the insurance limiter), so
 * requests keep being served and limited; it returns to Redis by itself once the connection is back.
 */
export function redisBackend(options: RedisBackendOptions): RateLimitBackend {
  const redis = connectRedis(options.url, options.log);
  return {
    limiterFor(policy, quota) {
      const keyPrefix = `${options.keyPrefix}:rl:${policy}`;
      return new RateLimiterRedis({
        storeClient: redis.client,
        keyPrefix,
        points: quota,
        duration: options.windowSeconds,
        // Fail over at once instead of waiting on a connection that is not there.
        rejectIfRedisNotReady: true,
        // A subject already refused stays refused here until its window ends, without asking Redis again.
        inMemoryBlockOnConsumed: quota + 1,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix, points: quota, duration: options.windowSeconds }),
      });
    },
    store: () => (redis.isReady() ? 'redis' : 'degraded'),
    ready: () => redis.ready(),
    close: () => redis.close(),
  };
}
