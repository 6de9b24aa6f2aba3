import { and, asc, eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { preparedInsert, preparedStatement } from '../db/prepared.ts';
import { NOW_MS, cartItems, carts, products } from '../db/schema.ts';
import { lineTotal, priceLines, totalsAreSafe } from '../domain/pricing.ts';
import type { ShippingBook } from '../domain/pricing.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { Cart } from '../schema/cart.ts';
import { findDiscount } from './discounts.ts';
import { shippingBook } from '../shop/shipping.ts';
import type { Queryable } from '../db/client.ts';

export type CartRow = typeof carts.$inferSelect;

function noSuchCart(cartId: string): ToolError {
  return new ToolError('not_found', `No cart with id "${cartId}"; create one with cart.create.`);
}

export async function findCart(db: Queryable, cartId: string, options: { lock?: boolean } = {}): Promise<CartRow> {
  const query = db.select().from(carts).where(eq(carts.id, cartId));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) throw noSuchCart(cartId);
  return row;
}

/**
 * Every cart write locks the cart row first, so it serializes with a concurrent checkout of the same
 * cart; a checked-out cart is read-only (422 cart_closed).
 */
export async function lockOpenCart(db: Queryable, cartId: string): Promise<CartRow> {
  return requireOpen(await findCart(db, cartId, { lock: true }));
}

function requireOpen(cart: CartRow): CartRow {
  if (cart.status === 'closed') {
    throw new ToolError('cart_closed', `Cart "${cart.id}" was checked out as order "${cart.orderId ?? ''}" and can no longer change.`);
  }
  return cart;
}

export type CartItemRow = typeof cartItems.$inferSelect;

/**
 * A cart line with the name and price its product has now (what an order placed from it is charged) and the ids
 * free-shipping promotions know it by.
 */
export type PricedCartLine = CartItemRow & { productName: string; unitPriceDkk: number; itemIds: string[] };

const lockCartWithLines = preparedStatement((db) => db
  .select({ cart: carts, item: cartItems, product: { name: products.name, priceDkk: products.priceDkk, slug: products.slug, sku: products.sku } })
  .from(carts)
  .leftJoin(cartItems, eq(cartItems.cartId, carts.id))
  .leftJoin(products, eq(products.id, cartItems.productId))
  .where(eq(carts.id, sql.placeholder('cartId')))
  .orderBy(asc(cartItems.productId))
  .for('update', { of: carts })
  .prepare('commerce_lock_cart_with_lines'));

/**
 * lockOpenCart and the cart's lines with their products' names and prices in one round trip, for checkout. Only
 * the cart row is locked; the lines come in product-id order, the order stock rows are locked in.
 */
export async function lockOpenCartWithLines(db: Queryable, cartId: string): Promise<{ cart: CartRow; items: PricedCartLine[] }> {
  const rows = await lockCartWithLines(db).execute({ cartId });
  const [first] = rows;
  if (!first) throw noSuchCart(cartId);
  return {
    cart: requireOpen(first.cart),
    // cart_items.product_id references products, so a line always has its product.
    items: rows.flatMap(({ item, product }) => (item && product
      ? [{ ...item, productName: product.name, unitPriceDkk: product.priceDkk, itemIds: itemIdsOf(product) }]
      : [])),
  };
}

/** The ids a free-shipping promotion may name a product by: its SKU (UCP's item id) and its slug. */
export function itemIdsOf(product: { slug: string; sku: string | null }): string[] {
  return product.sku === null ? [product.slug] : [product.sku, product.slug];
}

/**
 * The cart's lines, inserted by the same statement as the cart (a data-modifying WITH): one round trip for a new cart
 * whatever its number of lines. The lines come as two arrays, so one prepared statement serves every cart size; each
 * line's `added_at` is the cart's `created_at` (both NOW_MS, the transaction's time).
 */
const insertCartAndLines = preparedInsert(carts, 'cart_create', undefined, (db) => db.$with('cart_lines').as(db.insert(cartItems).select(sql`
  select ${sql.placeholder('cartId')}::text, line.product_id, line.quantity, ${NOW_MS}
  from unnest(${sql.placeholder('productIds')}::text[], ${sql.placeholder('quantities')}::int[]) as line(product_id, quantity)`)));

