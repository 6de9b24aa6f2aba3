import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => { await t?.close(); });

const stockOf = async (slug: string) => (await t.call('products.get', { slug }, master)).body.result.stock as number;

describe('products.adjust_stock', () => {
  it('adds to and takes from the stock as it is at that moment, so a sale in between is kept', async () => {
    const { slug } = await createProduct(t, { stock: 10 });
    // A sale (or any other write) between the person's read and their adjustment.
    await t.call('products.update', { slug, patch: { stock: 7 } }, master);
    const added = await t.call('products.adjust_stock', { slug, by: 3 }, master);
    expect(added.status).toBe(200);
    expect(added.body.result).toMatchObject({ slug, stock: 10 });
    expect((await t.call('products.adjust_stock', { slug, by: -4 }, master)).body.result.stock).toBe(6);
    expect(await stockOf(slug)).toBe(6);
  });

  it('refuses a change that would take the stock below 0 and writes nothing', async () => {
    const { slug } = await createProduct(t, { stock: 2 });
    const refused = await t.call('products.adjust_stock', { slug, by: -3 }, master);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation_failed');
    expect(refused.body.detail).toContain('has 2 in stock');
    expect(refused.body.errors).toEqual([{ path: 'by', message: 'at most 2 can be taken away' }]);
    expect(await stockOf(slug)).toBe(2);
  });

  it('is audited and can be reverted like products.update', async () => {
    const { slug, id } = await createProduct(t, { stock: 5 });
    await t.call('products.adjust_stock', { slug, by: 4 }, master);
    const [entry] = (await t.call('audit.list', { targetId: id, tool: 'products.adjust_stock' }, master)).body.result;
    expect(entry).toMatchObject({ tool: 'products.adjust_stock', before: { stock: 5 }, after: { stock: 9 } });
    expect((await t.call('audit.revert', { entryId: entry.id }, master)).status).toBe(200);
    expect(await stockOf(slug)).toBe(5);
  });
});

describe('products.update with images', () => {
  it('keeps the alt text and source of every image whose URL stays in the list', async () => {
    const { slug } = await createProduct(t, { images: ['https://img.test/front.jpg'] });
    await t.call('products.attach_image', { slug, imageUrl: 'https://img.test/side.jpg', alt: 'Set fra siden', sourceId: 'cam-7' }, master);
    const updated = await t.call('products.update', { slug, patch: { images: ['https://img.test/side.jpg', 'https://img.test/new.jpg'] } }, master);
    expect(updated.status).toBe(200);
    const images = (await t.call('images.search', { q: 'Set fra siden' }, master)).body.result;
    expect(images).toEqual([expect.objectContaining({ url: 'https://img.test/side.jpg', alt: 'Set fra siden', productSlug: slug })]);
    const [entry] = (await t.call('audit.list', { targetSlug: slug, tool: 'products.update' }, master)).body.result;
    expect(entry.after.images).toEqual([{ url: 'https://img.test/side.jpg', alt: 'Set fra siden', sourceId: 'cam-7' }, { url: 'https://img.test/new.jpg' }]);
  });
});
