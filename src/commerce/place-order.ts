import { randomUUID } from 'node:crypto';
import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { AuditRecord, OrderEventHub } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { placeholderAs, preparedInsert, preparedStatement } from '../db/prepared.ts';
import { carts, orderItems, orders, products } from '../db/schema.ts';
import { vatOf } from '../domain/pricing.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { Totals } from '../domain/pricing.ts';
import { lockOpenCartWithLines } from './carts.ts';
import type { CartRow, PricedCartLine } from './carts.ts';
import { consumeDiscount } from './discounts.ts';

export type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;

/** The order's own columns, as the placing path has them: who buys, where it ships, how it is paid, its channel. */
export type OrderColumns = Omit<typeof orders.$inferInsert, 'id' | keyof Totals | 'vatOere' | 'discountCode'>;

export type OrderLine = { productId: string; productName: string; unitPriceDkk: number; quantity: number };

/** What a placing path charges for the cart it locked: the order's columns, its lines, its totals and codes. */
export type PricedOrder = {
  columns: OrderColumns;
  lines: readonly OrderLine[];
  totals: Totals;
  discountCodes: readonly string[];
  /** What the placing path records beside the order in the same transaction, before the order is announced. */
  record?(order: OrderRow): Promise<void>;
};

export type Placement = {
  cartId: string;
  now: Date;
  /** Prices the cart once it is locked; throws to refuse the order before anything is written. */
  price(cart: CartRow, lines: readonly PricedCartLine[]): Promise<PricedOrder>;
  audit(record: AuditRecord): Promise<unknown>;
  events: OrderEventHub;
  /** The refusal when the stock of a line ran short; the throw rolls the whole order back. */
  outOfStock(productId: string, lines: readonly PricedCartLine[]): Promise<Error> | Error;
  /** The refusal when a code's last use went meanwhile; without it, commerce's discount_not_applicable. */
  discountGone?(code: string): Error;
};

/**
 * Places an order from a cart, for cart.checkout and UCP completion alike, in the caller's transaction. Lock order,
 * the one order cancellation follows too, so no two of them deadlock: the cart row first (a second checkout of the
 * cart waits there and then finds it closed), then the product rows by id, then the discount rows in code order.
 * Stock and discount uses are taken last, right before the commit: a product or a code every shopper wants is held
 * for two statements per order, not seven. The order is charged what `price` read at the start; a change committed
 * meanwhile counts as coming after it, as one committed a moment later would.
 */
export async function placeOrder(db: Queryable, placement: Placement): Promise<{ order: OrderRow; items: OrderItemRow[] }> {
  const { now } = placement;
  const { cart, items: cartLines } = await lockOpenCartWithLines(db, placement.cartId);
  const priced = await placement.price(cart, cartLines);
  const { order, items } = await insertOrder(db, priced, { cartId: cart.id, now });
  await priced.record?.(order);
  await placement.audit({ targetType: 'order', targetId: order.id, before: null, after: { ...order, items } });
  await placement.events.publish(db, { type: 'order_placed', orderId: order.id, channel: order.channel, at: now });
  for (const line of cartLines) {
    if (!await takeStock(db, line, now)) throw await placement.outOfStock(line.productId, cartLines);
  }
  for (const code of [...priced.discountCodes].sort()) {
    try {
      await consumeDiscount(db, code, now);
    } catch (error) {
      if (error instanceof ToolError && placement.discountGone) throw placement.discountGone(code);
      throw error;
    }
  }
  return { order, items };
}

/**
 * Writes an order and its lines, VAT and the code column derived here, and closes the cart it was placed from (the
 * cart pointing at its order) in the order's own statement. The only place an order row is inserted: placeOrder for
 * every channel, and the demo seed's one historical order (no cart).
 */
export async function insertOrder(
  db: Queryable,
  priced: PricedOrder,
  from?: { cartId: string; now: Date },
): Promise<{ order: OrderRow; items: OrderItemRow[] }> {
  const id = randomUUID();
  const row = {
    id,
    ...priced.columns,
    ...priced.totals,
    vatOere: vatOf(priced.totals.totalDkk),
    discountCode: priced.discountCodes.join(',') || null,
  };
  const [order] = from
    ? await insertOrderClosingCart(db, [row], { cartId: from.cartId, orderId: id, now: from.now })
    : await insertOrderRow(db, [row]);
  if (!order) throw new Error('order insert returned no row');
  const items = await insertOrderItems(db, priced.lines.map((line) => ({ orderId: order.id, ...line })));
  return { order, items };
}

const insertOrderRow = preparedInsert(orders, 'commerce_insert_order');
const insertOrderItems = preparedInsert(orderItems, 'commerce_insert_order_items');
/** The cart was locked first (placeOrder's lock order), so closing it here takes no new lock. */
const insertOrderClosingCart = preparedInsert(orders, 'commerce_place_order', undefined, (db) => db.$with('closed_cart').as(db.update(carts)
  .set({ status: 'closed', orderId: placeholderAs(carts.orderId, 'orderId'), updatedAt: placeholderAs(carts.updatedAt, 'now') })
  .where(eq(carts.id, sql.placeholder('cartId')))));

const takeStockStatement = preparedStatement((db) => db.update(products)
  .set({ stock: sql`${products.stock} - ${sql.placeholder('quantity')}`, updatedAt: placeholderAs(products.updatedAt, 'now') })
  .where(and(eq(products.id, sql.placeholder('productId')), gte(products.stock, sql.placeholder('quantity')), isNull(products.deletedAt)))
  .returning({ id: products.id })
  .prepare('commerce_take_stock'));

/**
 * Decrements stock in one guarded UPDATE, so concurrent checkouts never take it below zero; false when the
 * stock is short or the product withdrawn.
 */
async function takeStock(db: Queryable, line: { productId: string; quantity: number }, now: Date): Promise<boolean> {
  const taken = await takeStockStatement(db).execute({ productId: line.productId, quantity: line.quantity, now });
  return taken.length > 0;
}
