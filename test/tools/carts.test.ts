import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartSnapshot } from '../../src/commerce/carts.ts';
import { auditEntries } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { checkoutBody, createCart, createDiscount, discountRecord, placeOrder, shipping, stockOf } from '../helpers/commerce.ts';
import { createProduct, master } from '../helpers/fixtures.ts';
import { LEGACY_HEADERS, rpc } from '../mcp/mcp-client.ts';

let t: TestApp;
let cartKey: string;
beforeAll(async () => {
  t = await createTestApp();
  cartKey = await t.keyWith('cart:write');
});
afterAll(async () => { await t?.close(); });

const asCart = { key: master.key };
const alfa = () => createProduct(t, { name: 'Alfa Stel', priceDkk: 12000, stock: 10 });
const beta = () => createProduct(t, { name: 'Beta Stel', priceDkk: 7900, stock: 5 });

describe('cart pricing', () => {
  it('shows an empty cart with the standard shipping', async () => {
    const response = await t.call('cart.create', {}, asCart);
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({
      cartId: expect.any(String), items: [], subtotalDkk: 0, discountCode: null, discountDkk: 0, shippingDkk: 4900, totalDkk: 4900,
    });
  });

  it('prices lines from current prices with a percent discount rounded down', async () => {
    const [a, b] = [await alfa(), await beta()];
    const { code } = await createDiscount(t, { type: 'percent', value: 10 });
    const response = await t.call('cart.create', {
      items: [{ slug: b.slug, quantity: 1 }, { slug: a.slug, quantity: 2 }], discountCode: code.toLowerCase(),
    }, asCart);
    expect(response.body.result).toEqual({
      cartId: expect.any(String),
      items: [
        { slug: a.slug, productName: 'Alfa Stel', unitPriceDkk: 12000, quantity: 2, lineTotalDkk: 24000 },
        { slug: b.slug, productName: 'Beta Stel', unitPriceDkk: 7900, quantity: 1, lineTotalDkk: 7900 },
      ],
      subtotalDkk: 31900, discountCode: code, discountDkk: 3190, shippingDkk: 4900, totalDkk: 33610,
    });
  });

  it('ships free once subtotal minus discount reaches the threshold', async () => {
    const a = await alfa();
    const cart = await t.call('cart.create', { items: [{ slug: a.slug, quantity: 5 }] }, asCart);
    expect(cart.body.result).toMatchObject({ subtotalDkk: 60000, discountDkk: 0, shippingDkk: 0, totalDkk: 60000 });
    const { code } = await createDiscount(t, { type: 'fixed', value: 10001 });
    const discounted = await t.call('cart.apply_discount', { cartId: cart.body.result.cartId, code }, asCart);
    expect(discounted.body.result).toMatchObject({ subtotalDkk: 60000, discountDkk: 10001, shippingDkk: 4900, totalDkk: 54899 });
  });

  it('caps a fixed discount at the subtotal', async () => {
    const b = await beta();
    const { code } = await createDiscount(t, { type: 'fixed', value: 10000 });
    const cart = await t.call('cart.create', { items: [{ slug: b.slug, quantity: 1 }], discountCode: code }, asCart);
    expect(cart.body.result).toMatchObject({ subtotalDkk: 7900, discountDkk: 7900, shippingDkk: 4900, totalDkk: 4900 });
  });

  it('uses the shop settings for shipping', async () => {
    await t.call('settings.update', { shippingDkk: 3900, freeShippingThresholdDkk: 100000 }, master);
    try {
      const a = await alfa();
      const cart = await t.call('cart.create', { items: [{ slug: a.slug, quantity: 5 }] }, asCart);
      expect(cart.body.result).toMatchObject({ subtotalDkk: 60000, shippingDkk: 3900, totalDkk: 63900 });
    } finally {
      await t.call('settings.update', { shippingDkk: 4900, freeShippingThresholdDkk: 50000 }, master);
    }
  });
});

