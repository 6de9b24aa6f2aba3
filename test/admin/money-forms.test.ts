import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { formFields, page, post, demoShopSignedIn } from './helpers.ts';

let t: TestApp;
let owner = '';
beforeAll(async () => {
  ({ t, cookie: owner } = await demoShopSignedIn('olga@shop.dk', 'owner'));
});
afterAll(async () => t.close());

const valueOf = (body: string, name: string) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(body)?.[1];
const product = async (slug: string) => (await t.call('products.get', { slug }, master)).body.result as { priceDkk: number; name: string };

async function newProduct(fields: Record<string, string>) {
  const form = await page(t.app, owner, '/admin/products/new');
  return post(t.app, owner, '/admin/products/new', {
    _csrf: form.csrf ?? '', slug: 'kroner-test', name: 'Kroner Test', stock: '3', categorySlug: 'solbriller', description: 'Typed in kroner.', ...fields,
  });
}

async function editForm(slug: string) {
  const edit = await page(t.app, owner, `/admin/products/${slug}`);
  const body = edit.response.body;
  // The form as drawn, its baseline included (versioned-form.ts), so a save sends what the test changes.
  return { body, form: formFields(body, `/admin/products/${slug}`) };
}

describe('amounts in the console are kroner', () => {
  it('creates a product typed as "1.249,00" at 124900 øre, and its edit page shows 1249.00 under a label with the currency', async () => {
    const form = await page(t.app, owner, '/admin/products/new');
    expect(form.response.body).toContain('<label for="field-priceDkk">Price (DKK, VAT incl.)</label>');
    expect(form.response.body).toMatch(/id="field-priceDkk" name="priceDkk" type="text" inputmode="decimal"/);
    const made = await newProduct({ priceDkk: '1.249,00' });
    expect(made.statusCode).toBe(303);
    expect((await product('kroner-test')).priceDkk).toBe(124900);
    const { body } = await editForm('kroner-test');
    expect(valueOf(body, 'priceDkk')).toBe('1249.00');
  });

  it.each([['1249'], ['1249.00'], ['1 249,00'], ['1,249.00']])('saves %j typed on the edit page as 124900 øre', async (typed) => {
    const { form } = await editForm('aviator-classic');
    const saved = await post(t.app, owner, '/admin/products/aviator-classic', { ...form, priceDkk: typed });
    expect(saved.statusCode).toBe(303);
    expect((await product('aviator-classic')).priceDkk).toBe(124900);
  });

  it('refuses ambiguous text by field, keeps what was typed and saves nothing', async () => {
    const { form } = await editForm('aviator-classic');
    const before = await product('aviator-classic');
    const refused = await post(t.app, owner, '/admin/products/aviator-classic', { ...form, priceDkk: '1.249', name: 'Typed Name' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/id="field-priceDkk"[^>]*value="1.249"[^>]*aria-invalid="true"/);
    expect(refused.body).toContain('could be read two ways');
    expect(refused.body).toContain('value="Typed Name"');
    expect(await product('aviator-classic')).toEqual(before);
  });

  it('reads the shipping settings in kroner and shows them with two decimals', async () => {
    const shown = await page(t.app, owner, '/admin/settings');
    expect(shown.response.body).toContain('Shipping price (DKK, VAT incl.)');
    const names = ['storeName', 'shippingDkk', 'freeShippingThresholdDkk', 'currency'];
    const form = Object.fromEntries(names.map((name) => [name, valueOf(shown.response.body, name) ?? '']));
    expect(form).toMatchObject({ shippingDkk: '49.00', freeShippingThresholdDkk: '500.00' });
    const saved = await post(t.app, owner, '/admin/settings', { _csrf: shown.csrf ?? '', ...form, shippingDkk: '59,5', freeShippingThresholdDkk: '1.000,00' });
    expect(saved.statusCode).toBe(303);
    expect((await t.call('settings.get', {}, master)).body.result).toMatchObject({ shippingDkk: 5950, freeShippingThresholdDkk: 100000 });
    const refused = await post(t.app, owner, '/admin/settings', { _csrf: shown.csrf ?? '', ...form, shippingDkk: 'fifty' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/id="field-shippingDkk"[^>]*value="fifty"[^>]*aria-invalid="true"/);
    expect((await t.call('settings.get', {}, master)).body.result).toMatchObject({ shippingDkk: 5950 });
  });

  it('reads a discount amount off in kroner and a percent as a whole number', async () => {
    const form = await page(t.app, owner, '/admin/discounts/new');
    expect(form.response.body).toContain('Value (percent 1–100, or DKK for an amount off)');
    expect((await post(t.app, owner, '/admin/discounts/new', { _csrf: form.csrf ?? '', code: 'KRONER50', type: 'fixed', value: '49,95' })).statusCode).toBe(303);
    expect((await t.call('discounts.get', { code: 'KRONER50' }, master)).body.result).toMatchObject({ type: 'fixed', value: 4995 });
    expect((await post(t.app, owner, '/admin/discounts/new', { _csrf: form.csrf ?? '', code: 'PROCENT20', type: 'percent', value: '20' })).statusCode).toBe(303);
    expect((await t.call('discounts.get', { code: 'PROCENT20' }, master)).body.result).toMatchObject({ type: 'percent', value: 20 });
  });
});

describe('a likely slip is shown before it is saved', () => {
  it('warns about a price cut over half, saves nothing, and saves after "Save anyway"', async () => {
    const { form } = await editForm('aviator-classic');
    const before = await product('aviator-classic');
    const warned = await post(t.app, owner, '/admin/products/aviator-classic', { ...form, priceDkk: '12,49' });
    expect(warned.statusCode).toBe(200);
    expect(warned.body).toContain('Nothing was saved yet.');
    expect(warned.body).toMatch(/Price would go from DKK\s1,249\.00 to DKK\s12\.49, 99 % lower\./);
    expect(warned.body).toContain('<input type="hidden" name="confirmed" value="1"><button type="submit">Save anyway</button>');
    expect(valueOf(warned.body, 'priceDkk')).toBe('12,49');
    expect(await product('aviator-classic')).toEqual(before);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(warned.body)?.[1] ?? '';
    const idem = /name="_idem" value="([^"]+)"/.exec(warned.body)?.[1] ?? '';
    const saved = await post(t.app, owner, '/admin/products/aviator-classic', { ...form, _csrf: csrf, _idem: idem, priceDkk: '12,49', confirmed: '1' });
    expect(saved.statusCode).toBe(303);
    expect((await product('aviator-classic')).priceDkk).toBe(1249);
  });

  it('warns about a new price under one krone', async () => {
    const form = await page(t.app, owner, '/admin/products/new');
    const warned = await post(t.app, owner, '/admin/products/new', {
      _csrf: form.csrf ?? '', slug: 'oere-slip', name: 'Øre Slip', stock: '1', categorySlug: 'solbriller', description: 'A slip.', priceDkk: '0,50',
    });
    expect(warned.statusCode).toBe(200);
    expect(warned.body).toMatch(/Price would be DKK\s0\.50, less than one krone: was it typed in øre\?/);
    expect((await t.call('products.get', { slug: 'oere-slip' }, master)).status).toBe(404);
  });

  it('warns about an amount off under one krone on a new discount code', async () => {
    const form = await page(t.app, owner, '/admin/discounts/new');
    const warned = await post(t.app, owner, '/admin/discounts/new', { _csrf: form.csrf ?? '', code: 'SMULE', type: 'fixed', value: '0,40' });
    expect(warned.statusCode).toBe(200);
    expect(warned.body).toMatch(/Amount off would be DKK\s0\.40/);
    expect((await t.call('discounts.get', { code: 'SMULE' }, master)).status).toBe(404);
    const saved = await post(t.app, owner, '/admin/discounts/new', { _csrf: form.csrf ?? '', code: 'SMULE', type: 'fixed', value: '0,40', confirmed: '1' });
    expect(saved.statusCode).toBe(303);
    expect((await t.call('discounts.get', { code: 'SMULE' }, master)).body.result).toMatchObject({ value: 40 });
  });
});
