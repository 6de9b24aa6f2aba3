import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master } from '../helpers/fixtures.ts';
import { insertOrder } from '../helpers/orders.ts';

let t: TestApp;
let customerKey: string;
const orderIds: string[] = [];
const at = (day: number, hour = 12) => new Date(Date.UTC(2025, 4, day, hour));

/**
 * Jens orders twice, under two spellings of his e-mail; the later order has a new shipping name. Mette orders
 * eleven times (one cancelled). Ole's only order waits for card payment.
 */
beforeAll(async () => {
  t = await createTestApp();
  customerKey = await t.keyWith('customer:read');
  const { id: productId } = await createProduct(t, { name: 'Aviator Classic' });
  const line = (quantity: number) => [{ productId, unitPriceDkk: 10000, quantity }];
  await insertOrder(t, { email: 'Jens@Example.dk', shippingName: 'Jens Jensen', status: 'paid', createdAt: at(1), items: line(1) });
  await insertOrder(t, { email: 'jens@example.dk', shippingName: 'J. Jensen', status: 'delivered', createdAt: at(20), items: line(2) });
  for (let day = 2; day <= 12; day += 1) {
    orderIds.push(await insertOrder(t, {
      email: 'mette@firma.dk', shippingName: 'Mette 100%', status: day === 12 ? 'cancelled' : 'completed',
      createdAt: at(day), items: line(day === 12 ? 5 : 1),
    }));
  }
  await insertOrder(t, { email: 'ole@example.dk', shippingName: 'Ole Olsen', status: 'pending_payment', createdAt: at(15), items: line(3) });
});
afterAll(async () => { await t?.close(); });

describe('customers.list', () => {
  it('groups orders by e-mail case-insensitively, most recent buyer first', async () => {
    const response = await t.call('customers.list', {}, { key: customerKey });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual([
      {
        email: 'jens@example.dk', name: 'J. Jensen', orderCount: 2, totalSpentDkk: 30000,
        firstOrderAt: '2025-05-01T12:00:00.000Z', lastOrderAt: '2025-05-20T12:00:00.000Z',
      },
      {
        email: 'ole@example.dk', name: 'Ole Olsen', orderCount: 1, totalSpentDkk: 0,
        firstOrderAt: '2025-05-15T12:00:00.000Z', lastOrderAt: '2025-05-15T12:00:00.000Z',
      },
      {
        // The cancelled order counts as an order but not as money spent.
        email: 'mette@firma.dk', name: 'Mette 100%', orderCount: 11, totalSpentDkk: 100000,
        firstOrderAt: '2025-05-02T12:00:00.000Z', lastOrderAt: '2025-05-12T12:00:00.000Z',
      },
    ]);
  });

  it('finds customers by part of the e-mail or of a shipping name used on any order', async () => {
    const byEmail = await t.call('customers.list', { q: '@FIRMA' }, { key: customerKey });
    expect(byEmail.body.result.map((c: { email: string }) => c.email)).toEqual(['mette@firma.dk']);
    const byOldName = await t.call('customers.list', { q: 'jens jensen' }, { key: customerKey });
    expect(byOldName.body.result.map((c: { email: string }) => c.email)).toEqual(['jens@example.dk']);
    expect(byOldName.body.result[0].orderCount).toBe(2);
  });

  it('matches % and _ in q literally', async () => {
    const percent = await t.call('customers.list', { q: '100%' }, { key: customerKey });
    expect(percent.body.result.map((c: { email: string }) => c.email)).toEqual(['mette@firma.dk']);
    const underscore = await t.call('customers.list', { q: '_' }, { key: customerKey });
    expect(underscore.body.result).toEqual([]);
  });

  it('pages with limit and offset', async () => {
    const page = await t.call('customers.list', { limit: 1, offset: 1 }, { key: customerKey });
    expect(page.body.result.map((c: { email: string }) => c.email)).toEqual(['ole@example.dk']);
    const past = await t.call('customers.list', { offset: 3 }, { key: customerKey });
    expect(past.body.result).toEqual([]);
  });

  it.each([
    ['limit 0', { limit: 0 }],
    ['limit 101', { limit: 101 }],
    ['a negative offset', { offset: -1 }],
    ['an empty q', { q: '  ' }],
    ['an unknown field', { sort: 'email' }],
  ])('rejects %s with 400 validation_failed', async (_name, body) => {
    const response = await t.call('customers.list', body, { key: customerKey });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
  });

  it('answers 401 anonymously and 403 insufficient_scope to a key with orders:read only', async () => {
    expect((await t.call('customers.list', {})).status).toBe(401);
    const response = await t.call('customers.list', {}, { key: await t.keyWith('orders:read') });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('insufficient_scope');
  });
});

describe('customers.get', () => {
  it('returns the customer with the ten most recent orders, newest first', async () => {
    const response = await t.call('customers.get', { email: 'METTE@firma.dk' }, { key: customerKey });
    expect(response.status).toBe(200);
    const { recentOrders, savedAddresses, ...customer } = response.body.result;
    expect(savedAddresses).toEqual([]);
    expect(customer).toEqual({
      email: 'mette@firma.dk', name: 'Mette 100%', orderCount: 11, totalSpentDkk: 100000,
      firstOrderAt: '2025-05-02T12:00:00.000Z', lastOrderAt: '2025-05-12T12:00:00.000Z',
    });
    expect(recentOrders).toHaveLength(10);
    expect(recentOrders[0]).toEqual({
      id: orderIds.at(-1), status: 'cancelled', totalDkk: 50000, itemCount: 5, createdAt: '2025-05-12T12:00:00.000Z',
    });
    expect(recentOrders.map((order: { id: string }) => order.id)).toEqual([...orderIds].reverse().slice(0, 10));
  });

  it('answers 404 not_found for an e-mail without orders', async () => {
    const response = await t.call('customers.get', { email: 'nobody@example.dk' }, { key: customerKey });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('not_found');
  });

  it.each([
    ['a malformed e-mail', { email: 'mette' }],
    ['a missing e-mail', {}],
    ['an unknown field', { email: 'mette@firma.dk', orders: 5 }],
  ])('rejects %s with 400 validation_failed', async (_name, body) => {
    const response = await t.call('customers.get', body, { key: customerKey });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
  });

  it('answers 401 anonymously and 403 insufficient_scope without customer:read', async () => {
    expect((await t.call('customers.get', { email: 'mette@firma.dk' })).status).toBe(401);
    const response = await t.call('customers.get', { email: 'mette@firma.dk' }, { key: await t.keyWith('analytics:read') });
    expect(response.status).toBe(403);
    expect((await t.call('customers.get', { email: 'mette@firma.dk' }, master)).status).toBe(200);
  });
});
