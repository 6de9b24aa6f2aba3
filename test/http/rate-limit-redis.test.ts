import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { send } from '../helpers/http.ts';
import { readRate, uniqueRedisPrefix } from '../helpers/rate-limits.ts';

function search(t: TestApp, ip: string) {
  return t.call('products.search', {}, { ip });
}

describe('an instance whose Redis does not answer', () => {
  it('keeps serving, limited in process memory, and /readyz stays 200 with rate limits degraded', async () => {
    const t = await createTestApp({
      env: { REDIS_URL: 'redis://127.0.0.1:1', BUTIK_REDIS_PREFIX: uniqueRedisPrefix(), BUTIK_RATE_LIMITS: 'anon:3,preauth:5,key:5' },
    });
    try {
      await expect(t.app.butik.gate.limiter.ready()).rejects.toThrow(/did not answer/);
      expect(t.app.butik.gate.limiter.store()).toBe('degraded');
      for (let remaining = 2; remaining >= 0; remaining -= 1) {
        const response = await search(t, '10.1.0.1');
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ ok: true, result: expect.any(Array) });
        expect(readRate(response)).toMatchObject({ policy: 'anon', quota: 3, remaining });
      }
      const refused = await search(t, '10.1.0.1');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rate_limited' });
      expect(t.app.butik.gate.limiter.store()).toBe('degraded');

      const ready = await send(t, { method: 'GET', url: '/readyz' });
      expect({ status: ready.status, body: ready.body }).toEqual({ status: 200, body: { ok: true, rateLimits: 'degraded' } });
    } finally {
      await t.close();
    }
  });
});
