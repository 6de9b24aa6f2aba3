import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { formFields, page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let manager = '';
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoStore(t.database.db, { baseUrl: 'http://butik.test' });
  manager = await staffCookie(t, 'anna@shop.dk', 'manager');
});
afterAll(async () => t.close());

const SLUG = 'aviator-classic';
const URL = `/admin/products/${SLUG}`;
const product = async () => (await t.call('products.get', { slug: SLUG }, master)).body.result;
const productUpdates = async () => (await t.call('audit.list', { targetSlug: SLUG, limit: 200 }, master)).body.result.length as number;

/** The edit form as the browser would send it, opened now. */
async function openForm() {
  const edit = await page(t.app, manager, URL);
  return formFields(edit.response.body, URL);
}

describe('the product edit form and its version token', () => {
  it('carries the ETag products.get hands out, and the values it was rendered with', async () => {
    const form = await openForm();
    const read = await t.call('products.get', { slug: SLUG }, master);
    expect(`"${form._version}"`).toBe(read.headers.etag);
    expect(JSON.parse(form._was ?? '')).toMatchObject({ name: 'Aviator Classic', priceDkk: String(read.body.result.priceDkk) });
  });

  it('saves nothing and says so when nothing was changed', async () => {
    const form = await openForm();
    const entries = await productUpdates();
    const saved = await post(t.app, manager, URL, form);
    expect(saved.headers.location).toBe(`${URL}?done=unchanged`);
    expect((await page(t.app, manager, saved.headers.location ?? '')).response.body).toContain('Nothing changed');
    expect(await productUpdates()).toBe(entries);
  });

  it('sends only the changed field, so a change an agent made to another field meanwhile stays', async () => {
    const form = await openForm();
    const saved = await post(t.app, manager, URL, { ...form, brand: 'Ray-Ban Classic' });
    expect(saved.statusCode).toBe(303);
    const [entry] = (await t.call('audit.list', { targetSlug: SLUG, limit: 1 }, master)).body.result;
    expect(Object.keys(entry.after).filter((field) => JSON.stringify(entry.after[field]) !== JSON.stringify(entry.before[field])).sort()).toEqual(['brand', 'updatedAt']);
  });

  it('refuses a save over an agent\'s change and shows the conflict form: the agent\'s price beside the person\'s, and who changed it', async () => {
    const form = await openForm();
    const before = await product();
    const agent = await t.keyWith('products:write');
    expect((await t.call('products.update', { slug: SLUG, patch: { priceDkk: 99900 } }, { key: agent })).status).toBe(200);
    const refused = await post(t.app, manager, URL, { ...form, stock: '12' });
    expect(refused.statusCode).toBe(409);
    expect(await product()).toMatchObject({ priceDkk: 99900, stock: before.stock });
    const body = refused.body;
    expect(body).toContain('Someone else changed this while you were editing it');
    expect(body).toMatch(/<li><a href="#field-priceDkk">Price[^<]*<\/a><\/li>/);
    expect(body).toMatch(/id="field-priceDkk"[^>]*value="129900"[^>]*aria-describedby="field-priceDkk-note"/);
    expect(body).toContain('<p class="hint" id="field-priceDkk-note">Saved now: 99900</p>');
    expect(body).toMatch(/products\.update: priceDkk/);
    // The form now carries the fresh token: saving again is the person's deliberate choice, and it goes through.
    const again = formFields(body, URL);
    expect(`"${again._version}"`).toBe((await t.call('products.get', { slug: SLUG }, master)).headers.etag);
    expect((await post(t.app, manager, URL, again)).statusCode).toBe(303);
    expect(await product()).toMatchObject({ priceDkk: 129900, stock: 12 });
  });

  it('adds "+3" to the stock as it is when saved, so a sale made meanwhile is kept', async () => {
    const form = await openForm();
    expect((await page(t.app, manager, URL)).response.body).toContain('In stock now: 12.');
    await t.call('products.adjust_stock', { slug: SLUG, by: -2 }, master);
    expect((await post(t.app, manager, URL, { ...form, stock: '+3' })).statusCode).toBe(303);
    expect((await product()).stock).toBe(13);
    // The same form sent twice (a double click) adds once.
    const twice = { ...(await openForm()), stock: '+2' };
    await post(t.app, manager, URL, twice);
    await post(t.app, manager, URL, twice);
    expect((await product()).stock).toBe(15);
    await t.call('products.adjust_stock', { slug: SLUG, by: -2 }, master);
    for (const typed of ['-1', '\u22121']) {
      expect((await post(t.app, manager, URL, { ...(await openForm()), stock: typed })).statusCode).toBe(303);
    }
    expect((await product()).stock).toBe(11);
  });

  it('refuses taking away more than is in stock, beside the stock field', async () => {
    const refused = await post(t.app, manager, URL, { ...(await openForm()), stock: '-50' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('<p class="error" id="field-stock-error">at most 11 can be taken away</p>');
    expect((await product()).stock).toBe(11);
  });

  it('keeps every image\'s alt text through a save that did not touch the images', async () => {
    await t.call('products.attach_image', { slug: SLUG, imageUrl: 'https://img.test/aviator-side.jpg', alt: 'Set fra siden' }, master);
    expect((await post(t.app, manager, URL, { ...(await openForm()), name: 'Aviator Classic II' })).statusCode).toBe(303);
    const images = (await t.call('images.search', { q: 'Set fra siden' }, master)).body.result;
    expect(images).toEqual([expect.objectContaining({ url: 'https://img.test/aviator-side.jpg', alt: 'Set fra siden' })]);
  });
});
