import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallResult, TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { expectProblem, send } from '../helpers/http.ts';
import { createLimitedApp, inventedKey, observeDatabaseUse, readRate } from '../helpers/rate-limits.ts';

const REDIS_URL = process.env.REDIS_URL;

// Each test uses its own client IP, so the tests of one app never share a counter. `tight` sits behind
// a (pretend) balancer; requests without X-Forwarded-For count by their socket address as usual.
let standard: TestApp;
let tight: TestApp;
let standardDatabase: { readonly count: number };
beforeAll(async () => {
  standard = await createLimitedApp();
  standardDatabase = observeDatabaseUse(standard.database);
  tight = await createLimitedApp({ BUTIK_RATE_LIMITS: 'anon:2,preauth:4,key:2', BUTIK_TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await standard?.close();
  await tight?.close();
});

const search = (t: TestApp, ip: string, options: { key?: string; headers?: Record<string, string> } = {}) =>
  t.call('products.search', {}, { ip, ...options });

function expectRefused(response: CallResult, policy: string): void {
  expectProblem(response, 429, 'rate_limited');
  const rate = readRate(response);
  expect(rate).toMatchObject({ policy, remaining: 0 });
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(Math.max(1, rate.reset));
}

describe('anonymous policy', () => {
  it('refuses the 61st anonymous request of a window with 429 rate_limited, the headers and Retry-After', async () => {
    const ip = '10.0.1.1';
    const first = await search(standard, ip);
    expect(first.status).toBe(200);
    expect(readRate(first)).toEqual({ policy: 'anon', quota: 60, window: 60, remaining: 59, reset: 60 });
    for (let i = 2; i <= 60; i += 1) expect((await search(standard, ip)).status).toBe(200);
    const refused = await search(standard, ip);
    expectRefused(refused, 'anon');
    expect(refused.body.detail).toMatch(/"anon"/);
    expect((await search(standard, '10.0.1.2')).status).toBe(200);
  });

  it('treats a non-Bearer Authorization as anonymous', async () => {
    const response = await search(standard, '10.0.1.3', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(response.status).toBe(200);
    expect(readRate(response)).toMatchObject({ policy: 'anon', remaining: 59 });
  });
});

describe('pre-authentication policy', () => {
  it('counts every Bearer request before the lookup and gives the point back once the key is valid', async () => {
    const ip = '10.0.2.1';
    const valid = await standard.keyWith('catalog:read');
    // Far more than the 120 of preauth: a client with a valid key is limited by its key's 600 alone.
    for (let i = 0; i < 200; i += 1) {
      const response = await search(standard, ip, { key: i % 2 === 0 ? valid : master.key });
      expect(response.status).toBe(200);
    }
    const rate = readRate(await search(standard, ip, { key: valid }));
    expect(rate).toMatchObject({ policy: 'key', quota: 600, remaining: 499 });
  });

  it('lets unknown, malformed and revoked keys use up 120 per IP, after which even a valid key waits', async () => {
    const ip = '10.0.2.2';
    const valid = await standard.keyWith('catalog:read');
    const invalid = [inventedKey(), 'not-a-key'];
    for (let i = 0; i < 120; i += 1) {
      const response = await search(standard, ip, { key: invalid[i % 2] });
      expect(response.status).toBe(401);
      expect(readRate(response)).toMatchObject({ policy: 'preauth', quota: 120, remaining: 119 - i });
    }
    expectRefused(await search(standard, ip, { key: inventedKey() }), 'preauth');
    // Counted before the lookup: the IP's allowance is gone whatever key it sends now.
    expectRefused(await search(standard, ip, { key: valid }), 'preauth');

    const anonymous = await search(standard, ip);
    expect(anonymous.status).toBe(200);
    expect(readRate(anonymous)).toMatchObject({ policy: 'anon', remaining: 59 });
  });
});

describe('a flood of invented keys', () => {
  it('is stopped by the preauth allowance before any database query', async () => {
    const ip = '10.0.2.9';
    const before = standardDatabase.count;
    for (let i = 0; i < 120; i += 1) expectProblem(await search(standard, ip, { key: inventedKey() }), 401, 'unauthorized');
    const afterAllowance = standardDatabase.count;
    // Each of these looked its key up: the observer does see the lookups it is about to miss.
    expect(afterAllowance - before).toBeGreaterThanOrEqual(120);

    for (let i = 0; i < 200; i += 1) expectRefused(await search(standard, ip, { key: inventedKey() }), 'preauth');
    expect(standardDatabase.count).toBe(afterAllowance);
  });
});

describe('key policy', () => {
  it('refuses a key past its quota with 429 while another key from the same IP goes on', async () => {
    const ip = '10.0.3.1';
    const [first, second] = [await tight.keyWith('catalog:read'), await tight.keyWith('catalog:read')];
    expect(readRate(await search(tight, ip, { key: first }))).toMatchObject({ policy: 'key', quota: 2, remaining: 1 });
    expect((await search(tight, ip, { key: first })).status).toBe(200);
    expectRefused(await search(tight, ip, { key: first }), 'key');
    expect(readRate(await search(tight, ip, { key: second }))).toMatchObject({ policy: 'key', remaining: 1 });
    expect((await search(tight, ip, { key: second })).status).toBe(200);
    expectRefused(await search(tight, ip, { key: second }), 'key');
  });

  it('counts the master key under the key policy as well', async () => {
    const response = await search(tight, '10.0.3.2', master);
    expect(readRate(response)).toMatchObject({ policy: 'key', quota: 2, remaining: 1 });
  });
});

describe('which policy the headers name', () => {
  async function afterInvalidKeys(ip: string, count: number) {
    for (let i = 0; i < count; i += 1) expect((await search(tight, ip, { key: inventedKey() })).status).toBe(401);
    return readRate(await search(tight, ip, { key: await tight.keyWith('catalog:read') }));
  }

  it('names the smallest remaining fraction, and the smaller remainder on a tie', async () => {
    // preauth 4/4 (the valid key's point came back) against key 1/2: the key.
    expect(await afterInvalidKeys('10.0.4.1', 0)).toMatchObject({ policy: 'key', remaining: 1 });
    // preauth 2/4 against key 1/2: equal fractions, the key has fewer left.
    expect(await afterInvalidKeys('10.0.4.2', 2)).toMatchObject({ policy: 'key', remaining: 1 });
    // preauth 1/4 against key 1/2: preauth.
    expect(await afterInvalidKeys('10.0.4.3', 3)).toMatchObject({ policy: 'preauth', remaining: 1 });
  });
});

describe('key management routes', () => {
  it('count against the same allowances as the tools', async () => {
    const ip = '10.0.5.1';
    const list = () => send(standard, { method: 'GET', url: '/api/v1/keys', remoteAddress: ip });
    for (let i = 0; i < 30; i += 1) expect((await search(standard, ip)).status).toBe(200);
    for (let i = 0; i < 29; i += 1) expectProblem(await list(), 401, 'unauthorized');
    const last = await list();
    expectProblem(last, 401, 'unauthorized');
    expect(readRate(last)).toMatchObject({ policy: 'anon', remaining: 0 });
    expectRefused(await list(), 'anon');
    expectRefused(await search(standard, ip), 'anon');

    const withKey = await send(standard, {
      method: 'GET', url: '/api/v1/keys', remoteAddress: ip, headers: { authorization: `Bearer ${inventedKey()}` },
    });
    expectProblem(withKey, 401, 'unauthorized');
    expect(readRate(withKey)).toMatchObject({ policy: 'preauth', remaining: 119 });
  });
});

describe('client IP', () => {
  it('is the socket peer and ignores X-Forwarded-For by default', async () => {
    const ip = '10.0.6.1';
    for (let i = 0; i < 60; i += 1) {
      expect((await search(standard, ip, { headers: { 'x-forwarded-for': `203.0.113.${i}` } })).status).toBe(200);
    }
    expectRefused(await search(standard, ip, { headers: { 'x-forwarded-for': '198.51.100.1' } }), 'anon');
    expect((await search(standard, '10.0.6.2')).status).toBe(200);
  });

  it('is the address the balancer appended to X-Forwarded-For with BUTIK_TRUST_PROXY=true', async () => {
    const balancer = '10.0.7.1';
    const via = (forwardedFor: string) => search(tight, balancer, { headers: { 'x-forwarded-for': forwardedFor } });
    expect(readRate(await via('203.0.113.1'))).toMatchObject({ policy: 'anon', remaining: 1 });
    // A client that writes its own X-Forwarded-For still lands in the bucket of the address the balancer saw.
    expect(readRate(await via('198.51.100.7, 203.0.113.1'))).toMatchObject({ policy: 'anon', remaining: 0 });
    expectRefused(await via('198.51.100.8, 203.0.113.1'), 'anon');
    expect(readRate(await via('203.0.113.2'))).toMatchObject({ policy: 'anon', remaining: 1 });
    expect(readRate(await search(tight, balancer))).toMatchObject({ policy: 'anon', remaining: 1 });
  });
});

describe('fixed windows', () => {
  it('start at the first request and let a refused client in again once Retry-After has passed', async () => {
    const short = await createLimitedApp({ BUTIK_RATE_LIMITS: 'anon:2,preauth:4,key:2', BUTIK_RATE_WINDOW_S: '1' });
    try {
      const ip = '10.0.8.1';
      expect(readRate(await search(short, ip))).toEqual({ policy: 'anon', quota: 2, window: 1, remaining: 1, reset: 1 });
      expect(readRate(await search(short, ip))).toMatchObject({ remaining: 0 });
      const refused = await search(short, ip);
      expectRefused(refused, 'anon');
      expect(refused.headers['retry-after']).toBe('1');

      await sleep(Number(refused.headers['retry-after']) * 1000 + 20);
      const again = await search(short, ip);
      expect(again.status).toBe(200);
      expect(readRate(again)).toMatchObject({ policy: 'anon', remaining: 1 });
      expect(readRate(await search(short, ip))).toMatchObject({ remaining: 0 });
      expectRefused(await search(short, ip), 'anon');
    } finally {
      await short.close();
    }
  });
});

describe('readiness', () => {
  it('reports only the database when the counters are in memory, and the Redis state when REDIS_URL is set', async () => {
    const ready = await send(standard, { method: 'GET', url: '/readyz' });
    expect({ status: ready.status, body: ready.body }).toEqual({ status: 200, body: REDIS_URL ? { ok: true, rateLimits: 'redis' } : { ok: true } });
  });
});

describe.runIf(REDIS_URL)('counters in Redis (REDIS_URL)', () => {
  it('are named by the configured prefix, the IP and the key id, never by the secret', async () => {
    const redis = new Redis(REDIS_URL ?? '', { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    try {
      const created = await send(standard, {
        method: 'POST', url: '/api/v1/keys', remoteAddress: '10.0.9.1',
        headers: { authorization: `Bearer ${master.key}`, 'content-type': 'application/json' },
        payload: { name: 'counted', scopes: ['catalog:read'] },
      });
      expect(created.status).toBe(201);
      const { id, key } = created.body.result;
      expect((await search(standard, '10.0.9.1', { key })).status).toBe(200);

      const prefix = standard.config.redisPrefix;
      const stored = await redis.keys(`${prefix}:*`);
      expect(stored).toEqual(expect.arrayContaining([`${prefix}:rl:key:${id}`, `${prefix}:rl:preauth:10.0.9.1`, `${prefix}:rl:anon:10.0.1.1`]));
      expect(stored.every((name) => name.startsWith(`${prefix}:rl:`) && !name.includes(key) && !name.includes(master.key))).toBe(true);
      // Both requests were counted before their lookup, and both points came back once the keys proved valid.
      expect(await redis.get(`${prefix}:rl:preauth:10.0.9.1`)).toBe('0');
      expect(await redis.get(`${prefix}:rl:key:${id}`)).toBe('1');
      const ttl = await redis.pttl(`${prefix}:rl:key:${id}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      await redis.quit();
    }
  });
});
