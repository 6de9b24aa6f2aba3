import { and, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { actorName } from '../access/actor.ts';
import { carts, orderItems, orders, products } from '../db/schema.ts';
import { priceLines, vatOf } from '../domain/pricing.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { CheckoutInput, CheckoutResult, OrderStatus } from '../schema/order.ts';
import { lockOpenCartWithLines } from './carts.ts';
import type { Channel, ToolContext } from '../context.ts';
import { consumeDiscount, usableDiscount } from './discounts.ts';
import { requireFeature } from '../shop/features.ts';
import { readSettings } from '../shop/settings.ts';
import type { Queryable } from '../db/client.ts';

type CartLine = { productId: string; quantity: number };

/** CONTRACT §9: `channel` is `api` for REST and `mcp` for MCP. */
function orderChannel(channel: Channel): string {
  switch (channel) {
    case 'rest':
      return 'api';
    case 'mcp':
      return 'mcp';
    case 'cli':
      return 'cli';
    case 'admin':
      return 'admin';
  }
}

/**
 * cart.checkout, one transaction (ctx.db is it). Lock order: cart row, product rows by id, discount row, the
 * order cancellation and UCP's completion use too, so none of them can deadlock with another. Stock and the
 * discount use are taken last, right before the commit: a product or a code every shopper wants is held for
 * two statements per order, not seven. The order is charged the prices and terms read at the start; a change
 * committed during the checkout counts as coming after it, as one committed a moment later would.
 */
export async function checkoutCart(
  ctx: ToolContext,
  input: z.output<typeof CheckoutInput>,
): Promise<z.input<typeof CheckoutResult>> {
  const { db } = ctx;
  await requireFeature(db, 'checkout');
  const shop = await readSettings(db);
  // Locked first: a second concurrent checkout of this cart waits here and then sees it closed.
  const { cart, items: lines } = await lockOpenCartWithLines(db, input.cartId);
  if (lines.length === 0) throw new ToolError('cart_empty', `Cart "${cart.id}" has no items; add some with cart.set_item.`);

  const now = ctx.clock();
  // Read without a lock, so an unusable code fails before anything is written; its use is taken at the end.
  const discount = cart.discountCode === null ? null : await usableDiscount(db, cart.discountCode, now);
  const totals = priceLines(lines, discount ? { type: discount.type, value: discount.value } : null, shop);
  const vatOere = vatOf(totals.totalDkk);
  // CONTRACT §7: the initial status depends on how the customer pays.
  const status: OrderStatus = input.paymentMethod === 'invoice' ? 'pending' : 'pending_payment';
  const [order] = await db.insert(orders).values({
    email: input.email,
    status,
    shippingName: input.shipping.name,
    shippingAddress: input.shipping.address,
    shippingZip: input.shipping.zip,
    shippingCity: input.shipping.city,
    billingName: input.billing?.name ?? null,
    billingAddress: input.billing?.address ?? null,
    billingZip: input.billing?.zip ?? null,
    billingCity: input.billing?.city ?? null,
    billingCountry: input.billing?.country ?? null,
    phoneNumber: input.phoneNumber ?? null,
    ...totals,
    vatOere,
    discountCode: discount?.code ?? null,
    isAiGenerated: true,
    aiAgentSource: actorName(ctx.actor),
    paymentMethod: input.paymentMethod,
    currency: shop.currency,
    fxRate: 1,
    channel: orderChannel(ctx.channel),
  }).returning();
  if (!order) throw new Error('order insert returned no row');
  const items = await db.insert(orderItems).values(lines.map((line) => ({
    orderId: order.id, productId: line.productId, productName: line.productName, unitPriceDkk: line.unitPriceDkk, quantity: line.quantity,
  }))).returning();
  await db.update(carts).set({ status: 'closed', orderId: order.id, updatedAt: now }).where(eq(carts.id, cart.id));
  await ctx.audit({ targetType: 'order', targetId: order.id, before: null, after: { ...order, items } });
  for (const line of lines) {
    if (!await takeStock(db, line, now)) throw await shortage(db, lines);
  }
  if (discount) await consumeDiscount(db, discount.code, now);
  return { orderId: order.id, status, totalDkk: order.totalDkk, vatOere };
}

/**
 * Decrements stock in one guarded UPDATE, so concurrent checkouts never take it below zero (CONTRACT §9);
 * false when the stock is short or the product withdrawn.
 */
export async function takeStock(db: Queryable, item: CartLine, now: Date): Promise<boolean> {
  const taken = await db.update(products)
    .set({ stock: sql`${products.stock} - ${item.quantity}`, updatedAt: now })
    .where(and(eq(products.id, item.productId), gte(products.stock, item.quantity), isNull(products.deletedAt)))
    .returning({ id: products.id });
  return taken.length > 0;
}

/**
 * The out_of_stock for a cart whose stock ran short: every line that cannot be covered, not only the first,
 * so one cart.set_item round fixes the cart. A withdrawn product counts as 0 available. The transaction is
 * rolled back by the throw, so the lines taken before are given back.
 */
async function shortage(db: Queryable, wanted: readonly CartLine[]): Promise<ToolError> {
  const rows = await db.select({ id: products.id, slug: products.slug, name: products.name, stock: products.stock, deletedAt: products.deletedAt })
    .from(products)
    .where(inArray(products.id, wanted.map((line) => line.productId)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const shortLines = wanted.flatMap((line) => {
    const product = byId.get(line.productId);
    const withdrawn = !product || product.deletedAt !== null;
    const available = withdrawn ? 0 : product.stock;
    if (available >= line.quantity) return [];
    return [{ slug: product?.slug ?? line.productId, name: product?.name ?? line.productId, requested: line.quantity, available, withdrawn }];
  });
  const described = shortLines.map((line) => line.withdrawn
    ? `"${line.name}" (${line.slug}) is no longer sold`
    : `only ${line.available} of "${line.name}" (${line.slug}) in stock, the cart asks for ${line.requested}`);
  return new ToolError('out_of_stock', `Not enough stock: ${described.join('; ')}. Lower or remove these lines with cart.set_item.`, {
    shortLines: shortLines.map(({ slug, requested, available }) => ({ slug, requested, available })),
  });
}