describe('cart.create, cart.get and cart.set_item', () => {
  it('adds, changes and removes lines', async () => {
    const [a, b] = [await alfa(), await beta()];
    const { cartId } = await createCart(t);
    await t.call('cart.set_item', { cartId, slug: a.slug, quantity: 1 }, asCart);
    await t.call('cart.set_item', { cartId, slug: b.slug, quantity: 2 }, asCart);
    const changed = await t.call('cart.set_item', { cartId, slug: a.slug, quantity: 3 }, asCart);
    expect(changed.body.result.items.map((i: { slug: string; quantity: number }) => [i.slug, i.quantity]))
      .toEqual([[a.slug, 3], [b.slug, 2]]);
    expect(changed.body.result.subtotalDkk).toBe(3 * 12000 + 2 * 7900);
    const removed = await t.call('cart.set_item', { cartId, slug: a.slug, quantity: 0 }, asCart);
    expect(removed.body.result.items).toEqual([
      { slug: b.slug, productName: 'Beta Stel', unitPriceDkk: 7900, quantity: 2, lineTotalDkk: 15800 },
    ]);
    const got = await t.call('cart.get', { cartId }, asCart);
    expect(got.body.result).toEqual(removed.body.result);
  });

  it('shows the current product price, not the price when the line was added', async () => {
    const a = await alfa();
    const { cartId } = await createCart(t, { items: [{ slug: a.slug, quantity: 1 }] });
    await t.call('products.update', { slug: a.slug, patch: { priceDkk: 15000 } }, master);
    const got = await t.call('cart.get', { cartId }, asCart);
    expect(got.body.result.items[0]).toMatchObject({ unitPriceDkk: 15000, lineTotalDkk: 15000 });
  });

  it('answers an unknown product with 404 and bad quantities with 400', async () => {
    const { cartId } = await createCart(t);
    const unknown = await t.call('cart.set_item', { cartId, slug: 'no-such-product', quantity: 1 }, asCart);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    const a = await alfa();
    for (const quantity of [-1, 1000, 1.5]) {
      const response = await t.call('cart.set_item', { cartId, slug: a.slug, quantity }, asCart);
      expect(response.status).toBe(400);
      expect(response.body.errors[0].path).toBe('quantity');
    }
    expect((await t.call('cart.create', { items: [{ slug: 'no-such-product', quantity: 1 }] }, asCart)).status).toBe(404);
    const twice = await t.call('cart.create', { items: [{ slug: a.slug, quantity: 1 }, { slug: a.slug, quantity: 2 }] }, asCart);
    expect(twice.status).toBe(400);
  });

  it('answers an unknown cart with 404', async () => {
    for (const [tool, body] of [
      ['cart.get', { cartId: 'no-such-cart' }],
      ['cart.set_item', { cartId: 'no-such-cart', slug: 'x', quantity: 1 }],
      ['cart.apply_discount', { cartId: 'no-such-cart', code: 'ABC' }],
      ['cart.checkout', checkoutBody('no-such-cart')],
    ] as const) {
      const response = await t.call(tool, body, asCart);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('not_found');
    }
  });

  it('audits cart writes with before and after snapshots', async () => {
    const a = await alfa();
    const { cartId } = await createCart(t);
    await t.call('cart.set_item', { cartId, slug: a.slug, quantity: 2 }, asCart);
    const [entry] = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.targetId, cartId), eq(auditEntries.tool, 'cart.set_item')));
    expect(entry).toMatchObject({ targetType: 'cart', before: { id: cartId, items: [] } });
    expect(entry?.after).toMatchObject({ id: cartId, status: 'open', items: [{ productId: a.id, quantity: 2 }] });
  });

  it('writes a new cart and its lines in one statement, and audits them as a later read finds them', async () => {
    const [a, b] = [await alfa(), await beta()];
    const created = await t.call('cart.create', { items: [{ slug: a.slug, quantity: 2 }, { slug: b.slug, quantity: 1 }] }, asCart);
    const { cartId } = created.body.result as { cartId: string };
    const [entry] = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.targetId, cartId), eq(auditEntries.tool, 'cart.create')));
    expect(entry?.after).toEqual(JSON.parse(JSON.stringify(await cartSnapshot(t.database.db, cartId))));
    expect((entry?.after as { items: unknown[] }).items).toHaveLength(2);
    expect((await t.call('cart.get', { cartId }, asCart)).body.result).toEqual(created.body.result);
  });
});

