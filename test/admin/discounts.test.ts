import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let manager = '';
let viewer = '';
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoStore(t.database.db, { baseUrl: 'http://butik.test' });
  manager = await staffCookie(t, 'anna@shop.dk', 'manager');
  viewer = await staffCookie(t, 'vera@shop.dk', 'viewer');
});
afterAll(async () => t.close());

const row = (body: string, code: string) => new RegExp(`<tr><td data-label="Code"><a href="/admin/discounts/${code}">${code}</a></td>.*?</tr>`).exec(body)?.[0] ?? '';

describe('the discounts page', () => {
  it('lists codes with kind, value in the shop currency or percent, uses against the limit, validity and state', async () => {
    const list = await page(t.app, manager, '/admin/discounts');
    expect(list.response.statusCode).toBe(200);
    const summer = row(list.response.body, 'SOMMER25');
    expect(summer).toContain('<td data-label="Kind">Percent off</td>');
    expect(summer).toContain('<td data-label="Value" class="num">25 %</td>');
    expect(summer).toContain('<td data-label="Uses" class="num">1 / 500</td>');
    expect(summer).toContain('<td data-label="Validity">no end</td>');
    const welcome = row(list.response.body, 'VELKOMMEN100');
    expect(welcome).toContain('<td data-label="Value" class="num">DKK\u00a0100.00</td>');
    expect(welcome).toContain('0 / unlimited');
    expect(row(list.response.body, 'VINTER15')).toContain('<td data-label="Active">no');
    await t.call('discounts.create', { code: 'MIDDAG', type: 'percent', value: 10, validUntil: '2026-12-01T12:00:00Z' }, master);
    // An end set through the API at noon is shown as that instant, in the shop's time zone.
    expect(row((await page(t.app, manager, '/admin/discounts')).response.body, 'MIDDAG')).toContain('<td data-label="Validity">until 1 Dec 2026, 13:00</td>');
    const active = await page(t.app, manager, '/admin/discounts?active=1');
    expect(active.response.body).not.toContain('VINTER15');
  });

  it('creates a code with every field discounts.create takes, valid through the chosen day in the shop time zone', async () => {
    const form = await page(t.app, manager, '/admin/discounts/new');
    expect(form.response.body).toContain('<label for="field-usageLimit">');
    const made = await post(t.app, manager, '/admin/discounts/new', {
      _csrf: form.csrf ?? '', code: 'efteraar40', type: 'fixed', value: '40', validUntil: '2026-10-31', usageLimit: '20',
    });
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toBe('/admin/discounts/EFTERAAR40?done=created');
    const stored = (await t.call('discounts.get', { code: 'EFTERAAR40' }, master)).body.result;
    // Through 31 October in Copenhagen (CET, UTC+1): the code stops at midnight, 23:00 UTC.
    expect(stored).toMatchObject({ type: 'fixed', value: 4000, usageLimit: 20, validUntil: '2026-10-31T23:00:00.000Z', active: true });
    const detail = await page(t.app, manager, '/admin/discounts/EFTERAAR40?done=created');
    expect(detail.response.body).toContain('The discount code was created.');
    expect(detail.response.body).toContain('<dd>DKK\u00a040.00</dd>');
    expect(detail.response.body).toContain('<dt>Validity</dt><dd>through 31 Oct 2026</dd>');
    const [entry] = (await t.call('audit.list', { targetSlug: 'EFTERAAR40', limit: 1 }, master)).body.result;
    expect(entry).toMatchObject({ tool: 'discounts.create', channel: 'admin', actor: { name: 'anna@shop.dk (manager)' } });
  });

  it('shows a refused value next to its field and keeps what was typed', async () => {
    const form = await page(t.app, manager, '/admin/discounts/new');
    const refused = await post(t.app, manager, '/admin/discounts/new', { _csrf: form.csrf ?? '', code: 'HALVT', type: 'percent', value: '150', usageLimit: '' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/id="field-value"[^>]*value="150"[^>]*aria-invalid="true"/);
    expect(refused.body).toContain('id="field-value-error"');
    expect(refused.body).toContain('value="HALVT"');
    expect(refused.body).toContain('What to do');
    const taken = await post(t.app, manager, '/admin/discounts/new', { _csrf: form.csrf ?? '', code: 'sommer25', type: 'percent', value: '10' });
    expect(taken.statusCode).toBe(422);
    expect(taken.body).toContain('Discount code &quot;SOMMER25&quot; already exists.');
  });

  it('switches a code off after a confirmation and on again, and Activity can revert it', async () => {
    const confirm = await page(t.app, manager, '/admin/discounts/SOMMER25/deactivate');
    expect(confirm.response.body).toContain('Switch this discount code off?');
    const off = await post(t.app, manager, '/admin/discounts/SOMMER25/deactivate', { _csrf: confirm.csrf ?? '' });
    expect(off.statusCode).toBe(303);
    expect((await t.call('discounts.get', { code: 'SOMMER25' }, master)).body.result.active).toBe(false);
    const detail = await page(t.app, manager, '/admin/discounts/SOMMER25?done=deactivated');
    expect(detail.response.body).toContain('The discount code is switched off.');
    expect(detail.response.body).toContain('>Activate<');

    const activity = await page(t.app, manager, '/admin/activity?target=SOMMER25');
    expect(activity.response.body).toMatch(/<td data-label="Field" title="active">Active<\/td><td data-label="Before">yes<\/td><td data-label="After">no<\/td>/);
    const [entry] = (await t.call('audit.list', { targetSlug: 'SOMMER25', limit: 1 }, master)).body.result;
    const revert = await page(t.app, manager, `/admin/activity/${entry.id}/revert`);
    expect((await post(t.app, manager, `/admin/activity/${entry.id}/revert`, { _csrf: revert.csrf ?? '' })).statusCode).toBe(303);
    expect((await t.call('discounts.get', { code: 'SOMMER25' }, master)).body.result.active).toBe(true);

    const on = await post(t.app, manager, '/admin/discounts/VINTER15/activate', { _csrf: detail.csrf ?? '' });
    expect(on.statusCode).toBe(303);
    expect((await t.call('discounts.get', { code: 'VINTER15' }, master)).body.result.active).toBe(true);
  });

  it('shows a viewer no write controls, and refuses a forged write by the tool scope check', async () => {
    const list = await page(t.app, viewer, '/admin/discounts');
    expect(list.response.statusCode).toBe(200);
    expect(list.response.body).not.toContain('New discount code');
    expect(list.response.body).not.toContain('/deactivate');
    const forged = await post(t.app, viewer, '/admin/discounts/new', { _csrf: list.csrf ?? '', code: 'GRATIS', type: 'percent', value: '100' });
    expect(forged.statusCode).toBe(422);
    expect(forged.body).toContain('discounts.create needs scope discounts:write');
    expect((await t.call('discounts.get', { code: 'GRATIS' }, master)).status).toBe(404);
    const toggled = await post(t.app, viewer, '/admin/discounts/SOMMER25/deactivate', { _csrf: list.csrf ?? '' });
    expect(toggled.statusCode).toBe(403);
    expect((await t.call('discounts.get', { code: 'SOMMER25' }, master)).body.result.active).toBe(true);
  });
});
