import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { placeOrder } from '../helpers/commerce.ts';
import { page, staffCookie } from './helpers.ts';

let t: TestApp;
let cookie = '';
beforeAll(async () => {
  t = await createTestApp();
  cookie = await staffCookie(t, 'owner@shop.dk', 'owner');
});
afterAll(async () => t.close());

describe('customers in the console', () => {
  it('lists customers as an HTML page, finds one by name or e-mail, and shows their orders', async () => {
    const { orderId } = await placeOrder(t);
    const list = await page(t.app, cookie, '/admin/customers');
    expect(list.response.statusCode).toBe(200);
    expect(list.response.headers['content-type']).toContain('text/html');
    expect(list.response.body).toContain('<h1>Customers</h1>');
    expect(list.response.body).toContain('<a href="/admin/customers/karen%40example.dk">');
    expect(list.response.body).toContain('<a href="/admin/customers" aria-current="page">Customers</a>');
    const found = await page(t.app, cookie, '/admin/customers?q=KAREN@example');
    expect(found.response.body).toContain('karen@example.dk');
    const missing = await page(t.app, cookie, '/admin/customers?q=nobody-here');
    expect(missing.response.body).toContain('Nothing here yet.');
    const detail = await page(t.app, cookie, '/admin/customers/karen%40example.dk');
    expect(detail.response.statusCode).toBe(200);
    expect(detail.response.body).toContain('<dt>E-mail</dt><dd>karen@example.dk</dd>');
    expect(detail.response.body).toContain(`<a href="/admin/orders/${orderId}">${orderId.slice(0, 8)}</a>`);
  });
});