describe('discount codes on carts', () => {
  async function expectReason(code: string, reason: string) {
    const { cartId } = await createCart(t);
    const applied = await t.call('cart.apply_discount', { cartId, code }, asCart);
    expect(applied.status).toBe(422);
    expect(applied.body).toMatchObject({ code: 'discount_not_applicable', reason });
    const created = await t.call('cart.create', { discountCode: code }, asCart);
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({ code: 'discount_not_applicable', reason });
  }

  it('rejects an unknown code with reason unknown_code', async () => {
    await expectReason('NO-SUCH-CODE', 'unknown_code');
  });

  it('rejects a switched-off code with reason inactive', async () => {
    const { code } = await createDiscount(t);
    await t.call('discounts.toggle', { code, active: false }, master);
    await expectReason(code, 'inactive');
  });

  it('rejects a code past validUntil with reason expired', async () => {
    const { code } = await createDiscount(t, { validUntil: '2020-01-01T00:00:00Z' });
    await expectReason(code, 'expired');
  });

  it('rejects a used-up code with reason usage_limit_reached', async () => {
    const { code } = await createDiscount(t, { usageLimit: 1 });
    await placeOrder(t, { discountCode: code });
    await expectReason(code, 'usage_limit_reached');
  });

  it('replaces and removes the code of a cart', async () => {
    const a = await alfa();
    const first = await createDiscount(t, { type: 'percent', value: 10 });
    const second = await createDiscount(t, { type: 'fixed', value: 500 });
    const { cartId } = await createCart(t, { items: [{ slug: a.slug, quantity: 1 }], discountCode: first.code });
    const replaced = await t.call('cart.apply_discount', { cartId, code: second.code.toLowerCase() }, asCart);
    expect(replaced.body.result).toMatchObject({ discountCode: second.code, discountDkk: 500, totalDkk: 12000 - 500 + 4900 });
    const removed = await t.call('cart.apply_discount', { cartId, code: null }, asCart);
    expect(removed.body.result).toMatchObject({ discountCode: null, discountDkk: 0, totalDkk: 16900 });
  });

  it('checks the code again at checkout', async () => {
    const a = await alfa();
    const { code } = await createDiscount(t);
    const { cartId } = await createCart(t, { items: [{ slug: a.slug, quantity: 1 }], discountCode: code });
    await t.call('discounts.toggle', { code }, master);
    const response = await t.call('cart.checkout', checkoutBody(cartId), asCart);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'discount_not_applicable', reason: 'inactive' });
    expect(await stockOf(t, a.slug)).toBe(10);
  });
});

