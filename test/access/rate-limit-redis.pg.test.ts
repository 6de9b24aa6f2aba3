import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../src/access/rate-limit.ts';
import type { RateLimiter } from '../../src/access/rate-limit.ts';
import { redisBackend } from '../../src/access/rate-limit-redis.ts';
import { uniqueRedisPrefix } from '../helpers/rate-limits.ts';
import { startTcpRelay } from '../helpers/tcp-relay.ts';

const REDIS_URL = process.env.REDIS_URL;
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const quotas = { anon: 3, preauth: 5, key: 5, ucp: 5 };

function redisLimiter(url: string, keyPrefix: string, windowSeconds = 60): RateLimiter {
  return createRateLimiter({ quotas, windowSeconds }, redisBackend({ url, keyPrefix, windowSeconds, log: silent }));
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(20);
  }
}

describe('a Redis limiter whose Redis does not answer', () => {
  it('counts in process memory while Redis does not answer', async () => {
    const limiter = redisLimiter('redis://127.0.0.1:1', uniqueRedisPrefix());
    try {
      const states = [];
      for (let i = 0; i < 4; i += 1) states.push(await limiter.consume('anon', '10.2.0.1'));
      expect(states.map((s) => [s.remaining, s.exceeded])).toEqual([[2, false], [1, false], [0, false], [0, true]]);
      expect(limiter.store()).toBe('degraded');
      await expect(limiter.ready()).rejects.toThrow(/did not answer/);
    } finally {
      await limiter.close();
    }
  });
});

describe.runIf(REDIS_URL)('a Redis limiter (REDIS_URL)', () => {
  const url = REDIS_URL ?? '';
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
  });
  afterAll(async () => { await redis?.quit(); });

  it('shares its counters with every limiter of the same prefix, and only with those', async () => {
    const prefix = uniqueRedisPrefix();
    const [a, b, other] = [redisLimiter(url, prefix), redisLimiter(url, prefix), redisLimiter(url, uniqueRedisPrefix())];
    try {
      await Promise.all([a.ready(), b.ready(), other.ready()]);
      expect(await a.consume('anon', '10.2.1.1')).toMatchObject({ remaining: 2, exceeded: false });
      expect(await b.consume('anon', '10.2.1.1')).toMatchObject({ remaining: 1, exceeded: false });
      expect(await a.consume('anon', '10.2.1.1')).toMatchObject({ remaining: 0, exceeded: false });
      expect(await b.consume('anon', '10.2.1.1')).toMatchObject({ remaining: 0, exceeded: true });
      expect(await other.consume('anon', '10.2.1.1')).toMatchObject({ remaining: 2, exceeded: false });
      expect(await redis.get(`${prefix}:rl:anon:10.2.1.1`)).toBe('4');
    } finally {
      await Promise.all([a.close(), b.close(), other.close()]);
    }
  });

  it('counts atomically when many requests arrive at once', async () => {
    const limiter = createRateLimiter(
      { quotas: { anon: 50, preauth: 5, key: 5, ucp: 5 }, windowSeconds: 60 },
      redisBackend({ url, keyPrefix: uniqueRedisPrefix(), windowSeconds: 60, log: silent }),
    );
    try {
      await limiter.ready();
      const states = await Promise.all(Array.from({ length: 80 }, () => limiter.consume('anon', '10.2.2.1')));
      expect(states.filter((s) => !s.exceeded)).toHaveLength(50);
      expect(new Set(states.filter((s) => !s.exceeded).map((s) => s.remaining)).size).toBe(50);
    } finally {
      await limiter.close();
    }
  });

  it('starts a fixed window at the first request and reports its reset in whole seconds', async () => {
    const prefix = uniqueRedisPrefix();
    const limiter = redisLimiter(url, prefix, 2);
    try {
      await limiter.ready();
      const first = await limiter.consume('anon', '10.2.3.1');
      expect(first).toMatchObject({ remaining: 2, resetSeconds: 2 });
      const ttl = await redis.pttl(`${prefix}:rl:anon:10.2.3.1`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(2_000);
    } finally {
      await limiter.close();
    }
  });

  it('stops asking a Redis that hangs after three timeouts, counts in memory, and returns once it answers', async () => {
    const upstream = new URL(url);
    const relay = await startTcpRelay({ host: upstream.hostname, port: Number(upstream.port || 6379) });
    const prefix = uniqueRedisPrefix();
    const limiter = redisLimiter(`redis://127.0.0.1:${relay.port}${upstream.pathname}`, prefix);
    try {
      await limiter.ready();
      expect((await limiter.consume('anon', '10.2.5.1')).remaining).toBe(2);
      relay.freeze();
      const timedOut = [];
      for (let i = 0; i < 3; i += 1) timedOut.push(await limiter.consume('anon', '10.2.5.2'));
      // The connection is still up; only the circuit knows that Redis does not answer.
      expect(limiter.store()).toBe('degraded');
      const counted = [await limiter.consume('anon', '10.2.5.2')];
      expect([...timedOut, ...counted].map((s) => [s.remaining, s.exceeded])).toEqual([[2, false], [1, false], [0, false], [0, true]]);

      relay.thaw();
      // Requests keep coming; the first one after the five-second cool-down probes Redis and finds it back.
      for (let i = 0; i < 75 && limiter.store() !== 'redis'; i += 1) {
        await sleep(200);
        await limiter.consume('anon', '10.2.5.3');
      }
      expect(limiter.store()).toBe('redis');
    } finally {
      await limiter.close();
      await relay.close();
    }
  });

  it('falls back to memory while Redis is gone and returns to Redis when it is back', async () => {
    const upstream = new URL(url);
    const target = { host: upstream.hostname, port: Number(upstream.port || 6379) };
    let relay = await startTcpRelay(target);
    const prefix = uniqueRedisPrefix();
    const limiter = redisLimiter(`redis://127.0.0.1:${relay.port}${upstream.pathname}`, prefix);
    const counter = `${prefix}:rl:anon:10.2.4.1`;
    try {
      await limiter.ready();
      expect(limiter.store()).toBe('redis');
      await limiter.consume('anon', '10.2.4.1');
      expect(await redis.get(counter)).toBe('1');

      await relay.close();
      await until(() => limiter.store() === 'degraded', 2_000);
      const during = [await limiter.consume('anon', '10.2.4.1'), await limiter.consume('anon', '10.2.4.1')];
      expect(during.every((s) => !s.exceeded)).toBe(true);
      expect(await redis.get(counter)).toBe('1');

      relay = await startTcpRelay(target, relay.port);
      await until(() => limiter.store() === 'redis', 5_000);
      expect(await limiter.consume('anon', '10.2.4.1')).toMatchObject({ remaining: 1, exceeded: false });
      expect(await redis.get(counter)).toBe('2');
    } finally {
      await limiter.close();
      await relay.close();
    }
  });
});
