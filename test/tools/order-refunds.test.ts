import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, products } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { placeOrder, stockOf } from '../helpers/commerce.ts';
import { createProduct, master } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** A paid order of `quantity` × 20000 øre (+ 4900 shipping), with the product and its stock after the sale. */
async function paidOrder(quantity = 2) {
  const product = await createProduct(t, { priceDkk: 20000, stock: 10 });
  const order = await placeOrder(t, { product, quantity });
  const paid = await t.call('orders.update_status', { orderId: order.orderId, status: 'paid' }, master);
  if (paid.status !== 200) throw new Error(`pay failed: ${JSON.stringify(paid.body)}`);
  return { ...order, product };
}

const refund = (input: Record<string, unknown>, options: Parameters<TestApp['call']>[2] = master) => t.call('orders.refund', input, options);
const orderOf = async (orderId: string) => (await t.call('orders.get', { orderId }, master)).body.result;

describe('orders.refund', () => {
  it('refunds the whole order when amount is left out, sets refundedAt and lists the refund in orders.get', async () => {
    const order = await paidOrder();
    expect(order.totalDkk).toBe(44900);
    const response = await refund({ orderId: order.orderId, reason: 'Kunden fortrød' });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({
      orderId: order.orderId, status: 'refunded', amount: 44900, refundedDkk: 44900, remainingDkk: 0, restocked: [],
    });
    const record = await orderOf(order.orderId);
    expect(record.status).toBe('refunded');
    expect(record.refundedAt).toEqual(expect.any(String));
    expect(record.refunds).toEqual([{ amount: 44900, at: record.refundedAt, by: 'master', reason: 'Kunden fortrød', restocked: [] }]);
    expect(await stockOf(t, order.product.slug)).toBe(8);
  });

  it('refunds part, then the rest in a second partial refund that ends refunded; more than is left is refused', async () => {
    const order = await paidOrder();
    const first = await refund({ orderId: order.orderId, amount: 10000 });
    expect(first.body.result).toMatchObject({ status: 'partial_refund', amount: 10000, refundedDkk: 10000, remainingDkk: 34900 });
    expect((await orderOf(order.orderId)).refundedAt).toEqual(expect.any(String));

    const over = await refund({ orderId: order.orderId, amount: 34901 });
    expect(over.status).toBe(422);
    expect(over.body.code).toBe('refund_exceeds_remaining');
    expect(over.body.detail).toContain('34900 øre left to refund');
    expect(over.body.resolution).toContain('orders.get');

    const second = await refund({ orderId: order.orderId, amount: 20000 });
    expect(second.body.result).toMatchObject({ status: 'partial_refund', refundedDkk: 30000, remainingDkk: 14900 });
    const last = await refund({ orderId: order.orderId, amount: 14900 });
    expect(last.body.result).toMatchObject({ status: 'refunded', refundedDkk: 44900, remainingDkk: 0 });
    expect((await orderOf(order.orderId)).refunds.map((r: { amount: number }) => r.amount)).toEqual([10000, 20000, 14900]);

    const again = await refund({ orderId: order.orderId, amount: 1 });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('refund_exceeds_remaining');
  });

  it('refuses an amount of 0 or less at the edge, and an unpaid order by the status machine', async () => {
    const order = await paidOrder();
    const zero = await refund({ orderId: order.orderId, amount: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.code).toBe('validation_failed');
    const unpaid = await placeOrder(t);
    const refused = await refund({ orderId: unpaid.orderId });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('illegal_transition');
    expect(refused.body.detail).toContain('pending_payment');
    expect((await orderOf(unpaid.orderId)).refunds).toEqual([]);
  });

  it('puts every line back in stock with restock, or only the named lines (by sku), never more than was sold', async () => {
    const order = await paidOrder(3);
    expect(await stockOf(t, order.product.slug)).toBe(7);
    // products.create takes no SKU; `butik import` sets it, here the table does.
    const sku = `SKU-${order.product.slug}`;
    await t.database.db.update(products).set({ sku }).where(eq(products.id, order.product.id));
    const one = await refund({ orderId: order.orderId, amount: 20000, restock: true, lines: [{ sku, quantity: 1 }] });
    expect(one.status).toBe(200);
    expect(one.body.result.restocked).toEqual([{ productId: order.product.id, quantity: 1 }]);
    expect(await stockOf(t, order.product.slug)).toBe(8);

    const tooMany = await refund({ orderId: order.orderId, amount: 100, restock: true, lines: [{ productId: order.product.id, quantity: 3 }] });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.code).toBe('refund_restock_invalid');
    expect(await stockOf(t, order.product.slug)).toBe(8);

    // The rest, restocking every line: only the two not put back yet.
    const rest = await refund({ orderId: order.orderId, restock: true });
    expect(rest.body.result).toMatchObject({ status: 'refunded', restocked: [{ productId: order.product.id, quantity: 2 }] });
    expect(await stockOf(t, order.product.slug)).toBe(10);
    expect((await orderOf(order.orderId)).refunds.map((r: { restocked: unknown }) => r.restocked))
      .toEqual([[{ productId: order.product.id, quantity: 1 }], [{ productId: order.product.id, quantity: 2 }]]);
  });

  it('writes an audit entry carrying the amount, as the caller', async () => {
    const order = await paidOrder();
    const key = await t.keyWith('orders:write', 'orders:read');
    expect((await refund({ orderId: order.orderId, amount: 12345, reason: 'Ridse i glasset' }, { key })).status).toBe(200);
    const entries = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.tool, 'orders.refund'), eq(auditEntries.targetId, order.orderId)));
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry!.actorKind).toBe('key');
    expect((entry!.before as { status: string }).status).toBe('paid');
    expect(entry!.after).toMatchObject({ status: 'partial_refund', refund: { amount: 12345, reason: 'Ridse i glasset', restocked: [] } });
    expect((await orderOf(order.orderId)).refunds[0].by).toBe(entry!.actorName);
  });

  it('answers a retry with the same idempotency key once, refunding once', async () => {
    const order = await paidOrder();
    const headers = { 'idempotency-key': `refund-${order.orderId}` };
    const first = await refund({ orderId: order.orderId, amount: 5000 }, { ...master, headers });
    const second = await refund({ orderId: order.orderId, amount: 5000 }, { ...master, headers });
    expect(second.body).toEqual(first.body);
    expect((await orderOf(order.orderId)).refunds).toHaveLength(1);
  });

  it('honours If-Match: a stale version refuses with 412 and writes nothing', async () => {
    const order = await paidOrder();
    const read = await t.call('orders.get', { orderId: order.orderId }, master);
    const etag = String(read.headers.etag);
    expect((await refund({ orderId: order.orderId, amount: 1000 }, { ...master, headers: { 'if-match': etag } })).status).toBe(200);
    const stale = await refund({ orderId: order.orderId, amount: 1000 }, { ...master, headers: { 'if-match': etag } });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('precondition_failed');
    expect((await orderOf(order.orderId)).refunds).toHaveLength(1);
  });
});
