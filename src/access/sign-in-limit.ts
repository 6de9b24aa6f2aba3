import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Log } from '../log.ts';
import { connectRedis } from './redis-client.ts';

/** Five failed sign-ins within fifteen minutes lock an account, and an address, until the window ends. */
export const SIGN_IN_ATTEMPTS = 5;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

export type SignInLimiter = {
  /** Seconds until this e-mail or address may try again, or 0 when it may try now. */
  retryAfter(email: string, ip: string): Promise<number>;
  failed(email: string, ip: string): Promise<void>;
  /** A correct password clears the account's count (the address keeps its own). */
  succeeded(email: string): Promise<void>;
  close(): Promise<void>;
};

/**
 * Failed sign-ins counted per account and per client address with rate-limiter-flexible: in Redis when
 * REDIS_URL is set, so every instance sees the same count, in process memory otherwise (and while Redis
 * does not answer).
 */
export function signInLimiter(options: { redisUrl: string | undefined; prefix: string; log: Log }): SignInLimiter {
  const settings = { points: SIGN_IN_ATTEMPTS, duration: SIGN_IN_WINDOW_SECONDS };
  const redis = options.redisUrl ? connectRedis(options.redisUrl, options.log) : undefined;
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({
      ...settings,
      storeClient: redis.client,
      keyPrefix: `${options.prefix}:signin`,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ ...settings, keyPrefix: `${options.prefix}:signin` }),
    })
    : new RateLimiterMemory({ ...settings, keyPrefix: 'signin' });
  const keys = (email: string, ip: string) => [`account:${email.trim().toLowerCase().slice(0, 254)}`, `ip:${ip}`];
  return {
    async retryAfter(email, ip) {
      const states = await Promise.all(keys(email, ip).map((key) => limiter.get(key).catch(() => null)));
      const waits = states.map((state) => (state && state.consumedPoints >= SIGN_IN_ATTEMPTS ? Math.ceil(state.msBeforeNext / 1000) : 0));
      return Math.max(0, ...waits);
    },
    async failed(email, ip) {
      // A refusal only means the count is already at its limit.
      await Promise.all(keys(email, ip).map((key) => limiter.consume(key).catch(() => undefined)));
    },
    async succeeded(email) {
      const [account = ''] = keys(email, '');
      await limiter.delete(account).catch(() => undefined);
    },
    close: async () => { await redis?.close(); },
  };
}
