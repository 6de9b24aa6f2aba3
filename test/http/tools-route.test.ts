import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/access/scopes.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createCategory, createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';
import { expectProblem, expectValidation, scopeChallenge, send } from '../helpers/http.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('the success envelope', () => {
  it('is {ok: true, result} as application/json with X-Request-Id and rate-limit headers', async () => {
    const response = await t.call('categories.list', {});
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['ok', 'result']);
    expect(response.body.ok).toBe(true);
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    for (const header of ['ratelimit-policy', 'ratelimit', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
      expect(response.headers[header], header).toBeDefined();
    }
  });

  it('serves the same tool with and without a key', async () => {
    const anonymous = await t.call('categories.list', {});
    const keyed = await t.call('categories.list', {}, { key: await t.keyWith('categories:read') });
    expect(keyed.body).toEqual(anonymous.body);
  });
});

describe('the route', () => {
  it('takes the tool name from the path only', async () => {
    const response = await send(t, {
      method: 'POST', url: '/api/v1/tools/products.search?tool=products.create', headers: { 'content-type': 'application/json' }, payload: '{}',
    });
    expect(response.status).toBe(200);
  });

  it('answers a trailing slash as an unknown path', async () => {
    const response = await send(t, { method: 'POST', url: '/api/v1/tools/', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(response.status).toBe(404);
    expect(response.body.ok).toBe(false);
  });

  it('answers a malformed percent-escape in the path with a problem, not a framework body', async () => {
    const response = await send(t, { method: 'POST', url: '/api/v1/tools/%E0%A4%A', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expectProblem(response, 404, 'not_found');
  });

  it('answers an over-long tool name with a problem', async () => {
    const response = await send(t, { method: 'POST', url: `/api/v1/tools/${'x'.repeat(300)}`, headers: { 'content-type': 'application/json' }, payload: '{}' });
    expectProblem(response, 404, 'not_found');
  });

  it('rejects an Idempotency-Key that is not printable ASCII with 400 validation_failed', async () => {
    const response = await t.call('products.search', {}, { headers: { 'idempotency-key': 'x'.repeat(256) } });
    expectValidation(response, ['Idempotency-Key']);
  });
});

type ScopeCase = { tool: string; scope: Scope; body: () => Promise<Record<string, unknown>> };

describe('scope checks for every catalog tool', () => {
  const cases: ScopeCase[] = [
    { tool: 'products.create', scope: 'products:write', body: async () => ({
      slug: uniqueSlug('p'), name: 'Scoped', description: 'Created by a scoped key.', priceDkk: 100, stock: 1,
      categorySlug: (await createCategory(t)).slug,
    }) },
    { tool: 'products.update', scope: 'products:write', body: async () => ({ slug: (await createProduct(t)).slug, patch: { stock: 2 } }) },
    { tool: 'products.delete', scope: 'products:write', body: async () => ({ slug: (await createProduct(t)).slug, confirm: true }) },
    { tool: 'products.attach_image', scope: 'products:write', body: async () => ({
      slug: (await createProduct(t)).slug, imageUrl: 'https://img.test/scoped.jpg',
    }) },
    { tool: 'categories.upsert', scope: 'categories:write', body: async () => ({ slug: uniqueSlug('c'), name: 'Scoped' }) },
    { tool: 'categories.delete', scope: 'categories:write', body: async () => ({ slug: (await createCategory(t)).slug, confirm: true }) },
  ];

  for (const { tool, scope, body } of cases) {
    it(`${tool}: 401 anonymous, 403 without ${scope}, 200 with it`, async () => {
      const input = await body();
      expectProblem(await t.call(tool, input), 401, 'unauthorized');
      const others = await t.keyWith('catalog:read', 'categories:read', 'orders:write', 'pages:write');
      const denied = await t.call(tool, input, { key: others });
      expectProblem(denied, 403, 'insufficient_scope');
      expect(denied.headers['www-authenticate']).toBe(scopeChallenge(scope));
      const allowed = await t.call(tool, input, { key: await t.keyWith(scope) });
      expect(allowed.status).toBe(200);
      expect(allowed.body.ok).toBe(true);
    });
  }

  const anonymous: Array<[string, Scope]> = [['products.search', 'catalog:read'], ['products.get', 'catalog:read'], ['categories.list', 'categories:read']];
  for (const [tool, scope] of anonymous) {
    it(`${tool} is anonymous yet declares ${scope}`, async () => {
      const registered = t.app.butik.registry.get(tool);
      expect(registered?.anonymous).toBe(true);
      expect(registered?.scope).toBe(scope);
    });
  }

  it('lets the master key call every catalog tool', async () => {
    const product = await createProduct(t);
    const response = await t.call('products.update', { slug: product.slug, patch: { featured: true } }, master);
    expect(response.body).toEqual({ ok: true, result: { id: product.id, slug: product.slug } });
  });
});
