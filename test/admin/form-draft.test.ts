import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/access/api-keys.ts';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { MASTER_KEY, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { placeOrder } from '../helpers/commerce.ts';
import { master } from '../helpers/fixtures.ts';
import { PASSWORD, addPerson, formFields, page, post, sessionCookie, signIn } from './helpers.ts';

let t: TestApp;
let now = new Date('2026-11-20T10:00:00Z');
const NINE_HOURS = 9 * 3600_000;

beforeAll(async () => {
  t = await createTestApp({ clock: () => now });
  await seedDemoStore(t.database.db, { baseUrl: 'http://butik.test' });
  await addPerson(t.database.db, 'anna@shop.dk', 'manager');
  await addPerson(t.database.db, 'olga@shop.dk', 'owner');
});
afterAll(async () => t.close());

function decode(text: string): string {
  return text.replaceAll('&quot;', '"').replaceAll('&#39;', '\'').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/** The edit form of a product as the signed-in person sees it, then left alone until the session has ended. */
async function staleForm() {
  const cookie = (await signIn(t.app, 'anna@shop.dk')).cookie ?? '';
  const edit = await page(t.app, cookie, '/admin/products/aviator-classic');
  now = new Date(now.getTime() + NINE_HOURS);
  return { cookie, csrf: edit.csrf ?? '' };
}

describe('a form saved after the session ended', () => {
  it('asks to sign in, then shows the form again with what was typed and a notice, without saving it', async () => {
    const { cookie, csrf } = await staleForm();
    const late = await post(t.app, cookie, '/admin/products/aviator-classic', {
      _csrf: csrf, _idem: '00000000-0000-4000-8000-000000000000', name: 'Aviator "Typed" <late>', priceDkk: '99900', stock: '7', description: 'Typed before the session ended.', categorySlug: 'solbriller',
    });
    expect(late.statusCode).toBe(401);
    expect(late.body).toContain('Your session ended before the form was saved.');
    const draft = /<input type="hidden" name="draft" value="([^"]*)">/.exec(late.body)?.[1] ?? '';
    const kept = JSON.parse(decode(draft)) as { path: string; fields: Record<string, string> };
    expect(kept).toEqual({ path: '/admin/products/aviator-classic', action: '/admin/products/aviator-classic', fields: { name: 'Aviator "Typed" <late>', priceDkk: '99900', stock: '7', description: 'Typed before the session ended.', categorySlug: 'solbriller' } });
    expect(late.body).not.toContain(csrf);

    const wrong = await t.app.inject({
      method: 'POST', url: '/admin/login', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: 'anna@shop.dk', password: 'not the password', draft: decode(draft) }).toString(),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain(`name="draft" value="${draft}"`);

    const signedIn = await t.app.inject({
      method: 'POST', url: '/admin/login', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: 'anna@shop.dk', password: PASSWORD, draft: decode(draft) }).toString(),
    });
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/admin/products/aviator-classic');
    const fresh = sessionCookie(signedIn.headers['set-cookie']) ?? '';
    const restored = await page(t.app, fresh, '/admin/products/aviator-classic');
    expect(restored.response.body).toContain('Your session ended; check and save again.');
    expect(restored.response.body).toContain('value="Aviator &quot;Typed&quot; &lt;late&gt;"');
    expect(restored.response.body).toMatch(/id="field-priceDkk"[^>]*value="99900"/);
    expect((await t.call('products.get', { slug: 'aviator-classic' })).body.result.name).toBe('Aviator Classic');

    const again = await page(t.app, fresh, '/admin/products/aviator-classic');
    expect(again.response.body).not.toContain('Your session ended; check and save again.');
    expect(again.response.body).toContain('value="Aviator Classic"');
  });

  it('keeps nothing of a post another site made, or of a form with nothing to keep but passwords', async () => {
    const { cookie, csrf } = await staleForm();
    const foreign = await t.app.inject({
      method: 'POST', url: '/admin/products/aviator-classic',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      payload: new URLSearchParams({ _csrf: csrf, name: 'Forged' }).toString(),
    });
    expect(foreign.body).not.toContain('name="draft"');
    expect(foreign.body).not.toContain('Forged');
    const other = await post(t.app, cookie, '/admin/account', { _csrf: csrf, current: PASSWORD, next: 'a typed new password', confirm: 'a typed new password' });
    expect(other.body).not.toContain('name="draft"');
    expect(other.body).not.toContain('a typed new password');
  });
});

