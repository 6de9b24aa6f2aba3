import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { checkoutBody, createCart, createDiscount, discountRecord, placeOrder, shipping, stockOf } from '../helpers/commerce.ts';
import { createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const SUMMARY_KEYS = [
  'createdAt', 'discountCode', 'discountDkk', 'email', 'id', 'itemCount', 'items', 'shippingDkk', 'shippingName', 'status',
  'subtotalDkk', 'totalDkk',
];
const RECORD_KEYS = [
  'acpSessionId', 'aiAgentSource', 'billingAddress', 'billingCity', 'billingCountry', 'billingName', 'billingZip', 'carrier',
  'channel', 'confirmationEmailSentAt', 'createdAt', 'currency', 'discountCode', 'discountDkk', 'disputedAt', 'email',
  'estDeliveryFrom', 'estDeliveryTo', 'fxRate', 'id', 'invoiceId', 'invoicePdfUrl', 'invoiceProvider', 'isAiGenerated', 'items',
  'paidAt', 'paymentMethod', 'phoneNumber', 'processorPaymentIntentId', 'refundedAt', 'refunds', 'shippingAddress', 'shippingCity',
  'shippingCountry', 'shippingDkk', 'shippingName', 'shippingRegion', 'shippingZip', 'status', 'subtotalDkk', 'totalDkk', 'trackingNumber', 'trackingUrl', 'userId',
  'vatOere',
];
const ITEM_KEYS = ['id', 'orderId', 'productId', 'productName', 'quantity', 'unitPriceDkk', 'variantAttributes', 'variantId', 'variantSku'];

const uniqueEmail = () => `${uniqueSlug('kunde')}@example.dk`;
const orderFor = (email: string, checkout: Record<string, unknown> = {}) => placeOrder(t, { checkout: { email, ...checkout } });

async function move(orderId: string, status: string) {
  return t.call('orders.update_status', { orderId, status }, master);
}

async function moveThrough(orderId: string, ...statuses: string[]) {
  for (const status of statuses) {
    const response = await move(orderId, status);
    if (response.status !== 200) throw new Error(`move to ${status} failed: ${JSON.stringify(response.body)}`);
  }
}

describe('orders.list', () => {
  it('answers exact summaries with itemCount as the sum of quantities', async () => {
    const email = uniqueEmail();
    const a = await createProduct(t, { name: 'Første Stel', priceDkk: 10000, stock: 10 });
    const b = await createProduct(t, { name: 'Andet Stel', priceDkk: 5000, stock: 10 });
    const { code } = await createDiscount(t, { type: 'fixed', value: 1000 });
    const { cartId } = await createCart(t, { items: [{ slug: a.slug, quantity: 2 }, { slug: b.slug, quantity: 3 }], discountCode: code });
    const checkout = await t.call('cart.checkout', checkoutBody(cartId, { email }), master);
    const list = await t.call('orders.list', { email }, master);
    expect(list.status).toBe(200);
    expect(list.body.result).toHaveLength(1);
    const [summary] = list.body.result;
    expect(Object.keys(summary).sort()).toEqual(SUMMARY_KEYS);
    expect(summary).toEqual({
      id: checkout.body.result.orderId, email, shippingName: 'Karen Blixen', status: 'pending_payment',
      subtotalDkk: 35000, discountDkk: 1000, shippingDkk: 4900, totalDkk: 38900, discountCode: code, itemCount: 5,
      items: [
        { productName: 'Andet Stel', quantity: 3, unitPriceDkk: 5000 },
        { productName: 'Første Stel', quantity: 2, unitPriceDkk: 10000 },
      ],
      createdAt: expect.stringMatching(/Z$/),
    });
  });

  it('lists newest first and honours limit', async () => {
    const email = uniqueEmail();
    const first = await orderFor(email);
    const second = await orderFor(email);
    const third = await orderFor(email);
    const list = await t.call('orders.list', { email }, master);
    expect(list.body.result.map((o: { id: string }) => o.id)).toEqual([third.orderId, second.orderId, first.orderId]);
    const page = await t.call('orders.list', { email, limit: 2 }, master);
    expect(page.body.result.map((o: { id: string }) => o.id)).toEqual([third.orderId, second.orderId]);
    expect((await t.call('orders.list', { limit: 101 }, master)).status).toBe(400);
  });

  it('matches the e-mail case-insensitively', async () => {
    const email = uniqueEmail();
    const { orderId } = await orderFor(email.replace('kunde', 'Kunde').replace('example', 'EXAMPLE'));
    const list = await t.call('orders.list', { email: email.toUpperCase() }, master);
    expect(list.body.result.map((o: { id: string }) => o.id)).toEqual([orderId]);
  });

  it('filters by status', async () => {
    const email = uniqueEmail();
    const card = await orderFor(email);
    const invoice = await orderFor(email, { paymentMethod: 'invoice' });
    const pending = await t.call('orders.list', { email, status: 'pending' }, master);
    expect(pending.body.result.map((o: { id: string }) => o.id)).toEqual([invoice.orderId]);
    const unpaid = await t.call('orders.list', { email, status: 'pending_payment' }, master);
    expect(unpaid.body.result.map((o: { id: string }) => o.id)).toEqual([card.orderId]);
    expect((await t.call('orders.list', { status: 'lost' }, master)).status).toBe(400);
  });

  it('filters by an inclusive createdAt range', async () => {
    const email = uniqueEmail();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await orderFor(email)).orderId);
    const all = (await t.call('orders.list', { email }, master)).body.result as Array<{ id: string; createdAt: string }>;
    const middle = all.find((o) => o.id === ids[1]);
    if (!middle) throw new Error('middle order missing');
    const exact = await t.call('orders.list', { email, fromDate: middle.createdAt, toDate: middle.createdAt }, master);
    expect(exact.body.result.map((o: { id: string }) => o.id)).toEqual([ids[1]]);
    const fromMiddle = await t.call('orders.list', { email, fromDate: middle.createdAt }, master);
    expect(fromMiddle.body.result.map((o: { id: string }) => o.id)).toEqual([ids[2], ids[1]]);
    const toMiddle = await t.call('orders.list', { email, toDate: middle.createdAt }, master);
    expect(toMiddle.body.result.map((o: { id: string }) => o.id)).toEqual([ids[1], ids[0]]);
  });

  it('rejects fromDate after toDate with 400 validation_failed', async () => {
    const response = await t.call('orders.list', { fromDate: '2026-02-01T00:00:00Z', toDate: '2026-01-01T00:00:00Z' }, master);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors[0].path).toBe('fromDate');
  });

  it('needs orders:read', async () => {
    const key = await t.keyWith('cart:write');
    const response = await t.call('orders.list', {}, { key });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('insufficient_scope');
  });
});

