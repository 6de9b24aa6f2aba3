import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, products, promotions, shippingRates } from '../../src/db/schema.ts';
import type { TestApp } from '../helpers/app.ts';
import { checkoutBody, createCart, shipping } from '../helpers/commerce.ts';
import { master } from '../helpers/fixtures.ts';
import { ADDRESS, flowerShop, SUCCESS_CARD, ucp } from './helpers.ts';

/**
 * One cart costs the same through cart.checkout and through the UCP checkout (docs/behaviour.md#shipping): with the
 * flower shop's imported rates and free-shipping promotions, and again once the shop has none and ships flat.
 */
let t: TestApp;
beforeAll(async () => { t = await flowerShop(); });
afterAll(async () => { await t?.close(); });

type Line = { sku: string; quantity: number };

async function slugOf(sku: string): Promise<string> {
  const [row] = await t.database.db.select({ slug: products.slug }).from(products).where(eq(products.sku, sku));
  if (!row) throw new Error(`no product with SKU ${sku}`);
  return row.slug;
}

async function throughCart(lines: readonly Line[], country: string | undefined): Promise<string> {
  const items = await Promise.all(lines.map(async (line) => ({ slug: await slugOf(line.sku), quantity: line.quantity })));
  const cart = await createCart(t, { items });
  const placed = await t.call('cart.checkout', checkoutBody(cart.cartId, { shipping: { ...shipping, ...(country ? { country } : {}) } }), master);
  if (placed.status !== 200) throw new Error(`cart.checkout: ${JSON.stringify(placed.body)}`);
  return placed.body.result.orderId;
}

/** A UCP session shipping to `country`, its first (cheapest) option chosen, completed. */
async function throughUcp(lines: readonly Line[], country: string): Promise<string> {
  const created = await ucp(t, 'POST', '/checkout-sessions', {
    line_items: lines.map((line) => ({ item: { id: line.sku }, quantity: line.quantity })),
    currency: 'USD',
    payment: {},
    buyer: { email: 'jane@example.com' },
    fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'home', ...ADDRESS, address_country: country }], selected_destination_id: 'home' }] },
  });
  const group = created.body.fulfillment.methods[0].groups[0];
  const updated = await ucp(t, 'PUT', `/checkout-sessions/${created.body.id}`, {
    fulfillment: { methods: [{ groups: [{ id: group.id, selected_option_id: group.options[0].id }] }] },
  });
  if (updated.body?.status !== 'ready_for_complete') throw new Error(`select: ${updated.status} ${JSON.stringify(updated.body)}`);
  const completed = await ucp(t, 'POST', `/checkout-sessions/${created.body.id}/complete`, {
    payment_data: { ...SUCCESS_CARD, billing_address: ADDRESS },
  }, { 'idempotency-key': `shipping-doors-${created.body.id}` });
  if (completed.status !== 200) throw new Error(`complete: ${completed.status} ${JSON.stringify(completed.body)}`);
  return completed.body.order.id;
}

async function charged(ids: readonly string[]) {
  const rows = await t.database.db.select().from(orders).where(inArray(orders.id, [...ids]));
  return ids.map((id) => {
    const row = rows.find((candidate) => candidate.id === id);
    return row && { subtotal: row.subtotalDkk, discount: row.discountDkk, shipping: row.shippingDkk, total: row.totalDkk };
  });
}

/** The cart through both doors: cart.checkout with and without the country (a US or default address alike). */
async function bothDoors(lines: readonly Line[], country: string) {
  const [cart, ucpOrder] = await charged([await throughCart(lines, country), await throughUcp(lines, country)]);
  expect(cart).toEqual(ucpOrder);
  return cart;
}

describe('shipping through cart.checkout and the UCP checkout', () => {
  it('charges the same with imported rates and promotions', async () => {
    // The US rates: standard (default, 500) beats express (1500); a pot alone pays it.
    expect((await bothDoors([{ sku: 'pot_ceramic', quantity: 1 }], 'US'))?.shipping).toBe(500);
    // Roses ship free by promotion; 10 500 after discounts reaches the $100 minimum.
    expect((await bothDoors([{ sku: 'bouquet_roses', quantity: 1 }], 'US'))?.shipping).toBe(0);
    expect((await bothDoors([{ sku: 'pot_ceramic', quantity: 7 }], 'US'))?.shipping).toBe(0);
    // A country without its own rate ships at the default ones, as does cart.checkout without a country.
    expect((await bothDoors([{ sku: 'bouquet_tulips', quantity: 1 }], 'DK'))?.shipping).toBe(500);
    const [withoutCountry] = await charged([await throughCart([{ sku: 'bouquet_tulips', quantity: 1 }], undefined)]);
    expect(withoutCountry).toEqual({ subtotal: 3000, discount: 0, shipping: 500, total: 3500 });
  });

  it('refuses cart.checkout to a country no rate covers, naming it', async () => {
    await t.database.db.delete(shippingRates).where(eq(shippingRates.countryCode, 'default'));
    const cart = await createCart(t, { items: [{ slug: await slugOf('pot_ceramic'), quantity: 1 }] });
    const refused = await t.call('cart.checkout', checkoutBody(cart.cartId, { shipping: { ...shipping, country: 'DK' } }), master);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('shipping_unavailable');
    expect(refused.body.detail).toContain('"DK"');
    expect(refused.body.resolution).toContain('shipping.set_rate');
  });

  it('charges the same flat shipping once the shop has no rates or promotions', async () => {
    await t.database.db.delete(shippingRates);
    await t.database.db.delete(promotions);
    const flat = await bothDoors([{ sku: 'pot_ceramic', quantity: 1 }], 'US');
    expect(flat).toEqual({ subtotal: 1500, discount: 0, shipping: 4900, total: 6400 });
    expect((await bothDoors([{ sku: 'bouquet_roses', quantity: 1 }], 'DK'))?.shipping).toBe(4900);
  });
});