describe('the settings form saved after the session ended', () => {
  it('comes back after sign-in with what the owner typed', async () => {
    const cookie = (await signIn(t.app, 'olga@shop.dk')).cookie ?? '';
    const settings = await page(t.app, cookie, '/admin/settings');
    now = new Date(now.getTime() + NINE_HOURS);
    const late = await post(t.app, cookie, '/admin/settings', { _csrf: settings.csrf ?? '', storeName: 'Typed Shop Name', shippingDkk: '4100', freeShippingThresholdDkk: '50000', currency: 'DKK' });
    expect(late.statusCode).toBe(401);
    const draft = decode(/<input type="hidden" name="draft" value="([^"]*)">/.exec(late.body)?.[1] ?? '');
    const signedIn = await t.app.inject({
      method: 'POST', url: '/admin/login', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: 'olga@shop.dk', password: PASSWORD, draft }).toString(),
    });
    expect(signedIn.headers.location).toBe('/admin/settings');
    const restored = await page(t.app, sessionCookie(signedIn.headers['set-cookie']) ?? '', '/admin/settings');
    expect(restored.response.body).toContain('Your session ended; check and save again.');
    expect(restored.response.body).toMatch(/id="field-storeName"[^>]*value="Typed Shop Name"/);
    expect(restored.response.body).toMatch(/id="field-shippingDkk"[^>]*value="4100"/);
  });
});

/** A form of the console: the page it is on, where it posts, and what a person typed into it. */
type DraftCase = {
  name: string;
  page: () => string;
  action: () => string;
  typed: Record<string, string>;
  /** Fields sent more than once (checkboxes of one name). */
  lists?: Record<string, string[]>;
  /** What the restored page shows, where the form's own fields cannot say it (several forms share an action). */
  shows?: () => Array<string | RegExp>;
  /** What the form needs first, made just before it is opened. */
  prepare?: () => Promise<void>;
};

let serviceSlug = '';
let orderId = '';
let approvalId = '';

async function heldApproval(): Promise<string> {
  const agent = (await createKey(t.database.db, { name: 'pricing-bot', scopes: ['products:write'] }, { actor: { kind: 'cli' }, channel: 'cli', at: now })).key;
  const set = await t.app.inject({
    method: 'POST', url: '/api/v1/commands/policies.set', headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    payload: { document: { rules: [{ kind: 'price_drop', percentOver: 20 }] } },
  });
  expect(set.statusCode).toBe(200);
  const held = await t.call('products.update', { slug: 'aviator-classic', patch: { priceDkk: 100 } }, { key: agent });
  expect(held.status).toBe(202);
  return held.body.approval.id as string;
}