describe('orders.get', () => {
  it('answers every field of the full record, null where unknown', async () => {
    const { orderId, product } = await placeOrder(t, { quantity: 2 });
    const response = await t.call('orders.get', { orderId }, master);
    expect(Object.keys(response.body.result).sort()).toEqual(RECORD_KEYS);
    expect(response.body.result).toMatchObject({
      id: orderId, userId: null, invoiceProvider: null, invoiceId: null, invoicePdfUrl: null, carrier: null, trackingNumber: null,
      trackingUrl: null, estDeliveryFrom: null, estDeliveryTo: null, processorPaymentIntentId: null, acpSessionId: null,
      confirmationEmailSentAt: null, refundedAt: null, disputedAt: null, paidAt: null, discountCode: null,
      subtotalDkk: 40000, discountDkk: 0, shippingDkk: 4900, totalDkk: 44900, vatOere: 8980, shippingRegion: null, shippingCountry: null,
    });
    expect(response.body.result.items).toHaveLength(1);
    expect(Object.keys(response.body.result.items[0]).sort()).toEqual(ITEM_KEYS);
    expect(response.body.result.items[0]).toMatchObject({ orderId, productId: product.id, quantity: 2, unitPriceDkk: 20000 });
  });

  it('keeps the country an order\'s shipping was priced to', async () => {
    const { orderId } = await placeOrder(t, { checkout: { shipping: { ...shipping, country: 'DK' } } });
    expect((await t.call('orders.get', { orderId }, master)).body.result).toMatchObject({ shippingCountry: 'DK', shippingCity: 'Rungsted Kyst' });
  });

  it('answers an unknown order with 404 not_found', async () => {
    const response = await t.call('orders.get', { orderId: 'no-such-order' }, master);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('not_found');
  });
});

