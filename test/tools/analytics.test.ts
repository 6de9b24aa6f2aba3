import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '../../src/domain/order-status.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master } from '../helpers/fixtures.ts';
import { insertOrder } from '../helpers/orders.ts';

let t: TestApp;
let analyticsKey: string;
const product: Record<'p1' | 'p2' | 'p3', { id: string; slug: string }> = {
  p1: { id: '', slug: '' }, p2: { id: '', slug: '' }, p3: { id: '', slug: '' },
};

const march = (day: number) => new Date(Date.UTC(2025, 2, day, 10));

/**
 * Six orders in March 2025. Revenue orders: A paid 100000, D shipped 44900, F partial_refund 33335.
 * Not revenue: B pending_payment, C cancelled, E refunded. Agent orders: B, D, F.
 */
beforeAll(async () => {
  t = await createTestApp();
  analyticsKey = await t.keyWith('analytics:read');
  const p1 = await createProduct(t, { name: 'Aviator Classic', priceDkk: 50000 });
  const p2 = await createProduct(t, { name: 'Wayfarer Sort', priceDkk: 15000 });
  const p3 = await createProduct(t, { name: 'Clubmaster Havana', priceDkk: 33335 });
  Object.assign(product, { p1, p2, p3 });
  await insertOrder(t, { status: 'paid', createdAt: march(1), items: [{ productId: p1.id, unitPriceDkk: 50000, quantity: 2 }] });
  await insertOrder(t, {
    status: 'pending_payment', createdAt: march(2), isAiGenerated: true, discountCode: 'VELKOMMEN', discountDkk: 1000,
    shippingDkk: 4900, totalDkk: 20000, items: [{ productId: p2.id, unitPriceDkk: 16100, quantity: 1 }],
  });
  await insertOrder(t, {
    status: 'cancelled', createdAt: march(3), discountCode: 'SOMMER', discountDkk: 5000, totalDkk: 30000,
    items: [{ productId: p1.id, unitPriceDkk: 35000, quantity: 1 }],
  });
  await insertOrder(t, {
    status: 'shipped', createdAt: march(4), isAiGenerated: true, discountCode: 'SOMMER', discountDkk: 5000,
    shippingDkk: 4900, totalDkk: 44900, items: [{ productId: p2.id, unitPriceDkk: 15000, quantity: 3 }],
  });
  await insertOrder(t, { status: 'refunded', createdAt: march(5), items: [{ productId: p1.id, unitPriceDkk: 50000, quantity: 1 }] });
  await insertOrder(t, {
    status: 'partial_refund', createdAt: march(6), isAiGenerated: true,
    items: [{ productId: p3.id, unitPriceDkk: 33335, quantity: 1 }],
  });
});
afterAll(async () => { await t?.close(); });

function zeroByStatus(): Record<string, { orderCount: number; totalDkk: number }> {
  return Object.fromEntries(ORDER_STATUSES.map((status) => [status, { orderCount: 0, totalDkk: 0 }]));
}