const CASES: DraftCase[] = [
  { name: 'a new product', page: () => '/admin/products/new', action: () => '/admin/products/new', typed: { slug: 'typed-frame', name: 'Typed frame', priceDkk: '999', stock: '3', description: 'Typed description.', categorySlug: 'briller' } },
  { name: 'a new service', page: () => '/admin/services/new', action: () => '/admin/services/new', typed: { title: 'Typed service', slug: 'typed-service', priceString: 'fra 500 kr.', body: 'Typed body.', status: 'draft' } },
  { name: 'a service', page: () => `/admin/services/${serviceSlug}`, action: () => `/admin/services/${serviceSlug}`, typed: { title: 'Typed title', body: 'Typed longer text.', navOrder: '7' } },
  { name: 'a category', page: () => '/admin/categories?edit=briller', action: () => '/admin/categories', typed: { slug: 'briller', name: 'Typed Briller', description: 'Typed description.' } },
  { name: 'a new CMS page', page: () => '/admin/pages/new', action: () => '/admin/pages/new', typed: { slug: 'typed-page', title: 'Typed page', body: 'Typed page body.', status: 'published' } },
  { name: 'a CMS page\'s details', page: () => '/admin/pages/typed-about', action: () => '/admin/pages/typed-about', typed: { title: 'Typed About', body: 'Typed about text.' } },
  {
    name: 'a CMS page\'s layout', page: () => '/admin/pages/typed-about', action: () => '/admin/pages/typed-about/layout',
    typed: { 'layout.sections.0.type': 'text', 'layout.sections.0.heading': 'Typed heading', 'layout.sections.0.body': 'Typed section text.', op: 'save' },
    shows: () => ['The layout has changes that are not saved yet.', /id="field-layout\.sections\.0\.heading"[^>]*value="Typed heading"/, />Typed section text\.<\/textarea>/],
  },
  { name: 'a new discount code', page: () => '/admin/discounts/new', action: () => '/admin/discounts/new', typed: { code: 'TYPED10', type: 'fixed', value: '25,50', usageLimit: '5' } },
  { name: 'a shipping rate', page: () => '/admin/shipping', action: () => '/admin/shipping/rates', typed: { rateId: 'dk-typed', title: 'Typed rate', serviceLevel: 'standard', countryCode: 'DK', price: '3900' } },
  { name: 'a free-shipping promotion', page: () => '/admin/shipping', action: () => '/admin/shipping/promotions', typed: { promotionId: 'typed-promo', description: 'Typed promotion', minSubtotal: '50000', eligibleSkus: 'aviator-classic\r\nwayfarer' } },
  { name: 'the search words', page: () => '/admin/settings/search-words', action: () => '/admin/settings/search-words', typed: { words: 'typed = skrevet, tastet', ignore: 'typedword' } },
  {
    name: 'a new API key', page: () => '/admin/keys', action: () => '/admin/keys', typed: { name: 'Typed key', expires: '2027-01-01' }, lists: { scopes: ['orders:read', 'pages:write'] },
    shows: () => [/id="field-name"[^>]*value="Typed key"/, /id="field-expires"[^>]*value="2027-01-01"/, 'value="orders:read" checked', 'value="pages:write" checked'],
  },
  { name: 'an invitation', page: () => '/admin/staff', action: () => '/admin/staff/invite', typed: { email: 'typed@shop.dk', role: 'manager' } },
  { name: 'the policy document', page: () => '/admin/policies', action: () => '/admin/policies', typed: { document: '{ "rules": [ { "kind": "refund" } ] }' } },
  {
    name: 'an order\'s shipping', page: () => `/admin/orders/${orderId}`, action: () => `/admin/orders/${orderId}/status`,
    typed: { status: 'shipped', carrier: 'Typed Carrier', trackingNumber: 'TYPED123', trackingUrl: 'https://tracking.example/TYPED123' },
    shows: () => [/id="field-carrier"[^>]*value="Typed Carrier"/, /id="field-trackingNumber"[^>]*value="TYPED123"/, /id="field-trackingUrl"[^>]*value="https:\/\/tracking.example\/TYPED123"/],
  },
  { name: 'an order\'s refund', page: () => `/admin/orders/${orderId}`, action: () => `/admin/orders/${orderId}/refund/confirm`, typed: { amount: '12,50', restock: 'on', reason: 'Typed reason' } },
  {
    name: 'a note on an approval', page: () => `/admin/approvals/${approvalId}`, action: () => `/admin/approvals/${approvalId}/deny`, typed: { note: 'Typed note <why>' },
    shows: () => ['>Typed note &lt;why&gt;</textarea>', '<span class="status status-pending">pending</span>'],
    // Held now: an approval waits 24 hours, and each form here moves the clock past a session's end.
    prepare: async () => {
      approvalId = await heldApproval();
    },
  },
];

/**
 * The page's form signed in, then posted with `typed` after the session ended; signing in again with the draft the
 * sign-in form carried. Answers the page the sign-in led back to, and the form's fields as first drawn.
 */
async function typedAfterSessionEnded(form: DraftCase) {
  const cookie = (await signIn(t.app, 'olga@shop.dk')).cookie ?? '';
  const opened = await page(t.app, cookie, form.page());
  const drawn = opened.response.body.includes(`action="${form.action()}"`) && !form.action().startsWith('/admin/approvals/')
    ? formFields(opened.response.body, form.action()) : { _csrf: opened.csrf ?? '' };
  now = new Date(now.getTime() + NINE_HOURS);
  const sent = new URLSearchParams({ ...drawn, ...form.typed });
  for (const [name, values] of Object.entries(form.lists ?? {})) for (const value of values) sent.append(name, value);
  const late = await t.app.inject({ method: 'POST', url: form.action(), headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: sent.toString() });
  expect(late.statusCode).toBe(401);
  expect(late.body).toContain('Your session ended before the form was saved.');
  const draft = decode(/<input type="hidden" name="draft" value="([^"]*)">/.exec(late.body)?.[1] ?? '');
  const signedIn = await t.app.inject({
    method: 'POST', url: '/admin/login', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ email: 'olga@shop.dk', password: PASSWORD, draft }).toString(),
  });
  expect(signedIn.statusCode).toBe(303);
  const back = signedIn.headers.location ?? '';
  const fresh = sessionCookie(signedIn.headers['set-cookie']) ?? '';
  return { back, restored: (await page(t.app, fresh, back)).response.body, drawn, fresh, draft: JSON.parse(draft) as { fields: Record<string, unknown> } };
}

