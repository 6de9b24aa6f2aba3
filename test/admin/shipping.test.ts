import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let owner = '';
let viewer = '';
beforeAll(async () => {
  t = await createTestApp();
  owner = await staffCookie(t, 'olga@shop.dk', 'owner');
  viewer = await staffCookie(t, 'vera@shop.dk', 'viewer');
});
afterAll(async () => t.close());

const list = async () => (await t.call('shipping.list', {}, master)).body.result;

describe('the shipping page', () => {
  it('says a shop without rates ships flat, and is linked from the navigation', async () => {
    const shown = await page(t.app, owner, '/admin/shipping');
    expect(shown.response.statusCode).toBe(200);
    expect(shown.response.body).toContain('<a href="/admin/shipping" aria-current="page">Shipping</a>');
    expect(shown.response.body).toContain('No rates: every order ships at the flat price in Settings.');
    expect(shown.response.body).toContain('<label for="field-price">Price (minor units, VAT incl.)</label>');
  });

  it('adds a rate typed in minor units and shows it in the shop currency; a country in lower case is taken', async () => {
    const form = await page(t.app, owner, '/admin/shipping');
    const saved = await post(t.app, owner, '/admin/shipping/rates', {
      _csrf: form.csrf ?? '', rateId: 'dk-std', title: 'PostNord', serviceLevel: 'standard', countryCode: 'dk', price: '3900',
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/admin/shipping?done=rateSaved');
    expect((await list()).rates).toEqual([expect.objectContaining({ id: 'dk-std', countryCode: 'DK', price: 3900 })]);
    const shown = (await page(t.app, owner, '/admin/shipping?done=rateSaved')).response.body;
    expect(shown).toContain('The rate was saved.');
    expect(shown).toContain('<td data-label="Price" class="num">DKK\u00a039.00</td>');
  });

  it('fills the form with the rate chosen for editing, and saves the change', async () => {
    const form = await page(t.app, owner, '/admin/shipping?rate=dk-std');
    expect(form.response.body).toContain('name="price" type="number" inputmode="numeric" value="3900"');
    await post(t.app, owner, '/admin/shipping/rates', {
      _csrf: form.csrf ?? '', rateId: 'dk-std', title: 'PostNord', serviceLevel: 'standard', countryCode: 'DK', price: '4500',
    });
    expect((await list()).rates[0].price).toBe(4500);
  });

  it('keeps what was typed and marks the field the tool refused', async () => {
    const form = await page(t.app, owner, '/admin/shipping');
    const refused = await post(t.app, owner, '/admin/shipping/rates', {
      _csrf: form.csrf ?? '', rateId: 'bad', title: 'Bad', serviceLevel: 'standard', countryCode: 'Danmark', price: '100',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('aria-describedby="field-countryCode-error"');
    expect(refused.body).toContain('name="countryCode" type="text" value="Danmark"');
  });

  it('adds a promotion with products one per line, and deletes it after asking', async () => {
    const form = await page(t.app, owner, '/admin/shipping');
    const saved = await post(t.app, owner, '/admin/shipping/promotions', {
      _csrf: form.csrf ?? '', promotionId: 'free-500', description: 'Fri fragt over 500 kr.', minSubtotal: '50000', eligibleSkus: 'aviator-classic\r\n\r\nwayfarer\r\n',
    });
    expect(saved.headers.location).toBe('/admin/shipping?done=promotionSaved');
    expect((await list()).promotions).toEqual([expect.objectContaining({ id: 'free-500', minSubtotal: 50000, eligibleSkus: ['aviator-classic', 'wayfarer'] })]);
    const shown = (await page(t.app, owner, '/admin/shipping')).response.body;
    expect(shown).toContain('<td data-label="Free from" class="num">DKK\u00a0500.00</td>');

    const ask = await page(t.app, owner, '/admin/shipping/promotions/free-500/delete');
    expect(ask.response.body).toContain('Delete this promotion?');
    const deleted = await post(t.app, owner, '/admin/shipping/promotions/free-500/delete', { _csrf: ask.csrf ?? '' });
    expect(deleted.headers.location).toBe('/admin/shipping?done=promotionRemoved');
    expect((await list()).promotions).toEqual([]);
  });

  it('shows a viewer the rates without forms, and refuses their change through the tool', async () => {
    const shown = await page(t.app, viewer, '/admin/shipping');
    expect(shown.response.body).toContain('PostNord');
    expect(shown.response.body).toContain('Only an owner changes shipping.');
    expect(shown.response.body).not.toContain('action="/admin/shipping/rates"');
    const ask = await page(t.app, viewer, '/admin/shipping/rates/dk-std/delete');
    const refused = await post(t.app, viewer, '/admin/shipping/rates/dk-std/delete', { _csrf: ask.csrf ?? '' });
    expect(refused.statusCode).toBe(403);
    expect((await list()).rates).toHaveLength(1);
  });
});
