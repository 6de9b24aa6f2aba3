import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { placeOrder, shipping } from '../helpers/commerce.ts';
import { master } from '../helpers/fixtures.ts';
import { page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let cookie = '';
beforeAll(async () => {
  t = await createTestApp();
  cookie = await staffCookie(t, 'owner@shop.dk', 'owner');
});
afterAll(async () => t.close());

describe('orders in the console', () => {
  it('name statuses in words, with the code in a tooltip, in the list, its filter and the order page', async () => {
    const { orderId } = await placeOrder(t);
    expect((await t.call('orders.update_status', { orderId, status: 'flagged_review' }, master)).status).toBe(200);
    const list = await page(t.app, cookie, '/admin/orders');
    expect(list.response.body).toContain('<span class="status" title="flagged_review">Flagged for review</span>');
    expect(list.response.body).toContain('<option value="flagged_review">Flagged for review</option>');
    expect(list.response.body).not.toMatch(/>flagged_review</);
    const filtered = await page(t.app, cookie, '/admin/orders?status=flagged_review');
    expect(filtered.response.body).toContain('<option value="flagged_review" selected>Flagged for review</option>');
    const detail = await page(t.app, cookie, `/admin/orders/${orderId}`);
    expect(detail.response.body).toMatch(/<h1>Order [0-9a-f]{8} · <span class="status" title="flagged_review">Flagged for review<\/span><\/h1>/);
    expect(detail.response.body).toContain('Mark as Paid');
  });

  it('shows the tracking link and delivery window entered at shipping on the order page afterwards', async () => {
    const { orderId, status } = await placeOrder(t);
    if (status !== 'paid') await t.call('orders.update_status', { orderId, status: 'paid' }, master);
    const form = await page(t.app, cookie, `/admin/orders/${orderId}`);
    const shipped = await post(t.app, form.cookie, `/admin/orders/${orderId}/status`, {
      _csrf: form.csrf ?? '', status: 'shipped', carrier: 'PostNord', trackingNumber: 'TRACK123',
      trackingUrl: 'https://tracking.example/TRACK123', estDeliveryFrom: '2026-12-01', estDeliveryTo: '2026-12-03',
    });
    expect(shipped.statusCode).toBe(303);
    const after = await page(t.app, cookie, `/admin/orders/${orderId}`);
    expect(after.response.body).toContain('title="shipped">Shipped</span>');
    expect(after.response.body).toContain('<dt>Tracking URL</dt><dd><a href="https://tracking.example/TRACK123" rel="noreferrer">https://tracking.example/TRACK123</a></dd>');
    expect(after.response.body).toContain('<dt>Delivery window</dt><dd>1 Dec 2026 – 3 Dec 2026</dd>');
    expect(after.response.body).toContain('<dt>Carrier</dt><dd>PostNord</dd>');
    expect(after.response.body).toMatch(/<li>[^<]* · [^<]* · <span class="status" title="paid">Paid<\/span> → <span class="status" title="shipped">Shipped<\/span><\/li>/);
  });
});

describe('the packing slip', () => {
  it('is a page per order with its number, shipping address and lines, linked from the order', async () => {
    const { orderId, product } = await placeOrder(t, { quantity: 2 });
    const detail = await page(t.app, cookie, `/admin/orders/${orderId}`);
    expect(detail.response.body).toContain(`<a href="/admin/orders/${orderId}/slip">Packing slip</a>`);
    const slip = await page(t.app, cookie, `/admin/orders/${orderId}/slip`);
    expect(slip.response.statusCode).toBe(200);
    expect(slip.response.body).toContain(`<dt>Order</dt><dd>${orderId}</dd>`);
    expect(slip.response.body).toMatch(/<h2>Shipping address<\/h2><address>[^<]+<br>[^<]+<br>[^<]+<\/address>/);
    const { name } = (await t.call('products.get', { slug: product.slug })).body.result as { name: string };
    expect(slip.response.body).toContain(`<tr><td>${name}</td><td class="num">2</td></tr>`);
  });

  it('shows the country an order ships to on its page and its packing slip, where the order gave one', async () => {
    const { orderId } = await placeOrder(t, { checkout: { shipping: { ...shipping, country: 'DK' } } });
    const detail = await page(t.app, cookie, `/admin/orders/${orderId}`);
    expect(detail.response.body).toContain(`${shipping.zip} ${shipping.city}, DK</p>`);
    const slip = await page(t.app, cookie, `/admin/orders/${orderId}/slip`);
    expect(slip.response.body).toContain(`${shipping.zip} ${shipping.city}<br>DK</address>`);
  });
});
