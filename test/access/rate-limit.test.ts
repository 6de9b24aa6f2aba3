import { describe, expect, it } from 'vitest';
import { closestToExhaustion, createRateLimiter, rateLimitHeaders, retryAfterSeconds } from '../../src/access/rate-limit.ts';
import type { PolicyName, RateLimitState } from '../../src/access/rate-limit.ts';
import { loadConfig } from '../../src/config.ts';

function state(policy: PolicyName, quota: number, remaining: number, resetSeconds = 30, exceeded = false): RateLimitState {
  return { policy, quota, remaining, resetSeconds, exceeded };
}

describe('closest to exhaustion', () => {
  it('names the policy with the smallest remaining fraction, not the smallest remainder', () => {
    // preauth 50/120 ≈ 0.42 is closer to exhaustion than key 300/600 = 0.5.
    expect(closestToExhaustion([state('preauth', 120, 50), state('key', 600, 300)])?.policy).toBe('preauth');
    // key 20/600 ≈ 0.03 beats preauth 10/120 ≈ 0.08 even though 20 > 10.
    expect(closestToExhaustion([state('preauth', 120, 10), state('key', 600, 20)])?.policy).toBe('key');
  });

  it('breaks a tie of fractions by the smaller remainder', () => {
    expect(closestToExhaustion([state('preauth', 120, 60), state('key', 10, 5)])?.policy).toBe('key');
    expect(closestToExhaustion([state('key', 10, 5), state('preauth', 120, 60)])?.policy).toBe('key');
  });

  it('names the exhausted policy that resets last when several are used up', () => {
    const picked = closestToExhaustion([state('preauth', 120, 0, 40), state('key', 600, 0, 12, true)]);
    expect(picked).toMatchObject({ policy: 'preauth', resetSeconds: 40 });
  });
});

describe('rate-limit headers', () => {
  it('writes the structured pair and the legacy trio for the chosen policy', () => {
    expect(rateLimitHeaders([state('preauth', 120, 119, 60), state('key', 600, 599, 60)], 60)).toEqual({
      'ratelimit-policy': '"preauth";q=120;w=60',
      ratelimit: '"preauth";r=119;t=60',
      'ratelimit-limit': '120',
      'ratelimit-remaining': '119',
      'ratelimit-reset': '60',
    });
  });

  it('adds Retry-After only to a refusal, covering every used-up policy', () => {
    const refused = [state('preauth', 120, 0, 45), state('key', 600, 0, 10, true)];
    expect(rateLimitHeaders(refused, 60)['retry-after']).toBe('45');
    expect(retryAfterSeconds(refused)).toBe(45);
    expect(rateLimitHeaders([state('anon', 60, 0, 5)], 60)['retry-after']).toBeUndefined();
  });
});

describe('the in-memory limiter', () => {
  it('counts each policy and subject apart and refuses the request after the quota', async () => {
    const limiter = createRateLimiter({ quotas: { anon: 2, preauth: 3, key: 1, ucp: 1 }, windowSeconds: 60 });
    const anon = [await limiter.consume('anon', '10.0.0.1'), await limiter.consume('anon', '10.0.0.1'), await limiter.consume('anon', '10.0.0.1')];
    expect(anon.map((s) => [s.remaining, s.exceeded])).toEqual([[1, false], [0, false], [0, true]]);
    expect(anon[2]?.resetSeconds).toBeGreaterThanOrEqual(59);
    expect(await limiter.consume('anon', '10.0.0.2')).toMatchObject({ policy: 'anon', quota: 2, remaining: 1, exceeded: false });
    expect(await limiter.consume('preauth', '10.0.0.1')).toMatchObject({ policy: 'preauth', quota: 3, remaining: 2, exceeded: false });
    expect(limiter.store()).toBe('memory');
    await limiter.close();
  });
});

describe('configuration', () => {
  it('defaults to the documented quotas, a 60 s window and the "butik" Redis prefix', () => {
    const config = loadConfig({});
    expect(config.rateLimits).toEqual({ anon: 60, preauth: 120, key: 600, ucp: 600 });
    expect(config.rateWindowSeconds).toBe(60);
    expect(config.redisUrl).toBeUndefined();
    expect(config.redisPrefix).toBe('butik');
  });

  it('reads BUTIK_RATE_LIMITS, BUTIK_RATE_WINDOW_S and BUTIK_REDIS_PREFIX', () => {
    const config = loadConfig({ BUTIK_RATE_LIMITS: 'key:5,anon:7', BUTIK_RATE_WINDOW_S: '2', BUTIK_REDIS_PREFIX: 'shop-a' });
    expect(config.rateLimits).toEqual({ anon: 7, preauth: 120, key: 5, ucp: 600 });
    expect(config.rateWindowSeconds).toBe(2);
    expect(config.redisPrefix).toBe('shop-a');
  });

  it('rejects a Redis prefix with spaces or wildcards', () => {
    expect(() => loadConfig({ BUTIK_REDIS_PREFIX: 'a b*' })).toThrow(/BUTIK_REDIS_PREFIX/);
  });
});