describe('every console form a person types into, saved after the session ended', () => {
  beforeAll(async () => {
    serviceSlug = 'brillerens';
    expect((await t.call('pages.upsert', { slug: 'typed-about', title: 'About', body: 'We make glasses.', status: 'published' }, master)).status).toBe(200);
    const order = await placeOrder(t);
    orderId = order.orderId;
    if (order.status !== 'paid') expect((await t.call('orders.update_status', { orderId, status: 'paid' }, master)).status).toBe(200);
  });

  it.each(CASES)('comes back after sign-in on its page: $name', async (form) => {
    await form.prepare?.();
    const { back, restored, draft } = await typedAfterSessionEnded(form);
    expect(back).toBe(form.page().split('?')[0]);
    expect(restored).toContain('Your session ended; check and save again.');
    expect(Object.keys(draft.fields).filter((name) => name.startsWith('_'))).toEqual(expect.not.arrayContaining(['_csrf', '_idem', '_idemStock']));
    for (const shown of form.shows?.() ?? []) expect(restored).toMatch(shown);
    if (form.shows) return;
    const { op: _op, ...fields } = form.typed;
    expect(formFields(restored, form.action())).toMatchObject(fields);
  });

  it('are saved only by the person, after sign-in: nothing of a draft is written before', async () => {
    expect((await t.call('services.get', { slug: serviceSlug }, master)).body.result.title).not.toBe('Typed title');
    expect((await t.call('shipping.list', {}, master)).body.result.rates.map((rate: { id: string }) => rate.id)).not.toContain('dk-typed');
    expect((await t.call('categories.list', { includeEmpty: true }, master)).body.result.map((category: { name: string }) => category.name)).not.toContain('Typed Briller');
    expect((await t.call('discounts.list', {}, master)).body.result.map((discount: { code: string }) => discount.code)).not.toContain('TYPED10');
  });
});

describe('a versioned form restored after sign-in', () => {
  it.each<{ name: string; slug: string; tool: string; typed: Record<string, string>; meanwhile: Record<string, string>; conflict: string }>([
    { name: 'a service (versioned-form.ts)', slug: 'stelreparation', tool: 'services', typed: { title: 'Typed repair' }, meanwhile: { priceString: 'Changed meanwhile' }, conflict: 'Someone else changed this while you were editing it' },
    { name: 'a product (with its read time)', slug: 'aviator-classic', tool: 'products', typed: { name: 'Typed Aviator' }, meanwhile: { brand: 'Changed meanwhile' }, conflict: 'Someone changed this product while you were editing it' },
  ])('keeps the baseline it was typed against, so a change made meanwhile is a conflict: $name', async (form) => {
    const path = `/admin/${form.tool}/${form.slug}`;
    const before = (await t.call(`${form.tool}.get`, { slug: form.slug }, master)).body.result;
    const { restored, drawn, fresh } = await typedAfterSessionEnded({ name: form.name, page: () => path, action: () => path, typed: form.typed });
    expect((await t.call(`${form.tool}.update`, { slug: form.slug, patch: form.meanwhile }, master)).status).toBe(200);

    const again = formFields(restored, path);
    expect(again._version).toBe(drawn._version);
    expect(again._was).toBe(drawn._was);
    expect(again._read).toBe(drawn._read);
    const saved = await post(t.app, fresh, path, { ...again, _csrf: /name="_csrf" value="([^"]+)"/.exec(restored)?.[1] ?? '' });
    expect(saved.statusCode).toBe(409);
    expect(saved.body).toContain(form.conflict);
    const after = (await t.call(`${form.tool}.get`, { slug: form.slug }, master)).body.result;
    expect(after).toMatchObject(form.meanwhile);
    expect(after.title ?? after.name).toBe(before.title ?? before.name);
  });
});