describe('analytics.summary', () => {
  it('sums revenue, averages and counts per status over all orders', async () => {
    const response = await t.call('analytics.summary', {}, { key: analyticsKey });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({
      fromDate: null,
      toDate: null,
      status: null,
      orderCount: 6,
      revenueStatuses: ['pending', 'paid', 'shipped', 'partial_refund', 'disputed', 'processing', 'delivered', 'completed'],
      revenueOrderCount: 3,
      revenueDkk: 178235,
      // 178235 / 3 = 59411.67 øre, rounded to whole øre.
      averageOrderValueDkk: 59412,
      byStatus: {
        ...zeroByStatus(),
        paid: { orderCount: 1, totalDkk: 100000 },
        pending_payment: { orderCount: 1, totalDkk: 20000 },
        cancelled: { orderCount: 1, totalDkk: 30000 },
        shipped: { orderCount: 1, totalDkk: 44900 },
        refunded: { orderCount: 1, totalDkk: 50000 },
        partial_refund: { orderCount: 1, totalDkk: 33335 },
      },
      topProducts: [
        { productId: product.p2.id, slug: product.p2.slug, name: 'Wayfarer Sort', unitsSold: 3, revenueDkk: 45000 },
        { productId: product.p1.id, slug: product.p1.slug, name: 'Aviator Classic', unitsSold: 2, revenueDkk: 100000 },
        { productId: product.p3.id, slug: product.p3.slug, name: 'Clubmaster Havana', unitsSold: 1, revenueDkk: 33335 },
      ],
      discountUsage: [
        { code: 'SOMMER', orderCount: 1, discountDkk: 5000 },
        { code: 'VELKOMMEN', orderCount: 1, discountDkk: 1000 },
      ],
      agentOrders: { orderCount: 3, share: 0.5, revenueDkk: 78235 },
    });
    expect(Object.keys(response.body.result.byStatus)).toHaveLength(12);
  });

  it('treats fromDate and toDate as inclusive bounds on the creation time', async () => {
    const response = await t.call('analytics.summary', {
      fromDate: '2025-03-04T10:00:00Z', toDate: '2025-03-05T10:00:00.000Z',
    }, { key: analyticsKey });
    expect(response.status).toBe(200);
    expect(response.body.result).toMatchObject({
      fromDate: '2025-03-04T10:00:00.000Z',
      toDate: '2025-03-05T10:00:00.000Z',
      orderCount: 2,
      revenueOrderCount: 1,
      revenueDkk: 44900,
      averageOrderValueDkk: 44900,
      agentOrders: { orderCount: 1, share: 0.5, revenueDkk: 44900 },
    });
    expect(response.body.result.byStatus.refunded).toEqual({ orderCount: 1, totalDkk: 50000 });
  });

  it('narrows every figure to one status', async () => {
    const response = await t.call('analytics.summary', { status: 'cancelled' }, { key: analyticsKey });
    expect(response.body.result).toMatchObject({
      status: 'cancelled', orderCount: 1, revenueOrderCount: 0, revenueDkk: 0, averageOrderValueDkk: 0,
      topProducts: [], discountUsage: [], agentOrders: { orderCount: 0, share: 0, revenueDkk: 0 },
    });
    expect(response.body.result.byStatus).toEqual({ ...zeroByStatus(), cancelled: { orderCount: 1, totalDkk: 30000 } });
  });

  it('answers zeros, not an error, for a period without orders', async () => {
    const response = await t.call('analytics.summary', {
      fromDate: '2020-01-01T00:00:00Z', toDate: '2020-12-31T23:59:59Z',
    }, { key: analyticsKey });
    expect(response.status).toBe(200);
    expect(response.body.result).toMatchObject({
      orderCount: 0, revenueOrderCount: 0, revenueDkk: 0, averageOrderValueDkk: 0,
      byStatus: zeroByStatus(), topProducts: [], discountUsage: [], agentOrders: { orderCount: 0, share: 0, revenueDkk: 0 },
    });
  });

  it('accepts a range of a single instant', async () => {
    const response = await t.call('analytics.summary', {
      fromDate: '2025-03-01T10:00:00Z', toDate: '2025-03-01T10:00:00Z',
    }, { key: analyticsKey });
    expect(response.body.result).toMatchObject({ orderCount: 1, revenueDkk: 100000 });
  });

  it.each([
    ['fromDate after toDate', { fromDate: '2025-03-05T00:00:00Z', toDate: '2025-03-01T00:00:00Z' }],
    ['a date without time zone', { fromDate: '2025-03-01T00:00:00' }],
    ['a date that is not a timestamp', { toDate: 'yesterday' }],
    ['an unknown status', { status: 'lost' }],
    ['an unknown field', { groupBy: 'day' }],
  ])('rejects %s with 400 validation_failed', async (_name, body) => {
    const response = await t.call('analytics.summary', body, { key: analyticsKey });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
  });

  it('names fromDate when the range is reversed', async () => {
    const response = await t.call('analytics.summary', {
      fromDate: '2025-03-05T00:00:00Z', toDate: '2025-03-01T00:00:00Z',
    }, { key: analyticsKey });
    expect(response.body.errors).toEqual([{ path: 'fromDate', message: 'fromDate must not be after toDate' }]);
  });

  it('answers 401 anonymously and 403 insufficient_scope to a key without analytics:read', async () => {
    expect((await t.call('analytics.summary', {})).status).toBe(401);
    const response = await t.call('analytics.summary', {}, { key: await t.keyWith('orders:read') });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('insufficient_scope');
    expect((await t.call('analytics.summary', {}, master)).status).toBe(200);
  });
});
