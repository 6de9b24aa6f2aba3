import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { formFields, page, post, staffCookie } from './helpers.ts';

/**
 * The console's side of no lost updates on the product form: it sends only what the person changed, with the
 * version it was drawn from; the stock is an adjustment; a conflict shows the current values and who changed them.
 */
let t: TestApp;
let owner = '';
let agent = '';
beforeAll(async () => {
  t = await createTestApp();
  owner = await staffCookie(t, 'olga@shop.dk', 'owner');
  agent = await t.keyWith('products:write', 'catalog:read');
  expect((await t.call('categories.upsert', { slug: 'readers', name: 'Readers' }, master)).status).toBe(200);
});
afterAll(async () => t.close());

let counter = 0;
/** A product with two images, each with alt text, as an agent would have made it. */
async function product(): Promise<string> {
  counter += 1;
  const slug = `round-reader-${counter}`;
  expect((await t.call('products.create', {
    slug, name: 'Round Reader', description: 'Runde læsebriller.', priceDkk: 49900, stock: 10, categorySlug: 'readers',
    images: ['https://img.example.dk/a.jpg'],
  }, master)).status).toBe(200);
  expect((await t.call('products.attach_image', { slug, imageUrl: 'https://img.example.dk/b.jpg', alt: 'Set fra siden' }, master)).status).toBe(200);
  return slug;
}

async function stored(slug: string) {
  const [row] = await t.database.db.select().from(products).where(eq(products.slug, slug));
  if (!row) throw new Error(`no product ${slug}`);
  return row;
}

async function drawnForm(slug: string): Promise<Record<string, string>> {
  const edit = await page(t.app, owner, `/admin/products/${slug}`);
  expect(edit.response.statusCode).toBe(200);
  return formFields(edit.response.body, `/admin/products/${slug}`);
}

describe('the product form and other writers', () => {
  it('keeps an agent\'s price cut and a sale made meanwhile when the person only adds stock', async () => {
    const slug = await product();
    const form = await drawnForm(slug);
    expect(form.stockChange).toBe('');
    // Meanwhile an agent cuts the price and a sale takes one item.
    expect((await t.call('products.update', { slug, patch: { priceDkk: 39900 } }, { key: agent })).status).toBe(200);
    expect((await t.call('products.adjust_stock', { slug, by: -1 }, { key: agent })).status).toBe(200);

    const saved = await post(t.app, owner, `/admin/products/${slug}`, { ...form, stockChange: '+3' });
    expect(saved.statusCode).toBe(303);
    const row = await stored(slug);
    expect(row.priceDkk).toBe(39900);
    expect(row.stock).toBe(12);
    expect(row.images).toEqual([{ url: 'https://img.example.dk/a.jpg' }, { url: 'https://img.example.dk/b.jpg', alt: 'Set fra siden' }]);
  });

  it('refuses a save over an agent\'s change with the current values and who made it, and saves on the deliberate second try', async () => {
    const slug = await product();
    const form = await drawnForm(slug);
    expect((await t.call('products.update', { slug, patch: { priceDkk: 39900 } }, { key: agent })).status).toBe(200);

    const conflict = await post(t.app, owner, `/admin/products/${slug}`, { ...form, priceDkk: '459' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).toContain('Someone changed this product while you were editing it');
    expect(conflict.body).toMatch(/<input id="field-priceDkk" name="priceDkk" type="text" inputmode="decimal" value="459"[^>]*aria-describedby="field-priceDkk-note"><p class="hint" id="field-priceDkk-note">Now: 399.00<\/p>/);
    expect(conflict.body).toMatch(/<li><strong>test products:write catalog:read<\/strong> · [^<]+ · Price<\/li>/);
    expect((await stored(slug)).priceDkk).toBe(39900);

    const again = await post(t.app, owner, `/admin/products/${slug}`, formFields(conflict.body, `/admin/products/${slug}`));
    expect(again.statusCode).toBe(303);
    expect((await stored(slug)).priceDkk).toBe(45900);
  });

  it('sets the stock to a figure only against the version the form was drawn from', async () => {
    const slug = await product();
    const form = await drawnForm(slug);
    expect((await t.call('products.adjust_stock', { slug, by: -2 }, { key: agent })).status).toBe(200);
    const refused = await post(t.app, owner, `/admin/products/${slug}`, { ...form, stockChange: '12' });
    expect(refused.statusCode).toBe(409);
    expect((await stored(slug)).stock).toBe(8);
    expect(refused.body).toContain('Change the stock (now 8)');
  });

  it('says what a stock change may look like when it is none of them, and writes nothing', async () => {
    const slug = await product();
    const refused = await post(t.app, owner, `/admin/products/${slug}`, { ...(await drawnForm(slug)), stockChange: 'lots', priceDkk: '450' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('The stock change is not +3, -1 or a figure such as 12.');
    expect((await stored(slug)).priceDkk).toBe(49900);
  });

  it('saves nothing when nothing changed, and a form that does not say what it was drawn from writes nothing', async () => {
    const slug = await product();
    const before = await stored(slug);
    const unchanged = await post(t.app, owner, `/admin/products/${slug}`, await drawnForm(slug));
    expect(unchanged.headers.location).toBe(`/admin/products/${slug}?done=unchanged`);
    const { _was: _gone, ...forged } = await drawnForm(slug);
    const outdated = await post(t.app, owner, `/admin/products/${slug}`, { ...forged, priceDkk: '450' });
    expect(outdated.body).toContain('That form was out of date, so nothing was saved.');
    expect(await stored(slug)).toEqual(before);
  });
});

describe('products.update and products.adjust_stock', () => {
  it('keeps each remaining image\'s alt text when a patch lists images by URL', async () => {
    const slug = await product();
    expect((await t.call('products.update', { slug, patch: { images: ['https://img.example.dk/b.jpg', 'https://img.example.dk/c.jpg'] } }, master)).status).toBe(200);
    expect((await stored(slug)).images).toEqual([{ url: 'https://img.example.dk/b.jpg', alt: 'Set fra siden' }, { url: 'https://img.example.dk/c.jpg' }]);
  });

  it('never takes the stock below zero, and says how much there is', async () => {
    const slug = await product();
    const refused = await t.call('products.adjust_stock', { slug, by: -11 }, { key: agent });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'stock_below_zero', detail: expect.stringContaining('has 10 in stock') });
    const added = await t.call('products.adjust_stock', { slug, by: 5 }, { key: agent });
    expect(added.body.result).toEqual({ ok: true, slug, stock: 15 });
  });
});
