import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { createTestApp } from './app.ts';
import type { CallResult, TestApp, TestAppOptions } from './app.ts';

/** The default quotas (docs/behaviour.md#rate-limits); tests lower them where counting to 600 would be slow. */
export const DEFAULT_QUOTAS = 'anon:60,preauth:120,key:600';

/** A prefix no other test file or run uses, for counters in the one shared Redis. */
export function uniqueRedisPrefix(): string {
  return `test-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/**
 * A test app that really rate-limits. With REDIS_URL set the counters live in Redis under a prefix of
 * their own, and a Redis that does not answer fails the test instead of quietly counting in memory.
 */
export async function createLimitedApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const redisUrl = process.env.REDIS_URL;
  const t = await createTestApp({
    ...options,
    env: {
      BUTIK_RATE_LIMITS: DEFAULT_QUOTAS,
      ...(redisUrl ? { REDIS_URL: redisUrl, BUTIK_REDIS_PREFIX: uniqueRedisPrefix() } : {}),
      ...env,
    },
  });
  try {
    await t.app.butik.gate.limiter.ready();
    expect(t.app.butik.gate.limiter.store()).toBe((env.REDIS_URL ?? redisUrl) ? 'redis' : 'memory');
  } catch (error) {
    await t.close();
    throw error;
  }
  return t;
}

export type Rate = { policy: string; quota: number; window: number; remaining: number; reset: number };

/**
 * Reads the rate-limit headers and checks that the structured pair and the legacy trio agree, so a
 * test can compare one object.
 */
export function readRate(response: CallResult): Rate {
  const policy = /^"(anon|preauth|key)";q=(\d+);w=(\d+)$/.exec(String(response.headers['ratelimit-policy']));
  const rate = /^"(anon|preauth|key)";r=(\d+);t=(\d+)$/.exec(String(response.headers.ratelimit));
  if (!policy || !rate) {
    throw new Error(`bad RateLimit headers: ${String(response.headers['ratelimit-policy'])} / ${String(response.headers.ratelimit)}`);
  }
  const parsed = {
    policy: String(policy[1]),
    quota: Number(policy[2]),
    window: Number(policy[3]),
    remaining: Number(rate[2]),
    reset: Number(rate[3]),
  };
  expect(rate[1]).toBe(parsed.policy);
  expect({
    limit: response.headers['ratelimit-limit'],
    remaining: response.headers['ratelimit-remaining'],
    reset: response.headers['ratelimit-reset'],
  }).toEqual({ limit: String(parsed.quota), remaining: String(parsed.remaining), reset: String(parsed.reset) });
  expect(parsed.reset).toBeGreaterThanOrEqual(1);
  expect(parsed.reset).toBeLessThanOrEqual(parsed.window);
  return parsed;
}

/** A well-formed key that no database holds: it passes the shape check and would cost a lookup. */
export function inventedKey(): string {
  return `bk_${randomBytes(32).toString('base64url')}`;
}

/**
 * Counts every use of the database underneath Drizzle: each PGlite query, exec or transaction, or each
 * client checked out of the PostgreSQL pool (no statement reaches PostgreSQL without one).
 */
export function observeDatabaseUse(database: Database): { readonly count: number } {
  let count = 0;
  const client: unknown = Reflect.get(database.db, '$client');
  if (client instanceof pg.Pool) {
    client.on('acquire', () => { count += 1; });
  } else if (client instanceof PGlite) {
    for (const method of ['query', 'exec', 'transaction'] as const) {
      const original: unknown = Reflect.get(client, method);
      if (typeof original !== 'function') throw new Error(`PGlite has no ${method}`);
      Reflect.set(client, method, (...args: unknown[]) => {
        count += 1;
        return Reflect.apply(original, client, args);
      });
    }
  } else {
    throw new Error('unknown database client');
  }
  return { get count() { return count; } };
}
