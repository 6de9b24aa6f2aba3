import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/http/request-log.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { send } from '../helpers/http.ts';
import { LEGACY_HEADERS } from '../mcp/mcp-client.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('response headers', () => {
  it('marks every API answer nosniff and no-store, successes and problems alike', async () => {
    const answers = [
      await t.call('products.search', { limit: 1 }),
      await t.call('orders.list', {}, master),
      await t.call('orders.list', {}),
      await send(t, { method: 'GET', url: '/api/v1/keys', headers: { authorization: `Bearer ${master.key}` } }),
      await send(t, { method: 'POST', url: '/api/mcp', headers: LEGACY_HEADERS, payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 200, 200]);
    for (const answer of answers) {
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(String(answer.headers['cache-control'])).toMatch(/^no-store(, no-transform)?$/);
    }
  });

  it('sends Strict-Transport-Security on every answer when BASE_URL is https, and not over plain http', async () => {
    const https = await createTestApp({ baseUrl: 'https://shop.example' });
    try {
      for (const url of ['/healthz', '/admin/login', '/api/v1/openapi.json', '/no-such-page']) {
        const answer = await https.app.inject({ method: 'GET', url });
        expect(answer.headers['strict-transport-security'], url).toBe('max-age=31536000');
      }
    } finally {
      await https.close();
    }
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).headers['strict-transport-security']).toBeUndefined();
  });

  it('leaves the public documents cacheable, still nosniff', async () => {
    for (const url of ['/api/v1/openapi.json', '/.well-known/mcp/server-card.json', '/healthz']) {
      const answer = await send(t, { method: 'GET', url });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['cache-control']).not.toBe('no-store');
    }
  });
});

describe('URLs in log lines', () => {
  it.each([
    ['/api/v1/tools/products.search?token=bk_abcdef', '/api/v1/tools/products.search?token=[redacted]'],
    ['/api/mcp?api_key=secret&page=3', '/api/mcp?api_key=[redacted]&page=3'],
    ['/products?q=sol%20briller%20%22x%22&page=2', '/products?q=[redacted]&page=2'],
    ['/api/v1/tools/bk_AAAA-bbbb_cc', '/api/v1/tools/bk_[redacted]'],
    ['/info/om-os', '/info/om-os'],
  ])('logs %s as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
