import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let manager = '';
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoStore(t.database.db, { baseUrl: 'http://butik.test' });
  manager = await staffCookie(t, 'anna@shop.dk', 'manager');
});
afterAll(async () => t.close());

describe('the categories page', () => {
  it('adds a category through categories.upsert, and shows a refused slug next to its field with what was typed', async () => {
    const list = await page(t.app, manager, '/admin/categories');
    expect(list.response.body).toContain('<label for="field-slug">Slug</label>');
    const bad = await post(t.app, manager, '/admin/categories', { _csrf: list.csrf ?? '', slug: 'Not A Slug', name: 'Reading glasses' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toMatch(/id="field-slug"[^>]*value="Not A Slug"[^>]*aria-invalid="true"/);
    expect(bad.body).toContain('id="field-slug-error"');

    const made = await post(t.app, manager, '/admin/categories', { _csrf: list.csrf ?? '', slug: 'reading-glasses', name: 'Reading glasses', description: 'For close work.' });
    expect(made.statusCode).toBe(303);
    const categories = (await t.call('categories.list', {}, master)).body.result as Array<{ slug: string; description: string | null }>;
    expect(categories.find((category) => category.slug === 'reading-glasses')?.description).toBe('For close work.');
    const [entry] = (await t.call('audit.list', { targetSlug: 'reading-glasses', limit: 1 }, master)).body.result;
    expect(entry).toMatchObject({ tool: 'categories.upsert', channel: 'admin', actor: { name: 'anna@shop.dk (manager)' } });
  });

  it('deletes an empty category after a confirmation, and refuses one with products, saying what to do', async () => {
    const confirm = await page(t.app, manager, '/admin/categories/reading-glasses/delete');
    expect(confirm.response.body).toContain('Delete this category?');
    const deleted = await post(t.app, manager, '/admin/categories/reading-glasses/delete', { _csrf: confirm.csrf ?? '' });
    expect(deleted.statusCode).toBe(303);
    expect((await page(t.app, manager, '/admin/categories?done=deleted')).response.body).not.toContain('>reading-glasses<');

    const full = (await t.call('categories.list', {}, master)).body.result.find((category: { productCount: number }) => category.productCount > 0);
    const refusedPage = await page(t.app, manager, `/admin/categories/${String(full.slug)}/delete`);
    const refused = await post(t.app, manager, `/admin/categories/${String(full.slug)}/delete`, { _csrf: refusedPage.csrf ?? '' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/still has \d+ product/);
    expect(refused.body).toContain('What to do');
  });
});
