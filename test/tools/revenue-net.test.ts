import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { placeOrder } from '../helpers/commerce.ts';
import { master } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** A paid order of 2 × 20000 øre + 4900 shipping = 44900 øre. */
async function paidOrder() {
  const order = await placeOrder(t, { quantity: 2 });
  await t.call('orders.update_status', { orderId: order.orderId, status: 'paid' }, master);
  return order;
}

const refund = (input: Record<string, unknown>) => t.call('orders.refund', input, master);

describe('revenue net of refunds', () => {
  it('a partial refund takes its amount off analytics revenue; a full refund takes the whole order off', async () => {
    const summary = async () => (await t.call('analytics.summary', {}, master)).body.result;
    const refunded = await paidOrder();
    await paidOrder();
    expect(await summary()).toMatchObject({ revenueOrderCount: 2, revenueDkk: 89800, averageOrderValueDkk: 44900 });

    await refund({ orderId: refunded.orderId, amount: 12500 });
    const partial = await summary();
    expect(partial).toMatchObject({ revenueOrderCount: 2, revenueDkk: 77300, averageOrderValueDkk: 38650 });
    // The per-status figures stay the orders' totals.
    expect(partial.byStatus.partial_refund).toEqual({ orderCount: 1, totalDkk: 44900 });

    await refund({ orderId: refunded.orderId });
    expect(await summary()).toMatchObject({ revenueOrderCount: 1, revenueDkk: 44900, averageOrderValueDkk: 44900 });
  });

  it('a customer\'s amount spent is net of refunds too, so it agrees with revenue', async () => {
    const spent = async (email: string) => (await t.call('customers.get', { email }, master)).body.result.totalSpentDkk as number;
    const order = await placeOrder(t, { quantity: 2, checkout: { email: 'refunded@example.dk' } });
    await t.call('orders.update_status', { orderId: order.orderId, status: 'paid' }, master);
    expect(await spent('refunded@example.dk')).toBe(44900);
    await refund({ orderId: order.orderId, amount: 4900 });
    expect(await spent('refunded@example.dk')).toBe(40000);
    const listed = (await t.call('customers.list', { q: 'refunded@' }, master)).body.result;
    expect(listed).toEqual([expect.objectContaining({ email: 'refunded@example.dk', totalSpentDkk: 40000 })]);
  });
});
