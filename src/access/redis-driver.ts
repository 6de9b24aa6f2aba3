import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';

const requireAtRunTime = createRequire(import.meta.url);

/**
 * A new ioredis client. The library is loaded by the first client rather than at start: only a deployment with
 * REDIS_URL makes one, and evaluating ioredis cost every start about 40 ms. A require inside a function is how a
 * CommonJS library loads on first use without making every caller async; it runs at run time, so the bundle
 * leaves ioredis to node_modules.
 */
export function newRedis(url: string, options: IORedis.RedisOptions): IORedis.Redis {
  const { Redis } = requireAtRunTime('ioredis') as typeof IORedis;
  return new Redis(url, options);
}
