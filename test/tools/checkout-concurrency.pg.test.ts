import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { checkoutBody, createCart, createDiscount, discountRecord, stockOf } from '../helpers/commerce.ts';
import { createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';

/**
 * Checkout and safe retries under load (docs/behaviour.md#checkout): a discount is never used more than usageLimit times, stock never goes
 * below zero, one cart gives one order. Meaningful on PostgreSQL (TEST_DATABASE_URL), where the requests
 * really run in parallel on separate connections; on PGlite they serialize but must give the same answers.
 */
let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

async function cartsOf(count: number, items: Array<{ slug: string; quantity: number }>, discountCode?: string) {
  const carts = [];
  for (let i = 0; i < count; i += 1) carts.push(await createCart(t, { items, ...(discountCode ? { discountCode } : {}) }));
  return carts;
}

async function ordersFor(email: string) {
  const response = await t.call('orders.list', { email, limit: 100 }, master);
  return response.body.result as Array<{ id: string; discountCode: string | null }>;
}

describe('concurrent checkouts', () => {
  it('lets exactly usageLimit of 20 concurrent checkouts use a discount code', async () => {
    const product = await createProduct(t, { priceDkk: 10000, stock: 100 });
    const { code } = await createDiscount(t, { type: 'percent', value: 20, usageLimit: 5 });
    const carts = await cartsOf(20, [{ slug: product.slug, quantity: 1 }], code);
    const email = `${uniqueSlug('rush')}@example.dk`;
    const responses = await Promise.all(carts.map((cart) => t.call('cart.checkout', checkoutBody(cart.cartId, { email }), master)));

    const succeeded = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status !== 200);
    expect(succeeded).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const response of refused) {
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'discount_not_applicable', reason: 'usage_limit_reached' });
    }
    expect(await discountRecord(t, code)).toMatchObject({ usageCount: 5, remainingUses: 0 });
    const orders = await ordersFor(email);
    expect(orders).toHaveLength(5);
    expect(orders.every((order) => order.discountCode === code)).toBe(true);
    expect(await stockOf(t, product.slug)).toBe(95);
  });

  it('sells exactly the 7 units in stock to 20 concurrent checkouts', async () => {
    const product = await createProduct(t, { name: 'Sidste Stel', priceDkk: 10000, stock: 7 });
    const carts = await cartsOf(20, [{ slug: product.slug, quantity: 1 }]);
    const email = `${uniqueSlug('stock')}@example.dk`;
    const responses = await Promise.all(carts.map((cart) => t.call('cart.checkout', checkoutBody(cart.cartId, { email }), master)));

    expect(responses.filter((r) => r.status === 200)).toHaveLength(7);
    const refused = responses.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(13);
    for (const response of refused) {
      expect(response.body).toMatchObject({ code: 'out_of_stock', detail: expect.stringContaining('Sidste Stel') });
    }
    expect(await stockOf(t, product.slug)).toBe(0);
    expect(await ordersFor(email)).toHaveLength(7);
  });

  it('checks out multi-line carts in parallel without deadlocks', async () => {
    const first = await createProduct(t, { priceDkk: 10000, stock: 50 });
    const second = await createProduct(t, { priceDkk: 10000, stock: 50 });
    const forward = await cartsOf(5, [{ slug: first.slug, quantity: 2 }, { slug: second.slug, quantity: 1 }]);
    const backward = await cartsOf(5, [{ slug: second.slug, quantity: 2 }, { slug: first.slug, quantity: 1 }]);
    const responses = await Promise.all([...forward, ...backward].map((cart) => t.call('cart.checkout', checkoutBody(cart.cartId), master)));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await stockOf(t, first.slug)).toBe(50 - 15);
    expect(await stockOf(t, second.slug)).toBe(50 - 15);
  });

  it('runs checkouts and cancellations over the same products and code side by side without deadlocks', async () => {
    const first = await createProduct(t, { priceDkk: 10000, stock: 100 });
    const second = await createProduct(t, { priceDkk: 10000, stock: 100 });
    const items = [{ slug: first.slug, quantity: 1 }, { slug: second.slug, quantity: 1 }];
    const { code } = await createDiscount(t, { type: 'percent', value: 10 });
    const placed = [];
    for (const cart of await cartsOf(10, items, code)) {
      placed.push((await t.call('cart.checkout', checkoutBody(cart.cartId), master)).body.result.orderId as string);
    }
    const racing = await cartsOf(10, items, code);
    const responses = await Promise.all([
      ...racing.map((cart) => t.call('cart.checkout', checkoutBody(cart.cartId), master)),
      ...placed.map((orderId) => t.call('orders.update_status', { orderId, status: 'cancelled' }, master)),
    ]);
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    // 20 orders placed, 10 of them cancelled: each product and the code are down by 10.
    expect(await stockOf(t, first.slug)).toBe(90);
    expect(await stockOf(t, second.slug)).toBe(90);
    expect(await discountRecord(t, code)).toMatchObject({ usageCount: 10 });
  });

  it('turns two concurrent checkouts of one cart into one order and one 422 cart_closed', async () => {
    const product = await createProduct(t, { priceDkk: 10000, stock: 10 });
    const [cart] = await cartsOf(1, [{ slug: product.slug, quantity: 1 }]);
    if (!cart) throw new Error('no cart');
    const email = `${uniqueSlug('twice')}@example.dk`;
    const responses = await Promise.all([1, 2].map(() => t.call('cart.checkout', checkoutBody(cart.cartId, { email }), master)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(responses.find((r) => r.status === 422)?.body.code).toBe('cart_closed');
    expect(await ordersFor(email)).toHaveLength(1);
    expect(await stockOf(t, product.slug)).toBe(9);
  });

  it('runs one checkout for 10 concurrent requests with the same Idempotency-Key', async () => {
    const product = await createProduct(t, { priceDkk: 10000, stock: 10 });
    const [cart] = await cartsOf(1, [{ slug: product.slug, quantity: 1 }]);
    if (!cart) throw new Error('no cart');
    const email = `${uniqueSlug('retry')}@example.dk`;
    const body = checkoutBody(cart.cartId, { email });
    const headers = { 'idempotency-key': `checkout-${cart.cartId}` };
    const responses = await Promise.all(Array.from({ length: 10 }, () => t.call('cart.checkout', body, { key: master.key, headers })));

    for (const response of responses) expect([200, 409]).toContain(response.status);
    const succeeded = responses.filter((r) => r.status === 200);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(new Set(succeeded.map((r) => r.body.result.orderId)).size).toBe(1);
    for (const response of responses.filter((r) => r.status === 409)) expect(response.body.code).toBe('idempotency_key_in_use');
    expect(await ordersFor(email)).toHaveLength(1);
    expect(await stockOf(t, product.slug)).toBe(9);

    const replay = await t.call('cart.checkout', body, { key: master.key, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.result.orderId).toBe(succeeded[0]?.body.result.orderId);
  });
});
