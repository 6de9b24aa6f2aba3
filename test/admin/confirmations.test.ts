import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listKeys } from '../../src/access/api-keys.ts';
import type { TestApp } from '../helpers/app.ts';
import { placeOrder } from '../helpers/commerce.ts';
import { master } from '../helpers/fixtures.ts';
import { page, post, demoShopSignedIn } from './helpers.ts';

let t: TestApp;
let owner = '';
beforeAll(async () => {
  ({ t, cookie: owner } = await demoShopSignedIn('olga@shop.dk', 'owner'));
});
afterAll(async () => t.close());

/** A form posted with the session but without the page's CSRF token, as a forged or scripted request would be. */
const unconfirmed = (url: string) => post(t.app, owner, url, {});
const orderStatus = async (orderId: string) => (await t.call('orders.get', { orderId }, master)).body.result.status as string;

describe('confirmation pages', () => {
  it('cancels an order only from its page, which names the order and says what happens', async () => {
    const { orderId } = await placeOrder(t);
    const before = await orderStatus(orderId);
    const detail = await page(t.app, owner, `/admin/orders/${orderId}`);
    expect(detail.response.body).toContain(`<a class="button danger" href="/admin/orders/${orderId}/status/cancelled">Mark as Cancelled</a>`);
    const skipped = await post(t.app, owner, `/admin/orders/${orderId}/status`, { _csrf: detail.csrf ?? '', status: 'cancelled' });
    expect(skipped.headers.location).toBe(`/admin/orders/${orderId}/status/cancelled`);
    expect(await orderStatus(orderId)).toBe(before);
    const asked = await page(t.app, owner, `/admin/orders/${orderId}/status/cancelled`);
    expect(asked.response.body).toContain('<h1>Mark this order as cancelled?</h1>');
    expect(asked.response.body).toContain(`<strong>Order ${orderId.slice(0, 8)}</strong>`);
    expect(asked.response.body).toContain('its items go back in stock');
    expect((await unconfirmed(`/admin/orders/${orderId}/status/cancelled`)).statusCode).toBe(403);
    expect(await orderStatus(orderId)).toBe(before);
    const done = await post(t.app, owner, `/admin/orders/${orderId}/status/cancelled`, { _csrf: asked.csrf ?? '' });
    expect(done.headers.location).toBe(`/admin/orders/${orderId}?done=1`);
    expect(await orderStatus(orderId)).toBe('cancelled');
  });

  it('refunds a paid order only from its page', async () => {
    const { orderId, status } = await placeOrder(t);
    if (status !== 'paid') await t.call('orders.update_status', { orderId, status: 'paid' }, master);
    const asked = await page(t.app, owner, `/admin/orders/${orderId}/status/refunded`);
    expect(asked.response.body).toContain('<h1>Mark this order as refunded?</h1>');
    expect(asked.response.body).toContain('No money is moved by this');
    expect((await unconfirmed(`/admin/orders/${orderId}/status/refunded`)).statusCode).toBe(403);
    expect(await orderStatus(orderId)).toBe('paid');
    await post(t.app, owner, `/admin/orders/${orderId}/status/refunded`, { _csrf: asked.csrf ?? '' });
    expect(await orderStatus(orderId)).toBe('refunded');
    expect((await page(t.app, owner, `/admin/orders/${orderId}/status/shipped`)).response.statusCode).toBe(404);
  });

  it('rotates and revokes an API key only from their pages, which name the key', async () => {
    const key = await t.keyWith('orders:read');
    const [listed] = (await listKeys(t.database.db)).filter((candidate) => !candidate.revokedAt);
    const id = listed?.id ?? '';
    const keys = await page(t.app, owner, '/admin/keys');
    expect(keys.response.body).toContain(`href="/admin/keys/${id}/revoke"`);
    const rotateAsked = await page(t.app, owner, `/admin/keys/${id}/rotate`);
    expect(rotateAsked.response.body).toContain('<h1>Rotate this API key?</h1>');
    expect(rotateAsked.response.body).toContain(`<strong>${listed?.name}</strong>`);
    expect((await unconfirmed(`/admin/keys/${id}/rotate`)).statusCode).toBe(403);
    expect((await t.call('orders.list', {}, { key })).status).toBe(200);
    const rotated = await post(t.app, owner, `/admin/keys/${id}/rotate`, { _csrf: rotateAsked.csrf ?? '' });
    expect(rotated.body).toContain('The key was rotated');
    const fresh = /id="new-key" class="secret" readonly value="([^"]+)"/.exec(rotated.body)?.[1] ?? '';
    const revokeAsked = await page(t.app, owner, `/admin/keys/${id}/revoke`);
    expect(revokeAsked.response.body).toContain('This cannot be undone');
    expect((await unconfirmed(`/admin/keys/${id}/revoke`)).statusCode).toBe(403);
    expect((await t.call('orders.list', {}, { key: fresh })).status).toBe(200);
    const revoked = await post(t.app, owner, `/admin/keys/${id}/revoke`, { _csrf: revokeAsked.csrf ?? '' });
    expect(revoked.body).toContain('The key was revoked.');
    expect((await page(t.app, owner, `/admin/keys/${id}/revoke`)).response.statusCode).toBe(404);
  });

  it('deletes a product only from its page, which names it', async () => {
    const asked = await page(t.app, owner, '/admin/products/aviator-classic/delete');
    expect(asked.response.body).toContain('<strong>Aviator Classic</strong> (aviator-classic)');
    expect((await unconfirmed('/admin/products/aviator-classic/delete')).statusCode).toBe(403);
    expect((await t.call('products.get', { slug: 'aviator-classic' }, master)).status).toBe(200);
    const deleted = await post(t.app, owner, '/admin/products/aviator-classic/delete', { _csrf: asked.csrf ?? '' });
    expect(deleted.headers.location).toBe('/admin/products?done=deleted');
    expect((await t.call('products.get', { slug: 'aviator-classic' }, master)).status).toBe(404);
  });
});
