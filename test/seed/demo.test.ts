import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { BASE_URL, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoStore(t.database.db, { baseUrl: BASE_URL });
});
afterAll(async () => { await t?.close(); });

describe('the demo shop', () => {
  it('has the discount codes the schema examples name', async () => {
    const listed = await t.call('discounts.list', {}, master);
    expect(listed.body.result.map((d: { code: string }) => d.code).sort()).toEqual(['SOMMER25', 'VELKOMMEN100', 'VINTER15']);
    const summer = await t.call('discounts.get', { code: 'sommer25' }, master);
    expect(summer.body.result).toMatchObject({ code: 'SOMMER25', type: 'percent', value: 25, usageLimit: 500, usageCount: 1, active: true });
  });

  it('has one paid order whose amounts follow the pricing rules', async () => {
    const listed = await t.call('orders.list', {}, master);
    expect(listed.body.result).toHaveLength(1);
    const [summary] = listed.body.result;
    // 1.299 kr. + 79 kr. = 1.378 kr.; SOMMER25 takes 344,50 kr.; over 500 kr., so no shipping.
    expect(summary).toMatchObject({
      status: 'paid', email: 'karen@example.dk', subtotalDkk: 137_800, discountDkk: 34_450, shippingDkk: 0, totalDkk: 103_350,
      discountCode: 'SOMMER25', itemCount: 2,
    });
    const order = await t.call('orders.get', { orderId: summary.id }, master);
    expect(order.body.result).toMatchObject({ vatOere: 20_670, paymentMethod: 'card', currency: 'DKK' });
    expect(order.body.result.items.map((item: { productName: string }) => item.productName)).toEqual(['Aviator Classic', 'Mikrofiberklud 3-pak']);
  });

  it('lets a new cart use SOMMER25 at once', async () => {
    const cart = await t.call('cart.create', { items: [{ slug: 'wayfarer-sort', quantity: 1 }], discountCode: 'SOMMER25' }, master);
    expect(cart.body.result).toMatchObject({ discountCode: 'SOMMER25', discountDkk: 29_975 });
  });
});
