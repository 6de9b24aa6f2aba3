import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Log } from '../log.ts';
import { connectRedis } from './redis-client.ts';

/** Five failed sign-ins within fifteen minutes lock an account, and an address, until the window ends. */
export const SIGN_IN_ATTEMPTS = 5;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/**
 * One sign-in attempt's turn: admitted with a point taken from the account and from the address, or refused
 * with the seconds until it may try again. A failed check keeps the points; `succeeded` gives them back.
 */
export type SignInTurn =
  | { admitted: true; succeeded(): Promise<void> }
  | { admitted: false; retryAfter: number };

export type SignInLimiter = {
  /** Takes this attempt's point before the secret is checked, so parallel guesses cannot all pass one stale count. */
  take(account: string, ip: string): Promise<SignInTurn>;
  /** Resolves once the shared store answers (at once in memory); until then counts go to process memory. */
  ready(): Promise<void>;
  close(): Promise<void>;
};

type Counted = { key: string; res: RateLimiterRes; refused: boolean };

/** One atomic count (rate-limiter-flexible's consume: a Lua script in Redis, synchronous in memory). */
async function count(limiter: RateLimiterAbstract, key: string): Promise<Counted> {
  try {
    return { key, res: await limiter.consume(key), refused: false };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { key, res: rejection, refused: true };
    throw rejection;
  }
}

/**
 * Sign-in attempts counted per account and per client address with rate-limiter-flexible: in Redis when
 * REDIS_URL is set, so every instance sees the same count, in process memory otherwise (and while Redis
 * does not answer). Every attempt takes its point before the password is checked and only a correct one
 * gives it back (as the pre-authentication rate limit does for a key that authenticates): a count read first
 * and written after the slow password hash would let a burst of parallel guesses through together.
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
  // Losing a give-back (Redis gone mid-request) only leaves a point counted: never worth failing the sign-in.
  const giveBack = (key: string) => limiter.reward(key).catch(() => undefined);
  return {
    async take(account, ip) {
      const accountKey = `account:${account.trim().toLowerCase().slice(0, 254)}`;
      const counted = await Promise.all([count(limiter, accountKey), count(limiter, `ip:${ip}`)]);
      const refused = counted.filter((c) => c.refused);
      if (refused.length > 0) {
        // Nothing is checked, so a count that admitted this attempt gets its point back.
        await Promise.all(counted.filter((c) => !c.refused).map((c) => giveBack(c.key)));
        return { admitted: false, retryAfter: Math.max(1, ...refused.map((c) => Math.ceil(c.res.msBeforeNext / 1000))) };
      }
      return {
        admitted: true,
        // A correct password clears the account's count; the address keeps the failures it had before.
        async succeeded() {
          await Promise.all([limiter.delete(accountKey).catch(() => undefined), giveBack(`ip:${ip}`)]);
        },
      };
    },
    ready: async () => { await redis?.ready(); },
    close: async () => { await redis?.close(); },
  };
}
