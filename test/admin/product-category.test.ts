import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { formFields, page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let manager = '';
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoStore(t.database.db, { baseUrl: 'http://butik.test' });
  manager = await staffCookie(t, 'anna@shop.dk', 'manager');
});
afterAll(async () => t.close());

const selectOf = (body: string) => /<select id="field-categorySlug" name="categorySlug"[^>]*>([\s\S]*?)<\/select>/.exec(body)?.[1] ?? '';

describe('the product form\'s category', () => {
  it('is chosen from the shop\'s categories, the product\'s own selected, and a new product starts with no choice', async () => {
    const edit = await page(t.app, manager, '/admin/products/aviator-classic');
    const options = selectOf(edit.response.body);
    expect(options).toContain('<option value="solbriller" selected>Solbriller (solbriller)</option>');
    expect(options).toContain('<option value="laesebriller">Læsebriller (laesebriller)</option>');
    expect(options.match(/<option /g)).toHaveLength(5);
    expect(edit.response.body).toContain('<label for="field-categorySlug">Category</label>');

    const created = await page(t.app, manager, '/admin/products/new');
    expect(created.response.body).toMatch(/<select id="field-categorySlug" name="categorySlug" required>/);
    expect(selectOf(created.response.body)).toMatch(/^<option value="" selected>Choose a category<\/option>/);
  });

  it('moves the product to the chosen category', async () => {
    const edit = await page(t.app, manager, '/admin/products/aviator-classic');
    const saved = await post(t.app, manager, '/admin/products/aviator-classic', {
      ...formFields(edit.response.body, '/admin/products/aviator-classic'), categorySlug: 'sportsbriller',
    });
    expect(saved.statusCode).toBe(303);
    expect((await t.call('products.get', { slug: 'aviator-classic' })).body.result.category.slug).toBe('sportsbriller');
    expect(selectOf((await page(t.app, manager, '/admin/products/aviator-classic')).response.body)).toContain('<option value="sportsbriller" selected>');
  });
});