/** A new open cart with its lines, as they were written (what cart.create audits). */
export async function insertCart(
  db: Queryable,
  cart: { discountCode: string | null; lines: ReadonlyArray<{ productId: string; quantity: number }> },
): Promise<{ cart: CartRow; items: CartItemRow[] }> {
  const id = randomUUID();
  const [row] = await insertCartAndLines(db, [{ id, discountCode: cart.discountCode }], {
    cartId: id, productIds: cart.lines.map((line) => line.productId), quantities: cart.lines.map((line) => line.quantity),
  });
  if (!row) throw new Error('cart insert returned no row');
  return { cart: row, items: cart.lines.map((line) => ({ cartId: id, productId: line.productId, quantity: line.quantity, addedAt: row.createdAt })) };
}

/** The product for a slug, soft-deleted ones included (so a line of a withdrawn product can still be removed). */
export async function findProductForCart(db: Queryable, slug: string): Promise<typeof products.$inferSelect | undefined> {
  const [row] = await db.select().from(products).where(eq(products.slug, slug));
  return row;
}

/** Sets a line's quantity; 0 removes the line. */
export async function setCartLine(db: Queryable, line: { cartId: string; productId: string; quantity: number }): Promise<void> {
  if (line.quantity === 0) {
    await db.delete(cartItems).where(and(eq(cartItems.cartId, line.cartId), eq(cartItems.productId, line.productId)));
    return;
  }
  await db.insert(cartItems).values(line)
    .onConflictDoUpdate({ target: [cartItems.cartId, cartItems.productId], set: { quantity: line.quantity } });
}

/** The lines with current product data, in no order: priceCart orders them. */
export async function cartLines(db: Queryable, cartId: string) {
  return db.select({
    productId: products.id,
    slug: products.slug,
    sku: products.sku,
    productName: products.name,
    unitPriceDkk: products.priceDkk,
    quantity: cartItems.quantity,
  }).from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.cartId, cartId));
}

/** Code-unit order, the same on every database whatever its collation: a cart lists its lines alike everywhere. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

type CartLine = Awaited<ReturnType<typeof cartLines>>[number];
type DiscountTerms = { code: string; type: 'percent' | 'fixed'; value: number };

/**
 * The cart as docs/behaviour.md#pricing-a-cart shows it: current prices, the applied code's terms and the shop's
 * shipping by its default rule (a cart has no destination; docs/behaviour.md#shipping). The pricing rule has no
 * exception for an empty cart, so it shows the standard shipping.
 */
export async function renderCart(db: Queryable, cart: CartRow): Promise<Cart> {
  const lines = await cartLines(db, cart.id);
  const discount = cart.discountCode ? await findDiscount(db, cart.discountCode) : undefined;
  return priceCart(cart.id, lines, discount, await shippingBook(db));
}

/** The priced cart from what the caller already holds; cart.create has it all without reading it back. */
export function priceCart(
  cartId: string,
  lines: readonly CartLine[],
  discount: DiscountTerms | undefined,
  shipping: ShippingBook,
): Cart {
  // By product name then slug: a stable order for agents and tests.
  const sorted = [...lines].sort((a, b) => compareText(a.productName, b.productName) || compareText(a.slug, b.slug));
  const { totals } = priceLines(
    sorted.map((line) => ({ ...line, itemIds: itemIdsOf(line) })),
    discount ? { type: discount.type, value: discount.value } : null,
    shipping,
  );
  if (!totalsAreSafe(totals)) {
    throw new ToolError('validation_failed', 'The cart total would exceed the largest supported amount; lower a quantity.', {
      errors: [{ path: 'quantity', message: 'cart total exceeds 9007199254740991 øre' }],
    });
  }
  return {
    cartId,
    items: sorted.map((line) => ({
      slug: line.slug,
      productName: line.productName,
      unitPriceDkk: line.unitPriceDkk,
      quantity: line.quantity,
      lineTotalDkk: lineTotal(line),
    })),
    discountCode: discount ? discount.code : null,
    ...totals,
  };
}

/** Full snapshot of a cart for the audit log: the row and its lines. */
export async function cartSnapshot(db: Queryable, cartId: string) {
  const [cart] = await db.select().from(carts).where(eq(carts.id, cartId));
  return snapshotOf(cart, await db.select().from(cartItems).where(eq(cartItems.cartId, cartId)));
}

/** A cart as its audit entries hold it: the row and its lines by product id. */
export function snapshotOf(cart: CartRow | undefined, items: readonly CartItemRow[]) {
  return { ...cart, items: [...items].sort((a, b) => compareText(a.productId, b.productId)) };
}
