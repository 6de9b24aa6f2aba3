import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { createCircuitBreaker } from './circuit-breaker.ts';
import type { Log } from '../log.ts';
import type { RateLimitBackend } from './rate-limit.ts';
import { connectRedis } from './redis-client.ts';

export type RedisBackendOptions = {
  url: string;
  /** Namespaces every counter (`<keyPrefix>:rl:<policy>:<subject>`), so deployments and tests sharing a Redis stay apart. */
  keyPrefix: string;
  windowSeconds: number;
  log: Log;
};

/** Three timeouts in a row open the circuit; a probe goes to Redis every five seconds after that. */
const CIRCUIT = { threshold: 3, coolDownMs: 5_000 };

/**
 * Counters shared by every instance: one atomic Lua script per request in Redis
 * (SET NX EX starts the window, INCRBY counts, PTTL tells the reset).
 * While Redis does not answer, each instance counts in its own memory, so requests keep being served and
 * limited. A Redis that is down fails each command at once; one that hangs would cost every request the
 * command timeout, so a circuit breaker stops asking it after a few timeouts and probes it now and then.
 * It returns to Redis by itself once Redis answers again.
 */
export function redisBackend(options: RedisBackendOptions): RateLimitBackend {
  const redis = connectRedis(options.url, options.log);
  const circuit = createCircuitBreaker(CIRCUIT);
  return {
    limiterFor(policy, quota) {
      const keyPrefix = `${options.keyPrefix}:rl:${policy}`;
      const shared = new RateLimiterRedis({
        storeClient: redis.client,
        keyPrefix,
        points: quota,
        duration: options.windowSeconds,
        // Fail at once instead of waiting on a connection that is not there.
        rejectIfRedisNotReady: true,
        // A subject already refused stays refused here until its window ends, without asking Redis again.
        inMemoryBlockOnConsumed: quota + 1,
      });
      const insurance = new RateLimiterMemory({ keyPrefix, points: quota, duration: options.windowSeconds });
      return {
        async consume(subject: string | number, points?: number) {
          if (!circuit.allows()) return insurance.consume(subject, points);
          try {
            const res = await shared.consume(subject, points);
            circuit.succeeded();
            return res;
          } catch (rejection) {
            // A refusal is an answer from Redis; anything else means Redis did not answer.
            if (rejection instanceof RateLimiterRes) {
              circuit.succeeded();
              throw rejection;
            }
            circuit.failed();
            return insurance.consume(subject, points);
          }
        },
        async reward(subject: string | number, points?: number) {
          if (!circuit.allows()) return insurance.reward(subject, points);
          try {
            const res = await shared.reward(subject, points);
            circuit.succeeded();
            return res;
          } catch {
            circuit.failed();
            return insurance.reward(subject, points);
          }
        },
      };
    },
    store: () => (redis.isReady() && !circuit.isOpen() ? 'redis' : 'degraded'),
    ready: () => redis.ready(),
    close: () => redis.close(),
  };
}
