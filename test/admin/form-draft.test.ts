import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { PASSWORD, addPerson, page, post, sessionCookie, signIn } from './helpers.ts';

let t: TestApp;
let now = new Date('2026-11-20T10:00:00Z');
const NINE_HOURS = 9 * 3600_000;

beforeAll(async () => {
  t = await createTestApp({ clock: () => now });
  await seedDemoStore(t.database.db, { baseUrl: 'http://butik.test' });
  await addPerson(t.database.db, 'anna@shop.dk', 'manager');
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
    expect(kept).toEqual({ path: '/admin/products/aviator-classic', fields: { name: 'Aviator "Typed" <late>', priceDkk: '99900', stock: '7', description: 'Typed before the session ended.', categorySlug: 'solbriller' } });
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

  it('keeps nothing of a post another site made, or of a form whose page cannot show it again', async () => {
    const { cookie, csrf } = await staleForm();
    const foreign = await t.app.inject({
      method: 'POST', url: '/admin/products/aviator-classic',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      payload: new URLSearchParams({ _csrf: csrf, name: 'Forged' }).toString(),
    });
    expect(foreign.body).not.toContain('name="draft"');
    expect(foreign.body).not.toContain('Forged');
    const other = await post(t.app, cookie, '/admin/keys', { _csrf: csrf, name: 'typed key' });
    expect(other.body).not.toContain('name="draft"');
  });
});

describe('the settings form saved after the session ended', () => {
  it('comes back after sign-in with what the owner typed', async () => {
    await addPerson(t.database.db, 'olga@shop.dk', 'owner');
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
