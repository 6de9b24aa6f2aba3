import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { priceLines, vatOf } from '../src/domain/pricing.ts';

/**
 * cart.create and cart.checkout for the node:http baseline: the statements Butik runs for them (read from its
 * statement log), each prepared by name, over plain pg in one transaction per call, and nothing else: no
 * authentication, validation, feature switch or order event. Checkout locks the cart with its lines, inserts the
 * order and its items, closes the cart, writes one audit row, then takes stock and the discount use with the same
 * guarded updates, last, as Butik does; so the shoppers' audit afterwards shows any oversell here as well.
 */

type Answer = { status: number; body: unknown };
type Line = { productId: string; productName: string; unitPriceDkk: number; quantity: number };
type Discount = { code: string; type: 'percent' | 'fixed'; value: number; valid_until: Date | null; usage_limit: number | null; usage_count: number; active: boolean };

const q = (name: string, text: string) => (values: unknown[]) => ({ name, text, values });
const PRODUCT_BY_SLUG = q('baseline_product_by_slug', 'select id, name, price_dkk from products where slug = $1 and deleted_at is null');
const DISCOUNT = q('baseline_discount', 'select code, type, value, valid_until, usage_limit, usage_count, active from discounts where code = $1');
const INSERT_CART = q('baseline_insert_cart', 'insert into carts (id, discount_code) values ($1, $2) returning id, status, discount_code, order_id, created_at, updated_at');
const INSERT_CART_ITEM = q('baseline_insert_cart_item', 'insert into cart_items (cart_id, product_id, quantity) values ($1, $2, $3) returning cart_id, product_id, quantity, added_at');
const SETTINGS = q('baseline_settings', 'select key, value from settings');
const LOCK_CART = q('baseline_lock_cart', `select carts.id, carts.status, carts.discount_code, cart_items.product_id, cart_items.quantity,
  products.name, products.price_dkk from carts left join cart_items on cart_items.cart_id = carts.id
  left join products on products.id = cart_items.product_id where carts.id = $1 order by cart_items.product_id for update of carts`);
const INSERT_ORDER = q('baseline_insert_order', `insert into orders (id, email, status, shipping_name, shipping_address, shipping_zip, shipping_city,
  subtotal_dkk, shipping_dkk, discount_dkk, total_dkk, vat_oere, discount_code, is_ai_generated, ai_agent_source, payment_method, currency,
  fx_rate, channel) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, true, 'baseline', $14, $15, 1, 'api') returning *`);
const INSERT_ORDER_ITEM = q('baseline_insert_order_item', `insert into order_items (id, order_id, product_id, product_name, unit_price_dkk, quantity)
  values ($1, $2, $3, $4, $5, $6) returning *`);
const CLOSE_CART = q('baseline_close_cart', `update carts set status = 'closed', order_id = $2, updated_at = now() where id = $1`);
const AUDIT = q('baseline_audit', `insert into audit_entries (id, actor_kind, actor_name, channel, tool, target_type, target_id, before, after)
  values ($1, 'master', 'baseline', 'rest', $2, $3, $4, null, $5)`);
const TAKE_STOCK = q('baseline_take_stock', `update products set stock = stock - $2, updated_at = now()
  where id = $1 and stock >= $2 and deleted_at is null returning id`);
const TAKE_DISCOUNT = q('baseline_take_discount', `update discounts set usage_count = usage_count + 1, updated_at = now()
  where code = $1 and active and (valid_until is null or valid_until > now()) and (usage_limit is null or usage_count < usage_limit) returning id`);

const refused = (code: string): Answer => ({ status: 422, body: { code } });
const usable = (d: Discount | undefined): d is Discount => d !== undefined && d.active
  && (d.valid_until === null || d.valid_until > new Date()) && (d.usage_limit === null || d.usage_count < d.usage_limit);

/** One transaction on one pooled connection; a thrown Answer rolls it back and is the reply. */
async function inTransaction(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<Answer>): Promise<Answer> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const answer = await work(client);
    await client.query(answer.status === 200 ? 'commit' : 'rollback');
    return answer;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

async function shippingTerms(client: pg.PoolClient): Promise<{ shippingDkk: number; freeShippingThresholdDkk: number; currency: string }> {
  const rows = (await client.query<{ key: string; value: { value: unknown } }>(SETTINGS([]))).rows;
  const stored = new Map(rows.map((row) => [row.key, row.value.value]));
  const shippingDkk = stored.get('shippingDkk');
  const threshold = stored.get('freeShippingThresholdDkk');
  const currency = stored.get('currency');
  return {
    shippingDkk: typeof shippingDkk === 'number' ? shippingDkk : 4900,
    freeShippingThresholdDkk: typeof threshold === 'number' ? threshold : 50000,
    currency: typeof currency === 'string' ? currency : 'DKK',
  };
}

