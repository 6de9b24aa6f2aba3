import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { createDiscount, placeOrder } from '../helpers/commerce.ts';
import { master } from '../helpers/fixtures.ts';
import { formFields, page, post, demoShopSignedIn } from './helpers.ts';

let t: TestApp;
let manager = '';
beforeAll(async () => {
  ({ t, cookie: manager } = await demoShopSignedIn('anna@shop.dk', 'manager'));
});
afterAll(async () => t.close());

const etagOf = async (tool: string, input: Record<string, unknown>) => String((await t.call(tool, input, master)).headers.etag ?? '').replaceAll('"', '');

describe('console forms whose tool takes a version token', () => {
  it('a service: the form carries the ETag, and an agent\'s change meanwhile brings the conflict form instead of a silent overwrite', async () => {
    const url = '/admin/services/synsproeve';
    const form = formFields((await page(t.app, manager, url)).response.body, url);
    expect(form._version).toBe(await etagOf('services.get', { slug: 'synsproeve' }));
    await t.call('services.update', { slug: 'synsproeve', patch: { priceString: 'Gratis i november' } }, master);
    const refused = await post(t.app, manager, url, { ...form, title: 'Synsprøve hos os' });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('Someone else changed this while you were editing it');
    expect(refused.body).toContain('<p class="hint" id="field-priceString-note">Saved now: Gratis i november</p>');
    expect((await t.call('services.get', { slug: 'synsproeve' }, master)).body.result).toMatchObject({ priceString: 'Gratis i november' });
    expect((await t.call('services.get', { slug: 'synsproeve' }, master)).body.result.title).not.toBe('Synsprøve hos os');
  });

  it('an order\'s status move is refused when the order changed since the page was opened', async () => {
    const { orderId } = await placeOrder(t);
    const url = `/admin/orders/${orderId}`;
    const opened = (await page(t.app, manager, url)).response.body;
    const action = `${url}/status`;
    const form = formFields(opened, action);
    expect(form._version).toBe(await etagOf('orders.get', { orderId }));
    await t.call('orders.update_status', { orderId, status: 'flagged_review' }, master);
    const refused = await post(t.app, manager, action, form);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Nothing was done: the order changed since you opened it.');
    expect((await t.call('orders.get', { orderId }, master)).body.result.status).toBe('flagged_review');
  });

  it('a discount code switched off from its confirmation page is refused when the code changed meanwhile', async () => {
    const { code } = await createDiscount(t);
    const action = `/admin/discounts/${code}/deactivate`;
    const form = formFields((await page(t.app, manager, action)).response.body, action);
    expect(form._version).toBe(await etagOf('discounts.get', { code }));
    await t.call('discounts.toggle', { code, active: false }, master);
    await t.call('discounts.toggle', { code, active: true }, master);
    const refused = await post(t.app, manager, action, form);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('the discount code changed since you opened it');
    expect((await t.call('discounts.get', { code }, master)).body.result.active).toBe(true);
  });

  it('the layout editor keeps the token it was opened with while sections are added, and refuses a save over a change', async () => {
    const url = '/admin/pages/om-os';
    const action = `${url}/layout`;
    const opened = formFields((await page(t.app, manager, url)).response.body, action);
    expect(opened._version).toBe(await etagOf('pages.get_layout', { slug: 'om-os' }));
    const added = await post(t.app, manager, action, { ...opened, 'new:sections': 'text', op: 'add:sections' });
    expect(formFields(added.body, action)._version).toBe(opened._version);
    await t.call('pages.upsert', { slug: 'om-os', title: 'Om os', body: 'Ny tekst fra en agent.', status: 'published' }, master);
    const before = JSON.stringify((await t.call('pages.get_layout', { slug: 'om-os' }, master)).body.result);
    const withText = formFields(added.body, action);
    const newBody = Object.keys(withText).filter((name) => /^layout\.sections\.\d+\.body$/.test(name)).at(-1) ?? '';
    const refused = await post(t.app, manager, action, { ...withText, [newBody]: 'Åbent hver lørdag.', op: 'save' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Someone else changed this while you were editing it');
    expect(JSON.stringify((await t.call('pages.get_layout', { slug: 'om-os' }, master)).body.result)).toBe(before);
  });
});