describe('orders.update_status', () => {
  it('rejects pending_payment → shipped naming both statuses and the legal next ones', async () => {
    const { orderId } = await placeOrder(t);
    const response = await move(orderId, 'shipped');
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('illegal_transition');
    expect(response.body.detail).toContain('from pending_payment to shipped');
    expect(response.body.detail).toContain('paid, pending, flagged_review, cancelled');
    expect(response.body.legalNextStatuses).toEqual(['paid', 'pending', 'flagged_review', 'cancelled']);
    expect((await t.call('orders.get', { orderId }, master)).body.result.status).toBe('pending_payment');
  });

  it('rejects cancelled → paid', async () => {
    const { orderId } = await placeOrder(t);
    await moveThrough(orderId, 'cancelled');
    const response = await move(orderId, 'paid');
    expect(response.status).toBe(422);
    expect(response.body.detail).toContain('cancelled is terminal');
    expect(response.body.legalNextStatuses).toEqual([]);
  });

  it('rejects every move out of refunded', async () => {
    const { orderId } = await placeOrder(t);
    await moveThrough(orderId, 'paid', 'refunded');
    for (const status of ['pending_payment', 'pending', 'paid', 'flagged_review', 'shipped', 'cancelled', 'partial_refund',
      'disputed', 'processing', 'delivered', 'completed']) {
      const response = await move(orderId, status);
      expect(response.status).toBe(422);
      expect(response.body.code).toBe('illegal_transition');
    }
  });

  it('walks the happy path, setting paidAt, disputedAt and refundedAt', async () => {
    const { orderId } = await placeOrder(t);
    const paid = await move(orderId, 'paid');
    expect(paid.body.result).toEqual({ id: orderId, status: 'paid' });
    const afterPaid = (await t.call('orders.get', { orderId }, master)).body.result;
    expect(afterPaid.paidAt).toMatch(/Z$/);
    await moveThrough(orderId, 'processing', 'shipped', 'delivered', 'completed', 'disputed');
    const disputed = (await t.call('orders.get', { orderId }, master)).body.result;
    expect(disputed).toMatchObject({ status: 'disputed', paidAt: afterPaid.paidAt, refundedAt: null });
    expect(disputed.disputedAt).toMatch(/Z$/);
    await moveThrough(orderId, 'refunded');
    const refunded = (await t.call('orders.get', { orderId }, master)).body.result;
    expect(refunded.status).toBe('refunded');
    expect(refunded.refundedAt).toMatch(/Z$/);
  });

  it('treats the current status as a no-op that logs nothing', async () => {
    const { orderId } = await placeOrder(t);
    const response = await move(orderId, 'pending_payment');
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ id: orderId, status: 'pending_payment' });
    const entries = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.targetId, orderId), eq(auditEntries.tool, 'orders.update_status')));
    expect(entries).toEqual([]);
  });

  it('logs the previous status in the audit entry', async () => {
    const { orderId } = await placeOrder(t);
    await moveThrough(orderId, 'flagged_review');
    const [entry] = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.targetId, orderId), eq(auditEntries.tool, 'orders.update_status')));
    expect(entry).toMatchObject({ targetType: 'order', before: { id: orderId, status: 'pending_payment' }, after: { status: 'flagged_review' } });
  });

  it('restocks the items and gives back the discount use on cancel', async () => {
    const product = await createProduct(t, { priceDkk: 20000, stock: 10 });
    const { code } = await createDiscount(t, { usageLimit: 3 });
    const { orderId } = await placeOrder(t, { product, quantity: 3, discountCode: code });
    expect(await stockOf(t, product.slug)).toBe(7);
    expect((await discountRecord(t, code)).usageCount).toBe(1);
    const response = await move(orderId, 'cancelled');
    expect(response.body.result).toEqual({ id: orderId, status: 'cancelled' });
    expect(await stockOf(t, product.slug)).toBe(10);
    expect(await discountRecord(t, code)).toMatchObject({ usageCount: 0, remainingUses: 3 });
  });

  it('allows processing → cancelled only while unpaid', async () => {
    const unpaid = await placeOrder(t, { checkout: { paymentMethod: 'invoice' } });
    await moveThrough(unpaid.orderId, 'processing');
    expect((await move(unpaid.orderId, 'cancelled')).status).toBe(200);

    const paid = await placeOrder(t);
    await moveThrough(paid.orderId, 'paid', 'processing');
    const response = await move(paid.orderId, 'cancelled');
    expect(response.status).toBe(422);
    expect(response.body.detail).toContain('from processing to cancelled');
    expect(response.body.detail).toContain('shipped, partial_refund, refunded, disputed.');
  });

  it('answers an unknown order with 404 and an unknown status with 400', async () => {
    expect((await move('no-such-order', 'paid')).status).toBe(404);
    const { orderId } = await placeOrder(t);
    expect((await move(orderId, 'lost')).status).toBe(400);
  });

  it('records carrier, tracking and delivery estimates given with shipped, and updates them on a shipped order', async () => {
    const { orderId } = await placeOrder(t);
    await moveThrough(orderId, 'paid', 'processing');
    const shipment = {
      carrier: 'PostNord', trackingNumber: '00370712345678901234', trackingUrl: 'https://tracking.postnord.com/dk/?id=00370712345678901234',
      estDeliveryFrom: '2026-11-26T08:00:00.000Z', estDeliveryTo: '2026-11-27T16:00:00.000Z',
    };
    const shipped = await t.call('orders.update_status', { orderId, status: 'shipped', ...shipment }, master);
    expect(shipped.body.result).toEqual({ id: orderId, status: 'shipped' });
    expect((await t.call('orders.get', { orderId }, master)).body.result).toMatchObject({ status: 'shipped', ...shipment });

    const corrected = await t.call('orders.update_status', { orderId, status: 'shipped', carrier: 'GLS' }, master);
    expect(corrected.status).toBe(200);
    const record = (await t.call('orders.get', { orderId }, master)).body.result;
    expect(record).toMatchObject({ ...shipment, carrier: 'GLS' });
    const entries = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.targetId, orderId), eq(auditEntries.tool, 'orders.update_status')));
    const last = entries.find((entry) => (entry.after as { carrier?: string }).carrier === 'GLS');
    expect(last).toMatchObject({ before: { carrier: 'PostNord', status: 'shipped' }, after: { carrier: 'GLS', status: 'shipped' } });
  });

  it('refuses fulfilment fields with any status but shipped, and a delivery window that ends before it starts', async () => {
    const { orderId } = await placeOrder(t);
    const wrongStatus = await t.call('orders.update_status', { orderId, status: 'paid', carrier: 'GLS' }, master);
    expect(wrongStatus.status).toBe(400);
    expect(wrongStatus.body.errors).toEqual([expect.objectContaining({ path: 'status' })]);
    await moveThrough(orderId, 'paid', 'processing');
    const backwards = await t.call('orders.update_status', {
      orderId, status: 'shipped', estDeliveryFrom: '2026-11-27T08:00:00.000Z', estDeliveryTo: '2026-11-26T08:00:00.000Z',
    }, master);
    expect(backwards.status).toBe(400);
    expect((await t.call('orders.get', { orderId }, master)).body.result.status).toBe('processing');
  });
});