export function createCart(pool: pg.Pool, input: { items?: Array<{ slug: string; quantity: number }>; discountCode?: string }): Promise<Answer> {
  return inTransaction(pool, async (client) => {
    const lines: Line[] = [];
    for (const item of input.items ?? []) {
      const product = (await client.query<{ id: string; name: string; price_dkk: number }>(PRODUCT_BY_SLUG([item.slug]))).rows[0];
      if (!product) return { status: 404, body: { code: 'not_found' } };
      lines.push({ productId: product.id, productName: product.name, unitPriceDkk: product.price_dkk, quantity: item.quantity });
    }
    const code = input.discountCode?.toUpperCase();
    const discount = code === undefined ? undefined : (await client.query<Discount>(DISCOUNT([code]))).rows[0];
    if (code !== undefined && !usable(discount)) return refused('discount_not_applicable');
    const cart = (await client.query<{ id: string }>(INSERT_CART([randomUUID(), discount?.code ?? null]))).rows[0];
    if (!cart) throw new Error('cart insert returned no row');
    const items = [];
    for (const line of lines) items.push(...(await client.query(INSERT_CART_ITEM([cart.id, line.productId, line.quantity]))).rows);
    const { totals } = priceLines(lines, discount ?? null, { terms: await shippingTerms(client), rates: [], promotions: [] });
    await client.query(AUDIT([randomUUID(), 'cart.create', 'cart', cart.id, JSON.stringify({ ...cart, items })]));
    return { status: 200, body: { ok: true, result: { cartId: cart.id, discountCode: discount?.code ?? null, ...totals } } };
  });
}

type CheckoutInput = { cartId: string; email: string; paymentMethod: string; shipping: { name: string; address: string; zip: string; city: string } };
type LockedRow = { status: string; discount_code: string | null; product_id: string | null; quantity: number; name: string; price_dkk: number };

export function checkout(pool: pg.Pool, input: CheckoutInput): Promise<Answer> {
  return inTransaction(pool, async (client) => {
    const terms = await shippingTerms(client);
    const rows = (await client.query<LockedRow>(LOCK_CART([input.cartId]))).rows;
    const [cart] = rows;
    if (!cart) return { status: 404, body: { code: 'not_found' } };
    if (cart.status === 'closed') return refused('cart_closed');
    const lines: Line[] = rows.flatMap((row) => (row.product_id === null ? [] : [
      { productId: row.product_id, productName: row.name, unitPriceDkk: row.price_dkk, quantity: row.quantity }]));
    if (lines.length === 0) return refused('cart_empty');
    const discount = cart.discount_code === null ? undefined : (await client.query<Discount>(DISCOUNT([cart.discount_code]))).rows[0];
    if (cart.discount_code !== null && !usable(discount)) return refused('discount_not_applicable');
    const { totals } = priceLines(lines, discount ?? null, { terms, rates: [], promotions: [] });
    const status = input.paymentMethod === 'invoice' ? 'pending' : 'pending_payment';
    const { shipping } = input;
    const order = (await client.query<{ id: string }>(INSERT_ORDER([randomUUID(), input.email, status, shipping.name, shipping.address,
      shipping.zip, shipping.city, totals.subtotalDkk, totals.shippingDkk, totals.discountDkk, totals.totalDkk, vatOf(totals.totalDkk),
      discount?.code ?? null, input.paymentMethod, terms.currency]))).rows[0];
    if (!order) throw new Error('order insert returned no row');
    const items = [];
    for (const line of lines) {
      items.push(...(await client.query(INSERT_ORDER_ITEM([randomUUID(), order.id, line.productId, line.productName, line.unitPriceDkk, line.quantity]))).rows);
    }
    await client.query(CLOSE_CART([input.cartId, order.id]));
    await client.query(AUDIT([randomUUID(), 'cart.checkout', 'order', order.id, JSON.stringify({ ...order, items })]));
    for (const line of lines) {
      if ((await client.query(TAKE_STOCK([line.productId, line.quantity]))).rowCount === 0) return refused('out_of_stock');
    }
    if (discount && (await client.query(TAKE_DISCOUNT([discount.code]))).rowCount === 0) return refused('discount_not_applicable');
    return { status: 200, body: { ok: true, result: { orderId: order.id, status, totalDkk: totals.totalDkk, vatOere: vatOf(totals.totalDkk) } } };
  });
}
