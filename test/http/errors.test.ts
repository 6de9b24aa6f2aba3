import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, readOnly, write } from '../../src/tools/define-tool.ts';
import { ALL_TOOLS } from '../../src/tools/registry.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createCategory, createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';
import { CHALLENGE, INVALID_TOKEN_CHALLENGE, expectProblem, expectValidation, scopeChallenge, send } from '../helpers/http.ts';

/** Fails the way a driver or a bug would: with SQL, a secret-looking string and a stack in the error. */
function leakyError(): Error {
  const error = new Error('SELECT secret FROM api_keys WHERE hash = \'deadbeef\' -- password=hunter2');
  error.stack = `${error.message}\n    at leakyHandler (/srv/butik/src/tools/boom.ts:12:7)`;
  return error;
}

const boomRead = defineTool({
  name: 'test.boom_read',
  description: 'Always fails unexpectedly (test only).',
  scope: 'catalog:read',
  anonymous: true,
  annotations: readOnly('Boom'),
  input: z.strictObject({}),
  output: z.strictObject({}),
  handler: async () => { throw leakyError(); },
});

const boomWrite = defineTool({
  name: 'test.boom_write',
  description: 'Fails unexpectedly inside its transaction (test only).',
  scope: 'products:write',
  annotations: write('Boom', { idempotent: false }),
  input: z.strictObject({}),
  output: z.strictObject({}),
  handler: async () => { throw leakyError(); },
});

let t: TestApp;
beforeAll(async () => { t = await createTestApp({ tools: [...ALL_TOOLS, boomRead, boomWrite] }); });
afterAll(async () => { await t?.close(); });

const searchUrl = '/api/v1/tools/products.search';

describe('400 invalid_json', () => {
  const bodies: Array<[string, string]> = [
    ['a body that is not JSON', '{not json'],
    ['a JSON array', '[]'],
    ['JSON null', 'null'],
    ['a JSON number', '42'],
    ['a JSON string', '"products"'],
    ['an empty body', ''],
    ['a body of spaces', '   '],
  ];
  for (const [what, payload] of bodies) {
    it(`answers ${what} with 400 invalid_json`, async () => {
      const response = await send(t, { method: 'POST', url: searchUrl, headers: { 'content-type': 'application/json' }, payload });
      expectProblem(response, 400, 'invalid_json');
      expect(response.body.errors).toBeUndefined();
    });
  }

  it('answers a text/plain body with 400 invalid_json naming the content type', async () => {
    const response = await send(t, { method: 'POST', url: searchUrl, headers: { 'content-type': 'text/plain' }, payload: '{}' });
    expectProblem(response, 400, 'invalid_json');
    expect(response.body.detail).toContain('text/plain');
  });

  it('answers a form body with 400 invalid_json', async () => {
    const response = await send(t, {
      method: 'POST', url: searchUrl, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'q=x',
    });
    expectProblem(response, 400, 'invalid_json');
  });

  it('answers a body without Content-Type with 400 invalid_json', async () => {
    const response = await send(t, { method: 'POST', url: searchUrl, payload: Buffer.from('{}') });
    expect(response.headers['content-type']).toMatch(/problem/);
    expectProblem(response, 400, 'invalid_json');
    expect(response.body.detail).toContain('missing');
  });

  it('answers a POST with no body at all with 400 invalid_json', async () => {
    const response = await send(t, { method: 'POST', url: searchUrl });
    expectProblem(response, 400, 'invalid_json');
  });

  it('accepts application/json with a charset and an empty object', async () => {
    const response = await send(t, {
      method: 'POST', url: searchUrl, headers: { 'content-type': 'application/json; charset=utf-8' }, payload: '{}',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true, result: [] });
  });
});

describe('400 validation_failed', () => {
  it('names a wrong type with its path', async () => {
    expectValidation(await t.call('products.search', { limit: '5' }), ['limit']);
  });

  it('names a value out of bounds', async () => {
    expectValidation(await t.call('products.search', { limit: 101, offset: -1 }), ['limit', 'offset']);
  });

  it('names a missing required field', async () => {
    const response = await t.call('products.get', {});
    expectValidation(response, ['slug']);
  });

  it('names an unknown field by its own path', async () => {
    const response = await t.call('products.search', { q: 'x', colour: 'red' });
    expectValidation(response, ['colour']);
    expect(response.body.errors[0].message).toContain('colour');
  });

  it('names an unknown field inside a nested object', async () => {
    const product = await createProduct(t);
    const response = await t.call('products.update', { slug: product.slug, patch: { price: 1 } }, master);
    expectValidation(response, ['patch.price']);
  });

  it('rejects confirm: false and confirm: "true" on a delete', async () => {
    const product = await createProduct(t);
    expectValidation(await t.call('products.delete', { slug: product.slug, confirm: false }, master), ['confirm']);
    expectValidation(await t.call('products.delete', { slug: product.slug, confirm: 'true' }, master), ['confirm']);
    expectValidation(await t.call('products.delete', { slug: product.slug }, master), ['confirm']);
    expect((await t.call('products.get', { slug: product.slug })).status).toBe(200);
  });

  it('summarises every field error in detail', async () => {
    const response = await t.call('products.search', { limit: 0, featured: 'yes' });
    expectValidation(response, ['limit', 'featured']);
    expect(response.body.detail).toMatch(/limit/);
    expect(response.body.detail).toMatch(/featured/);
  });

  it('rejects a "__proto__" member as an unknown field instead of merging it', async () => {
    const response = await send(t, {
      method: 'POST', url: searchUrl, headers: { 'content-type': 'application/json' }, payload: '{"__proto__": {"limit": 1}}',
    });
    expectValidation(response, ['__proto__']);
  });
});