describe('cart.checkout', () => {
  it('creates the order, takes stock and a discount use, and closes the cart', async () => {
    const a = await alfa();
    const { code } = await createDiscount(t, { type: 'percent', value: 10, usageLimit: 5 });
    const { cartId } = await createCart(t, { items: [{ slug: a.slug, quantity: 3 }], discountCode: code });
    const response = await t.call('cart.checkout', checkoutBody(cartId), { key: cartKey });
    expect(response.status).toBe(200);
    // 36000 − 3600 + 4900 = 37300; VAT 37300 / 5 = 7460.
    expect(response.body.result).toEqual({ orderId: expect.any(String), status: 'pending_payment', totalDkk: 37300, vatOere: 7460 });
    expect(await stockOf(t, a.slug)).toBe(7);
    expect(await discountRecord(t, code)).toMatchObject({ usageCount: 1, remainingUses: 4 });

    const order = await t.call('orders.get', { orderId: response.body.result.orderId }, master);
    expect(order.body.result).toMatchObject({
      status: 'pending_payment', email: 'karen@example.dk', shippingName: shipping.name, shippingAddress: shipping.address,
      shippingZip: shipping.zip, shippingCity: shipping.city, billingName: null, billingCountry: null, phoneNumber: null,
      subtotalDkk: 36000, discountDkk: 3600, shippingDkk: 4900, totalDkk: 37300, vatOere: 7460, discountCode: code,
      isAiGenerated: true, aiAgentSource: 'test cart:write', channel: 'api', currency: 'DKK', fxRate: 1, paymentMethod: 'card',
      paidAt: null,
    });
    expect(order.body.result.items).toEqual([{
      id: expect.any(String), orderId: response.body.result.orderId, productId: a.id, productName: 'Alfa Stel',
      unitPriceDkk: 12000, quantity: 3, variantId: null, variantSku: null, variantAttributes: null,
    }]);

    const again = await t.call('cart.checkout', checkoutBody(cartId), asCart);
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('cart_closed');
    // The order's own statement closed the cart and pointed it at the order.
    expect(again.body.detail).toContain(`as order "${response.body.result.orderId}"`);
    for (const [tool, body] of [
      ['cart.set_item', { cartId, slug: a.slug, quantity: 1 }],
      ['cart.apply_discount', { cartId, code: null }],
    ] as const) {
      const closed = await t.call(tool, body, asCart);
      expect(closed.status).toBe(422);
      expect(closed.body.code).toBe('cart_closed');
    }
    expect((await t.call('cart.get', { cartId }, asCart)).body.result.items).toHaveLength(1);
  });

  it('starts an invoice order as pending and keeps billing and phone', async () => {
    const billing = { name: 'Firma ApS', address: 'Havnegade 1', zip: '1058', city: 'København K', country: 'DK' };
    const { orderId, status } = await placeOrder(t, { checkout: { paymentMethod: 'invoice', billing, phoneNumber: '+45 12345678' } });
    expect(status).toBe('pending');
    const order = await t.call('orders.get', { orderId }, master);
    expect(order.body.result).toMatchObject({
      status: 'pending', paymentMethod: 'invoice', billingName: 'Firma ApS', billingAddress: 'Havnegade 1', billingZip: '1058',
      billingCity: 'København K', billingCountry: 'DK', phoneNumber: '+45 12345678', aiAgentSource: 'master',
    });
  });

  it('snapshots name and price: later product changes do not touch the order', async () => {
    const { orderId, product } = await placeOrder(t);
    await t.call('products.update', { slug: product.slug, patch: { priceDkk: 99900, name: 'Omdøbt Stel' } }, master);
    const order = await t.call('orders.get', { orderId }, master);
    expect(order.body.result.items[0]).toMatchObject({ productName: 'Aviator Classic', unitPriceDkk: 20000 });
  });

  it('refuses an empty cart with 422 cart_empty', async () => {
    const { cartId } = await createCart(t);
    const response = await t.call('cart.checkout', checkoutBody(cartId), asCart);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('cart_empty');
  });

  it('refuses a short line with 422 out_of_stock and changes nothing', async () => {
    const plenty = await createProduct(t, { name: 'Rigelig Stel', priceDkk: 10000, stock: 5 });
    const scarce = await createProduct(t, { name: 'Sjælden Stel', priceDkk: 10000, stock: 1 });
    const { code } = await createDiscount(t, { usageLimit: 5 });
    const { cartId } = await createCart(t, {
      items: [{ slug: plenty.slug, quantity: 2 }, { slug: scarce.slug, quantity: 2 }], discountCode: code,
    });
    const response = await t.call('cart.checkout', checkoutBody(cartId, { email: 'short@example.dk' }), asCart);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('out_of_stock');
    expect(response.body.detail).toContain('Sjælden Stel');
    expect(response.body.detail).toContain(scarce.slug);
    expect(response.body.shortLines).toEqual([{ slug: scarce.slug, requested: 2, available: 1 }]);
    expect(await stockOf(t, plenty.slug)).toBe(5);
    expect(await stockOf(t, scarce.slug)).toBe(1);
    expect((await discountRecord(t, code)).usageCount).toBe(0);
    expect((await t.call('orders.list', { email: 'short@example.dk' }, master)).body.result).toEqual([]);
    const fixed = await t.call('cart.set_item', { cartId, slug: scarce.slug, quantity: 1 }, asCart);
    expect(fixed.status).toBe(200);
    expect((await t.call('cart.checkout', checkoutBody(cartId), asCart)).status).toBe(200);
  });

  it('refuses a product deleted since it was added, which can then be removed', async () => {
    const a = await alfa();
    const { cartId } = await createCart(t, { items: [{ slug: a.slug, quantity: 1 }] });
    await t.call('products.delete', { slug: a.slug, confirm: true }, master);
    const response = await t.call('cart.checkout', checkoutBody(cartId), asCart);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      code: 'out_of_stock',
      detail: expect.stringContaining('no longer sold'),
      shortLines: [{ slug: a.slug, requested: 1, available: 0 }],
    });
    const removed = await t.call('cart.set_item', { cartId, slug: a.slug, quantity: 0 }, asCart);
    expect(removed.body.result.items).toEqual([]);
  });

  it('validates the checkout body', async () => {
    const { cartId } = await createCart(t);
    for (const body of [
      { cartId, shipping },
      { ...checkoutBody(cartId), email: 'not-an-email' },
      { ...checkoutBody(cartId), paymentMethod: 'cash' },
      { ...checkoutBody(cartId), shipping: { ...shipping, city: '' } },
    ]) {
      const response = await t.call('cart.checkout', body, asCart);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_failed');
    }
  });

  it('answers 422 feature_disabled while checkout is switched off', async () => {
    const { cartId } = await createCart(t);
    await t.call('features.set', { key: 'checkout', enabled: false }, master);
    try {
      const response = await t.call('cart.checkout', checkoutBody(cartId), asCart);
      expect(response.status).toBe(422);
      expect(response.body.code).toBe('feature_disabled');
    } finally {
      await t.call('features.set', { key: 'checkout', enabled: true }, master);
    }
  });

  it('audits the new order with its items', async () => {
    const { orderId } = await placeOrder(t, { quantity: 2 });
    const [entry] = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.targetId, orderId), eq(auditEntries.tool, 'cart.checkout')));
    expect(entry).toMatchObject({ targetType: 'order', before: null, actorName: 'master', channel: 'rest' });
    expect(entry?.after).toMatchObject({ id: orderId, status: 'pending_payment', items: [{ quantity: 2 }] });
  });

  it('records channel mcp for an order placed over MCP', async () => {
    const a = await alfa();
    const { cartId } = await createCart(t, { items: [{ slug: a.slug, quantity: 1 }] });
    const response = await rpc(t, {
      jsonrpc: '2.0', id: 1, method: 'tools/call',
      params: {
        name: 'cart.checkout', arguments: checkoutBody(cartId),
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'carts-test', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }, {
      ...LEGACY_HEADERS, authorization: `Bearer ${cartKey}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call',
      'mcp-name': 'cart.checkout',
    });
    const result = response.body.result.structuredContent;
    expect(result).toMatchObject({ status: 'pending_payment', totalDkk: 16900, vatOere: 3380 });
    const order = await t.call('orders.get', { orderId: result.orderId }, master);
    expect(order.body.result).toMatchObject({ channel: 'mcp', aiAgentSource: 'test cart:write', isAiGenerated: true });
  });

  it('needs cart:write', async () => {
    const reader = await t.keyWith('orders:read');
    const response = await t.call('cart.create', {}, { key: reader });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('insufficient_scope');
  });
});
