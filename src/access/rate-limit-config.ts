import type { Config } from '../config.ts';
import type { Log } from '../log.ts';
import { createRateLimiter, memoryBackend } from './rate-limit.ts';
import type { RateLimiter } from './rate-limit.ts';
import { redisBackend } from './rate-limit-redis.ts';

/** Counters in Redis when REDIS_URL is set, else in process memory. */
export function rateLimiterFromConfig(config: Config, log: Log): RateLimiter {
  const settings = { quotas: config.rateLimits, windowSeconds: config.rateWindowSeconds };
  const backend = config.redisUrl
    ? redisBackend({ url: config.redisUrl, keyPrefix: config.redisPrefix, windowSeconds: config.rateWindowSeconds, log })
    : memoryBackend(config.rateWindowSeconds);
  return createRateLimiter(settings, backend);
}
