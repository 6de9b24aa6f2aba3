import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('products', () => {
  it('creates a product and reads it back anonymously by slug', async () => {
    const created = await createProduct(t, { name: 'Wayfarer Sort', brand: 'Ray-Ban', images: ['https://img.test/a.jpg'] });
    const got = await t.call('products.get', { slug: created.slug });
    expect(got.status).toBe(200);
    expect(got.body.result).toMatchObject({
      id: created.id, slug: created.slug, name: 'Wayfarer Sort', brand: 'Ray-Ban', priceDkk: 129900,
      images: ['https://img.test/a.jpg'], frameColor: null,
    });
  });

  it('finds a product by a typo in its name', async () => {
    await createProduct(t, { name: 'Havana Clubmaster' });
    const found = await t.call('products.search', { q: 'clubmastr' });
    expect(found.body.result.map((p: { name: string }) => p.name)).toContain('Havana Clubmaster');
  });

  it('rejects an anonymous create with 401 before looking at the body', async () => {
    const response = await t.call('products.create', '{not json');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('unauthorized');
    expect(response.headers['www-authenticate']).toBe('Bearer realm="butik"');
  });

  it('rejects a changed slug with 422 slug_immutable', async () => {
    const created = await createProduct(t);
    const response = await t.call('products.update', { slug: created.slug, patch: { slug: 'other-slug' } }, master);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('slug_immutable');
  });
});
