import { setImmediate as yieldTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_ATTEMPTS, signInLimiter } from '../../src/access/sign-in-limit.ts';
import type { SignInLimiter } from '../../src/access/sign-in-limit.ts';
import { uniqueRedisPrefix } from '../helpers/rate-limits.ts';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** One wrong guess as a door makes it: its turn, then a slow check that fails (the points stay taken). */
async function wrongGuess(limiter: SignInLimiter, account: string, ip: string): Promise<'checked' | 'refused'> {
  const turn = await limiter.take(account, ip);
  if (!turn.admitted) return 'refused';
  await yieldTurn();
  return 'checked';
}

const stores = [
  { name: 'process memory', redisUrl: undefined },
  ...(process.env.REDIS_URL ? [{ name: 'Redis', redisUrl: process.env.REDIS_URL }] : []),
];

describe.each(stores)('the sign-in limit in $name', ({ redisUrl }) => {
  /** A limiter whose store answers, so no count lands in the fallback memory while Redis connects. */
  async function limiter(): Promise<SignInLimiter> {
    const l = signInLimiter({ redisUrl, prefix: uniqueRedisPrefix(), log: silent });
    await l.ready();
    return l;
  }

  it('lets only five of sixty parallel guesses at one account be checked, and refuses the right password after them', async () => {
    const l = await limiter();
    try {
      const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => wrongGuess(l, 'Anna@Shop.dk', `10.7.0.${i}`)));
      expect(outcomes.filter((o) => o === 'checked')).toHaveLength(SIGN_IN_ATTEMPTS);
      const right = await l.take('anna@shop.dk', '10.7.1.1');
      expect(right.admitted).toBe(false);
      if (!right.admitted) expect(right.retryAfter).toBeGreaterThan(60);
    } finally {
      await l.close();
    }
  });

  it('lets only five parallel guesses from one address be checked, whatever accounts they name', async () => {
    const l = await limiter();
    try {
      const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => wrongGuess(l, `guess${i}@shop.dk`, '10.7.2.1')));
      expect(outcomes.filter((o) => o === 'checked')).toHaveLength(SIGN_IN_ATTEMPTS);
      // A refused attempt is not held against the account it named.
      expect((await l.take('guess29@shop.dk', '10.7.2.2')).admitted).toBe(true);
    } finally {
      await l.close();
    }
  });

  it('gives the points back on success: a correct password clears the account, the address keeps its failures', async () => {
    const l = await limiter();
    try {
      for (let i = 0; i < SIGN_IN_ATTEMPTS - 1; i += 1) await wrongGuess(l, 'olga@shop.dk', '10.7.3.1');
      const right = await l.take('olga@shop.dk', '10.7.3.1');
      if (!right.admitted) throw new Error('refused before the limit');
      await right.succeeded();
      // The address has one failure left: its four stay, the successful attempt's point came back.
      expect(await wrongGuess(l, 'other@shop.dk', '10.7.3.1')).toBe('checked');
      expect(await wrongGuess(l, 'other@shop.dk', '10.7.3.1')).toBe('refused');
      // The account's count was cleared: five more from elsewhere are checked before it locks again.
      const again = await Promise.all(Array.from({ length: 6 }, (_, i) => wrongGuess(l, 'olga@shop.dk', `10.7.4.${i}`)));
      expect(again.filter((o) => o === 'checked')).toHaveLength(SIGN_IN_ATTEMPTS);
    } finally {
      await l.close();
    }
  });
});
