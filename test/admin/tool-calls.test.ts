import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { addPerson, formFields, page, post, signIn, staffCookie } from './helpers.ts';

let t: TestApp;
let manager = '';
let viewer = '';

beforeAll(async () => {
  t = await createTestApp();
  await seedDemoStore(t.database.db, { baseUrl: 'http://butik.test' });
  await addPerson(t.database.db, 'olga@shop.dk', 'owner');
  manager = await staffCookie(t, 'anna@shop.dk', 'manager');
  viewer = await staffCookie(t, 'vera@shop.dk', 'viewer');
});
afterAll(async () => t.close());

async function editForm(cookie: string, slug: string) {
  const edit = await page(t.app, cookie, `/admin/products/${slug}`);
  return { edit, form: formFields(edit.response.body, `/admin/products/${slug}`) };
}

describe('console forms call the tools as the signed-in person', () => {
  it('saves a price through products.update and the audit log names the person and the admin channel', async () => {
    const { form } = await editForm(manager, 'aviator-classic');
    const saved = await post(t.app, manager, '/admin/products/aviator-classic', { ...form, priceDkk: '1.199,00' });
    expect(saved.statusCode).toBe(303);
    expect((await t.call('products.get', { slug: 'aviator-classic' })).body.result.priceDkk).toBe(119900);
    const key = await t.keyWith('audit:read');
    const [entry] = (await t.call('audit.list', { targetSlug: 'aviator-classic', limit: 1 }, { key })).body.result;
    expect(entry).toMatchObject({ tool: 'products.update', channel: 'admin', actor: { kind: 'staff', name: 'anna@shop.dk (manager)' } });
    const activity = await page(t.app, manager, '/admin/activity?target=aviator-classic');
    expect(activity.response.body).toContain('anna@shop.dk (manager)');
    expect(activity.response.body).toMatch(/<td data-label="Field" title="priceDkk">Price<\/td><td data-label="Before"><data value="129900">DKK\s1,299\.00<\/data><\/td><td data-label="After"><data value="119900">DKK\s1,199\.00<\/data><\/td>/);
  });

  it('shows a money setting\'s change in the shop currency, with its minor units kept beside it', async () => {
    const owner = (await signIn(t.app, 'olga@shop.dk')).cookie ?? '';
    const settings = await page(t.app, owner, '/admin/settings');
    const value = (name: string) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(settings.response.body)?.[1] ?? '';
    await post(t.app, owner, '/admin/settings', {
      _csrf: settings.csrf ?? '', storeName: value('storeName'), shippingDkk: '39,50', freeShippingThresholdDkk: value('freeShippingThresholdDkk'), currency: value('currency'),
    });
    const activity = await page(t.app, owner, '/admin/activity?tool=settings.update');
    expect(activity.response.body).toContain('>Setting &quot;Shipping&quot;</h2>');
    expect(activity.response.body).toMatch(/<data value="3950">DKK\s39\.50<\/data>/);
  });

  it('shows a refused field next to the field and keeps what was typed', async () => {
    const { form } = await editForm(manager, 'aviator-classic');
    const refused = await post(t.app, manager, '/admin/products/aviator-classic', { ...form, priceDkk: 'twelve', name: 'Aviator Typed' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/id="field-priceDkk"[^>]*value="twelve"[^>]*aria-invalid="true"/);
    expect(refused.body).toContain('id="field-priceDkk-error"');
    expect(refused.body).toContain('value="Aviator Typed"');
    expect(refused.body).toContain('What to do');
  });

  it('reverts a change from Activity after a confirmation that shows what goes back', async () => {
    const key = await t.keyWith('audit:read');
    const [entry] = (await t.call('audit.list', { targetSlug: 'aviator-classic', limit: 1 }, { key })).body.result;
    const confirm = await page(t.app, manager, `/admin/activity/${entry.id}/revert`);
    expect(confirm.response.body).toMatch(/<td data-label="Before"><data value="119900">DKK\s1,199\.00<\/data><\/td><td data-label="After"><data value="129900">DKK\s1,299\.00<\/data><\/td>/);
    const reverted = await post(t.app, manager, `/admin/activity/${entry.id}/revert`, { _csrf: confirm.csrf ?? '' });
    expect(reverted.statusCode).toBe(303);
    expect((await t.call('products.get', { slug: 'aviator-classic' })).body.result.priceDkk).toBe(129900);
    const again = await post(t.app, manager, `/admin/activity/${entry.id}/revert`, { _csrf: confirm.csrf ?? '' });
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('What to do');
  });

  it('shows a viewer no write forms, and refuses a forged write by the tool scope check', async () => {
    const view = await page(t.app, viewer, '/admin/products/aviator-classic');
    expect(view.response.statusCode).toBe(200);
    expect(view.response.body).not.toContain('<button type="submit">Save</button>');
    expect(view.response.body).not.toContain('/delete');
    const list = await page(t.app, viewer, '/admin/products');
    expect(list.response.body).not.toContain('New product');
    // The manager's form, posted with the viewer's session and token: the tool's scope check refuses it.
    const { form } = await editForm(manager, 'aviator-classic');
    const forged = await post(t.app, viewer, '/admin/products/aviator-classic', { ...form, _csrf: view.csrf ?? '', name: 'Hacked', description: 'Hacked by a viewer' });
    expect(forged.statusCode).toBe(422);
    expect(forged.body).toContain('products.update needs scope products:write');
    expect((await t.call('products.get', { slug: 'aviator-classic' })).body.result.name).toBe('Aviator Classic');
    expect((await page(t.app, viewer, '/admin/keys')).response.statusCode).toBe(403);
  });
});
