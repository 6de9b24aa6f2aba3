import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerAddresses, customers } from '../../src/db/schema.ts';
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
    expect(detail.response.body).toContain('<h2>Saved addresses</h2><p>No saved addresses.</p>');
  });

  it('shows the customer\'s saved addresses and who saved each', async () => {
    await placeOrder(t);
    await t.database.db.insert(customers).values({ id: 'cust-karen', name: 'Karen', email: 'Karen@Example.dk' });
    await t.database.db.insert(customerAddresses).values([
      { id: 'addr-1', customerId: 'cust-karen', owner: null, streetAddress: 'Nørregade 1', city: 'København', postalCode: '1165', countryCode: 'DK' },
      { id: 'addr-2', customerId: 'cust-karen', owner: 'key:some-key', streetAddress: 'Vestergade 9', city: 'Aarhus', region: 'Midtjylland', postalCode: '8000', countryCode: 'DK' },
    ]);
    const detail = await page(t.app, cookie, '/admin/customers/karen%40example.dk');
    expect(detail.response.body).toMatch(/<td data-label="Address">Nørregade 1, 1165 København, DK<\/td><td data-label="Saved by">The shop \(imported\)<\/td>/);
    expect(detail.response.body).toMatch(/<td data-label="Address">Vestergade 9, 8000 Aarhus, Midtjylland, DK<\/td><td data-label="Saved by">An agent&#39;s order \(API key\)<\/td>/);
  });
});