describe('401 unauthorized', () => {
  it('answers an anonymous call to a private tool with the bare challenge', async () => {
    const response = await t.call('products.create', { slug: 'x' });
    expectProblem(response, 401, 'unauthorized');
    expect(response.headers['www-authenticate']).toBe(CHALLENGE);
  });

  const badKeys: Array<[string, string]> = [
    ['a malformed key', 'not-a-key'],
    ['an unknown key of the right shape', `bk_${randomBytes(32).toString('base64url')}`],
    ['a key with one character changed', ''],
  ];
  for (const [what, key] of badKeys) {
    it(`answers ${what} with 401 and error="invalid_token"`, async () => {
      const sent = key || (await t.keyWith('products:write')).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
      const response = await t.call('products.create', {}, { key: sent });
      expectProblem(response, 401, 'unauthorized');
      expect(response.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE);
      expect(JSON.stringify(response.body)).not.toContain(sent);
    });
  }

  it('answers "Bearer" without a key with 401 invalid_token', async () => {
    const response = await t.call('products.create', {}, { headers: { authorization: 'Bearer' } });
    expectProblem(response, 401, 'unauthorized');
    expect(response.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE);
  });

  it('reads the scheme case-insensitively', async () => {
    const response = await t.call('products.create', {}, { headers: { authorization: `bearer ${master.key}` } });
    expectValidation(response, ['slug', 'name', 'description', 'priceDkk', 'stock']);
  });
});

describe('403 insufficient_scope', () => {
  it('names the missing scope in the challenge and the detail', async () => {
    const key = await t.keyWith('catalog:read');
    const response = await t.call('categories.upsert', { slug: 'x' }, { key });
    expectProblem(response, 403, 'insufficient_scope');
    expect(response.headers['www-authenticate']).toBe(scopeChallenge('categories:write'));
    expect(response.body.detail).toContain('categories:write');
  });
});

describe('404, 409 and 422', () => {
  it('answers an unknown tool with 404 unknown_tool', async () => {
    const response = await t.call('products.teleport', {});
    expectProblem(response, 404, 'unknown_tool');
    expect(response.body.detail).toContain('products.teleport');
  });

  it('answers a missing product with 404 not_found', async () => {
    const response = await t.call('products.get', { slug: 'no-such-product' });
    expectProblem(response, 404, 'not_found');
  });

  it('answers lookups by identifiers that are not UUIDs with 404 not_found, never a cast error', async () => {
    // Identifiers are text columns: a malformed one names nothing (not_found), never a cast error.
    const lookups: Array<[string, Record<string, unknown>]> = [
      ['orders.get', { orderId: 'not-a-uuid' }],
      ['orders.get', { orderId: "1'; select pg_sleep(1); --" }],
      ['orders.update_status', { orderId: '42', status: 'paid' }],
      ['cart.get', { cartId: 'x' }],
      ['audit.revert', { entryId: '0' }],
      ['discounts.toggle', { code: 'NO-SUCH-CODE' }],
      ['products.update', { slug: 'ø', patch: { stock: 1 } }],
    ];
    for (const [tool, body] of lookups) expectProblem(await t.call(tool, body, master), 404, 'not_found');
  });

  it('answers an unknown path with a 404 problem', async () => {
    const response = await send(t, { method: 'GET', url: '/api/v1/nothing-here' });
    expectProblem(response, 404, 'not_found');
  });

  it('answers a second create with the same slug with 409 already_exists', async () => {
    const product = await createProduct(t);
    const response = await t.call('products.create', { ...product.body, name: 'Another name' }, master);
    expectProblem(response, 409, 'already_exists');
    expect(response.body.detail).toContain(product.slug);
  });

  it('answers a patch that changes the slug with 422 slug_immutable', async () => {
    const product = await createProduct(t);
    const response = await t.call('products.update', { slug: product.slug, patch: { slug: 'renamed' } }, master);
    expectProblem(response, 422, 'slug_immutable');
  });

  it('accepts a patch that repeats the current slug', async () => {
    const product = await createProduct(t);
    const response = await t.call('products.update', { slug: product.slug, patch: { slug: product.slug, stock: 3 } }, master);
    expect(response.body).toEqual({ ok: true, result: { id: product.id, slug: product.slug } });
  });

  it('answers deleting a category with products with 422 category_not_empty', async () => {
    const category = await createCategory(t);
    await createProduct(t, { categorySlug: category.slug });
    const response = await t.call('categories.delete', { slug: category.slug, confirm: true }, master);
    expectProblem(response, 422, 'category_not_empty');
  });
});

