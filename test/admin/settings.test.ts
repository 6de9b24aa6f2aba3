import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let owner = '';
let manager = '';
let reader = '';

beforeAll(async () => {
  t = await createTestApp();
  owner = await staffCookie(t, 'olga@shop.dk', 'owner');
  manager = await staffCookie(t, 'anna@shop.dk', 'manager');
  reader = await t.keyWith('settings:read', 'features:read', 'audit:read');
});
const read = async (tool: string) => (await t.call(tool, {}, { key: reader })).body.result;
afterAll(async () => t.close());

/** The settings form as the page fills it in. */
async function settingsForm(cookie: string) {
  const shown = await page(t.app, cookie, '/admin/settings');
  const value = (name: string) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(shown.response.body)?.[1] ?? '';
  const names = ['storeName', 'tagline', 'contactEmail', 'cvrNumber', 'shippingDkk', 'freeShippingThresholdDkk', 'currency'];
  return { shown, form: { _csrf: shown.csrf ?? '', ...Object.fromEntries(names.map((name) => [name, value(name)])) } as Record<string, string> };
}

describe('settings and features in the console', () => {
  it('shows every setting with its current value and the money in the shop currency', async () => {
    const { shown, form } = await settingsForm(owner);
    expect(shown.response.statusCode).toBe(200);
    expect(form).toMatchObject({ storeName: 'Butik', shippingDkk: '49.00', freeShippingThresholdDkk: '500.00', currency: 'DKK' });
    expect(shown.response.body).toMatch(/Now DKK\s49\.00\./);
    expect(shown.response.body).toContain('name="stackDiscountCodes"');
    expect(shown.response.body).toMatch(/<strong>checkout<\/strong>.*?<td data-label="State">on<\/td>/s);
  });

  it('saves changed settings through settings.update, one audited entry per setting, and clears an emptied one', async () => {
    const { form } = await settingsForm(owner);
    const saved = await post(t.app, owner, '/admin/settings', { ...form, shippingDkk: '39', tagline: 'Fri fragt', stackDiscountCodes: 'on' });
    expect(saved.statusCode).toBe(303);
    expect((await page(t.app, owner, String(saved.headers.location))).response.body).toContain('The settings were saved.');
    expect((await read('settings.get'))).toMatchObject({ shippingDkk: 3900, tagline: 'Fri fragt', stackDiscountCodes: true, storeName: 'Butik' });
    const entries = (await t.call('audit.list', { tool: 'settings.update', limit: 10 }, { key: reader })).body.result as Array<Record<string, any>>;
    expect(entries.map((entry) => entry.targetId).sort()).toEqual(['shippingDkk', 'stackDiscountCodes', 'tagline']);
    expect(entries[0]).toMatchObject({ channel: 'admin', actor: { kind: 'staff', name: 'olga@shop.dk (owner)' } });

    const again = await settingsForm(owner);
    await post(t.app, owner, '/admin/settings', { ...again.form, tagline: '', stackDiscountCodes: 'on' });
    expect((await read('settings.get')).tagline).toBeNull();
  });

  it('keeps what was typed and names the field a setting was refused for', async () => {
    const { form } = await settingsForm(owner);
    const refused = await post(t.app, owner, '/admin/settings', { ...form, cvrNumber: '123', currency: 'KRONER' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/id="field-cvrNumber"[^>]*value="123"[^>]*aria-invalid="true"/);
    expect(refused.body).toContain('a CVR number is exactly 8 digits');
    expect(refused.body).toMatch(/id="field-currency"[^>]*value="KRONER"[^>]*aria-invalid="true"/);
    expect((await read('settings.get')).cvrNumber).toBeNull();
  });

  it('switches checkout off through features.set only after its confirmation page, and shows it off', async () => {
    const { shown } = await settingsForm(owner);
    expect(shown.response.body).toContain('<a class="button danger" href="/admin/settings/features/checkout/off">Switch off');
    const skipped = await post(t.app, owner, '/admin/settings/features/checkout', { _csrf: shown.csrf ?? '', enabled: 'false' });
    expect(skipped.headers.location).toBe('/admin/settings/features/checkout/off');
    expect((await read('features.list')).find((flag: { key: string }) => flag.key === 'checkout').enabled).toBe(true);
    const asked = await page(t.app, owner, '/admin/settings/features/checkout/off');
    expect(asked.response.body).toContain('<h1>Switch off this feature?</h1>');
    expect(asked.response.body).toContain('Customers can no longer check out');
    const off = await post(t.app, owner, '/admin/settings/features/checkout/off', { _csrf: asked.csrf ?? '' });
    expect(off.statusCode).toBe(303);
    expect((await read('features.list')).find((flag: { key: string }) => flag.key === 'checkout').enabled).toBe(false);
    const after = await page(t.app, owner, '/admin/settings?done=switched');
    expect(after.response.body).toContain('The feature was switched.');
    expect(after.response.body).toMatch(/<strong>checkout<\/strong>.*?<td data-label="State">off<\/td>.*?Switch on/s);
  });

  it('shows a manager the settings without forms, and refuses a forged write by scope', async () => {
    const shown = await page(t.app, manager, '/admin/settings');
    expect(shown.response.statusCode).toBe(200);
    expect(shown.response.body).toContain('Only an owner changes settings and features.');
    expect(shown.response.body).not.toContain('action="/admin/settings"');
    expect(shown.response.body).not.toContain('Switch on');
    const forged = await post(t.app, manager, '/admin/settings', { _csrf: shown.csrf ?? '', storeName: 'Mine', shippingDkk: '0', freeShippingThresholdDkk: '0', currency: 'DKK' });
    expect(forged.statusCode).toBe(422);
    expect(forged.body).toContain('settings.update needs scope settings:write');
    const toggled = await post(t.app, manager, '/admin/settings/features/checkout', { _csrf: shown.csrf ?? '', enabled: 'true' });
    expect(toggled.body).toContain('features.set needs scope features:write');
    expect((await read('settings.get')).storeName).toBe('Butik');
  });
});
