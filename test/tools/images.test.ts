import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master } from '../helpers/fixtures.ts';

let t: TestApp;
let catalogKey: string;
let aviator: { slug: string };
let wayfarer: { slug: string };

/** Aviator (older) has two images, one with alt text; Wayfarer (newer) has one; a deleted product has one. */
beforeAll(async () => {
  t = await createTestApp();
  catalogKey = await t.keyWith('catalog:read');
  aviator = await createProduct(t, { name: 'Aviator Classic', images: ['https://img.test/aviator-1.jpg'] });
  const attached = await t.call('products.attach_image', {
    slug: aviator.slug, imageUrl: 'https://img.test/aviator-side.jpg', alt: 'Aviator set fra siden, 100% guld',
  }, master);
  if (attached.status !== 200) throw new Error('attach failed');
  wayfarer = await createProduct(t, { name: 'Wayfarer Sort', images: ['https://img.test/wayfarer.jpg'] });
  const deleted = await createProduct(t, { name: 'Aviator Udgået', images: ['https://img.test/gone.jpg'] });
  await t.call('products.delete', { slug: deleted.slug, confirm: true }, master);
});
afterAll(async () => { await t?.close(); });

describe('images.search', () => {
  it('lists the images of visible products, newest product first, each in its own order', async () => {
    const response = await t.call('images.search', {}, { key: catalogKey });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual([
      { url: 'https://img.test/wayfarer.jpg', alt: '', productSlug: wayfarer.slug, productName: 'Wayfarer Sort' },
      { url: 'https://img.test/aviator-1.jpg', alt: '', productSlug: aviator.slug, productName: 'Aviator Classic' },
      {
        url: 'https://img.test/aviator-side.jpg', alt: 'Aviator set fra siden, 100% guld',
        productSlug: aviator.slug, productName: 'Aviator Classic',
      },
    ]);
  });

  it('matches q against alt text and product name, case-insensitively', async () => {
    const byAlt = await t.call('images.search', { q: 'FRA SIDEN' }, { key: catalogKey });
    expect(byAlt.body.result.map((image: { url: string }) => image.url)).toEqual(['https://img.test/aviator-side.jpg']);
    const byName = await t.call('images.search', { q: 'aviator' }, { key: catalogKey });
    expect(byName.body.result.map((image: { url: string }) => image.url))
      .toEqual(['https://img.test/aviator-1.jpg', 'https://img.test/aviator-side.jpg']);
  });

  it('matches % and _ in q literally, not as wildcards', async () => {
    const percent = await t.call('images.search', { q: '%' }, { key: catalogKey });
    expect(percent.body.result.map((image: { url: string }) => image.url)).toEqual(['https://img.test/aviator-side.jpg']);
    const underscore = await t.call('images.search', { q: '_' }, { key: catalogKey });
    expect(underscore.body.result).toEqual([]);
  });

  it('limits the search to one product, and gives [] for an unknown or deleted one', async () => {
    const one = await t.call('images.search', { productSlug: wayfarer.slug }, { key: catalogKey });
    expect(one.body.result).toEqual([
      { url: 'https://img.test/wayfarer.jpg', alt: '', productSlug: wayfarer.slug, productName: 'Wayfarer Sort' },
    ]);
    const unknown = await t.call('images.search', { productSlug: 'no-such-product' }, { key: catalogKey });
    expect(unknown.body.result).toEqual([]);
  });

  it('pages with limit and offset', async () => {
    const page = await t.call('images.search', { limit: 1, offset: 2 }, { key: catalogKey });
    expect(page.body.result.map((image: { url: string }) => image.url)).toEqual(['https://img.test/aviator-side.jpg']);
  });

  it.each([
    ['limit 0', { limit: 0 }],
    ['limit 101', { limit: 101 }],
    ['an empty q', { q: '' }],
    ['an empty productSlug', { productSlug: '' }],
    ['an unknown field', { alt: 'x' }],
  ])('rejects %s with 400 validation_failed', async (_name, body) => {
    const response = await t.call('images.search', body, { key: catalogKey });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
  });

  it('is not anonymous: 401 without a key, 403 insufficient_scope without catalog:read', async () => {
    const anonymous = await t.call('images.search', {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('unauthorized');
    const response = await t.call('images.search', {}, { key: await t.keyWith('products:write') });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('insufficient_scope');
  });
});