describe('405 method_not_allowed', () => {
  for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'] as const) {
    it(`answers ${method} on a tool path with 405 and Allow: POST`, async () => {
      const response = await send(t, { method, url: searchUrl });
      expect(response.headers.allow).toBe('POST');
      if (method === 'HEAD') {
        expect(response.status).toBe(405);
        expect(response.body).toBe('');
        return;
      }
      expectProblem(response, 405, 'method_not_allowed');
    });
  }

  it('answers GET on an unknown tool path with 405 too', async () => {
    const response = await send(t, { method: 'GET', url: '/api/v1/tools/nope.nope' });
    expectProblem(response, 405, 'method_not_allowed');
    expect(response.headers.allow).toBe('POST');
  });
});

describe('413 payload_too_large', () => {
  const big = JSON.stringify({ q: 'x'.repeat(1024 * 1024) });

  it('answers a body over 1 MiB with 413', async () => {
    const response = await send(t, { method: 'POST', url: searchUrl, headers: { 'content-type': 'application/json' }, payload: big });
    expectProblem(response, 413, 'payload_too_large');
  });

  it('answers 413 even before authentication', async () => {
    const response = await send(t, {
      method: 'POST', url: '/api/v1/tools/products.create', headers: { 'content-type': 'application/json' }, payload: big,
    });
    expectProblem(response, 413, 'payload_too_large');
  });

  it('accepts a body just under 1 MiB (and then validates it)', async () => {
    const payload = JSON.stringify({ q: 'x'.repeat(1024 * 1024 - 20) });
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(1024 * 1024);
    const response = await send(t, { method: 'POST', url: searchUrl, headers: { 'content-type': 'application/json' }, payload });
    expectValidation(response, ['q']);
  });
});

describe('500 internal_error', () => {
  for (const tool of ['test.boom_read', 'test.boom_write']) {
    it(`answers an unexpected failure in ${tool} with 500 and discloses nothing`, async () => {
      const response = await t.call(tool, {}, master);
      expectProblem(response, 500, 'internal_error');
      const text = JSON.stringify(response.body);
      for (const leak of ['SELECT', 'secret', 'hunter2', 'deadbeef', 'api_keys', 'boom.ts', '    at ', 'stack']) {
        expect(text).not.toContain(leak);
      }
      expect(response.body.errors).toBeUndefined();
    });
  }

  it('rolls the failed write back and keeps serving', async () => {
    const response = await t.call('products.search', { limit: 1 });
    expect(response.status).toBe(200);
  });
});

describe('X-Request-Id', () => {
  it('is on successes, differs per request and is a UUID', async () => {
    const a = await t.call('products.search', {});
    const b = await t.call('categories.list', {});
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('ignores an X-Request-Id sent by the client', async () => {
    const response = await t.call('products.get', { slug: 'nope' }, { headers: { 'x-request-id': 'spoofed' } });
    expectProblem(response, 404, 'not_found');
    expect(response.headers['x-request-id']).not.toBe('spoofed');
  });
});

describe('clarified edge cases', () => {
  it('lets a valid key without catalog:read call every anonymous tool', async () => {
    const key = await t.keyWith('orders:read');
    expect((await t.call('products.search', {}, { key })).status).toBe(200);
    expect((await t.call('categories.list', {}, { key })).status).toBe(200);
    const product = await createProduct(t);
    expect((await t.call('products.get', { slug: product.slug }, { key })).status).toBe(200);
  });

  it('answers an invalid key on an anonymous tool with 401 invalid_token', async () => {
    const response = await t.call('products.search', {}, { key: `bk_${randomBytes(32).toString('base64url')}` });
    expectProblem(response, 401, 'unauthorized');
    expect(response.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE);
  });

  it('treats Basic authorization as anonymous', async () => {
    const basic = { headers: { authorization: `Basic ${Buffer.from(`x:${master.key}`).toString('base64')}` } };
    expect((await t.call('products.search', {}, basic)).status).toBe(200);
    const response = await t.call('categories.upsert', { slug: uniqueSlug('c'), name: 'Name' }, basic);
    expectProblem(response, 401, 'unauthorized');
    expect(response.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it('answers an anonymous call to a private tool with 401 whatever is wrong with the body', async () => {
    const cases = [
      { headers: { 'content-type': 'application/json' }, payload: '{broken' },
      { headers: { 'content-type': 'application/json' }, payload: '[]' },
      { headers: { 'content-type': 'text/plain' }, payload: '{}' },
      { headers: {}, payload: undefined },
      { headers: { 'content-type': 'application/json' }, payload: '{"unknown": true}' },
    ];
    for (const request of cases) {
      const response = await send(t, { method: 'POST', url: '/api/v1/tools/products.delete', ...request });
      expectProblem(response, 401, 'unauthorized');
    }
  });

  it('checks the scope before the body: a key without the scope and a bad body gets 403', async () => {
    const key = await t.keyWith('catalog:read');
    const response = await send(t, {
      method: 'POST',
      url: '/api/v1/tools/products.delete',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      payload: '{broken',
    });
    expectProblem(response, 403, 'insufficient_scope');
  });
});
