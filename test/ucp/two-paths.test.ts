import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../src/db/schema.ts';
import { writeSetting } from '../../src/shop/settings.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { checkoutBody, createCart, createDiscount } from '../helpers/commerce.ts';
import { createCategory, createProduct, master } from '../helpers/fixtures.ts';
import { ADDRESS, SUCCESS_CARD, ucp } from './helpers.ts';

/** mulberry32: a small seeded generator, so every run draws the same carts. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SHOPS = 8;
const CARTS_PER_SHOP = 30;

let t: TestApp;
const slugs: string[] = [];
const codes: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ env: { BUTIK_UCP_MODE: 'test' } });
  const category = await createCategory(t);
  const random = seeded(7);
  for (let i = 0; i < 6; i += 1) {
    const product = await createProduct(t, { categorySlug: category.slug, priceDkk: 100 + Math.floor(random() * 40_000), stock: 1_000_000 });
    slugs.push(product.slug);
  }
  for (const [type, value] of [['percent', 5], ['percent', 33], ['percent', 99], ['fixed', 1500], ['fixed', 25_000], ['fixed', 999_999]] as const) {
    codes.push((await createDiscount(t, { type, value })).code);
  }
});
afterAll(async () => { await t?.close(); });

type Drawn = { items: Array<{ slug: string; quantity: number }>; codes: string[] };

function drawCart(random: () => number): Drawn {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const lineCount = 1 + Math.floor(random() * 4);
  const chosen = [...new Set(Array.from({ length: lineCount }, () => pick(slugs)))];
  const roll = random();
  // No code, one code, or two codes: the second shows that UCP, like the cart, takes only the first.
  const drawnCodes = roll < 0.25 ? [] : roll < 0.75 ? [pick(codes)] : [pick(codes), pick(codes)];
  return { items: chosen.map((slug) => ({ slug, quantity: 1 + Math.floor(random() * 5) })), codes: drawnCodes };
}

async function throughCart(drawn: Drawn): Promise<string> {
  const cart = await createCart(t, { items: drawn.items, ...(drawn.codes[0] ? { discountCode: drawn.codes[0] } : {}) });
  const placed = await t.call('cart.checkout', checkoutBody(cart.cartId), master);
  if (placed.status !== 200) throw new Error(`cart.checkout: ${JSON.stringify(placed.body)}`);
  return placed.body.result.orderId;
}

async function throughUcp(drawn: Drawn, index: number): Promise<string> {
  const created = await ucp(t, 'POST', '/checkout-sessions', {
    line_items: drawn.items.map((item) => ({ item: { id: item.slug }, quantity: item.quantity })),
    currency: 'DKK',
    payment: {},
    buyer: { email: 'jane@example.com' },
    ...(drawn.codes.length > 0 ? { discounts: { codes: drawn.codes } } : {}),
    // A shop without shipping rates offers one option, `standard`, at its flat price: chosen at once.
    fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'home', ...ADDRESS }], selected_destination_id: 'home', groups: [{ selected_option_id: 'standard' }] }] },
  });
  if (created.body?.status !== 'ready_for_complete') throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  const completed = await ucp(t, 'POST', `/checkout-sessions/${created.body.id}/complete`, {
    payment_data: { ...SUCCESS_CARD, billing_address: ADDRESS },
  }, { 'idempotency-key': `two-paths-${index}` });
  if (completed.status !== 200) throw new Error(`complete: ${completed.status} ${JSON.stringify(completed.body)}`);
  return completed.body.order.id;
}

describe('the cart tools and the UCP checkout', () => {
  it(`charge the same subtotal, discount, shipping and total for ${SHOPS * CARTS_PER_SHOP} generated carts`, async () => {
    const random = seeded(2026);
    const pairs: Array<{ drawn: Drawn; cart: string; ucp: string }> = [];
    for (let shop = 0; shop < SHOPS; shop += 1) {
      // Each shop its own flat shipping price and free-shipping threshold (0 makes everything ship free).
      const now = new Date();
      await writeSetting(t.database.db, { key: 'shippingDkk', value: Math.floor(random() * 10_000), now });
      await writeSetting(t.database.db, { key: 'freeShippingThresholdDkk', value: shop === 0 ? 0 : Math.floor(random() * 150_000), now });
      for (let i = 0; i < CARTS_PER_SHOP; i += 1) {
        const drawn = drawCart(random);
        pairs.push({ drawn, cart: await throughCart(drawn), ucp: await throughUcp(drawn, pairs.length) });
      }
    }
    const rows = await t.database.db.select().from(orders).where(inArray(orders.id, pairs.flatMap((pair) => [pair.cart, pair.ucp])));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const charged = (id: string) => {
      const row = byId.get(id);
      return row && { subtotal: row.subtotalDkk, discount: row.discountDkk, shipping: row.shippingDkk, total: row.totalDkk, code: row.discountCode };
    };
    const disagreements = pairs.filter((pair) => JSON.stringify(charged(pair.cart)) !== JSON.stringify(charged(pair.ucp)))
      .map((pair) => ({ ...pair.drawn, cart: charged(pair.cart), ucp: charged(pair.ucp) }));
    expect(disagreements).toEqual([]);
    // The draw covers what it claims to: free and charged shipping, discounts that cap at the subtotal, refused second codes.
    const cartRows = pairs.map((pair) => byId.get(pair.cart));
    expect(cartRows.some((row) => row?.shippingDkk === 0)).toBe(true);
    expect(cartRows.some((row) => (row?.shippingDkk ?? 0) > 0)).toBe(true);
    expect(cartRows.some((row) => row !== undefined && row.discountDkk === row.subtotalDkk)).toBe(true);
    expect(pairs.some((pair) => pair.drawn.codes.length === 2 && pair.drawn.codes[0] !== pair.drawn.codes[1])).toBe(true);
  }, 600_000);
});
