import { and, asc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { actorName } from '../access/actor.ts';
import { cartItems, carts, orderItems, orders, products } from '../db/schema.ts';
import { priceLines, vatOf } from '../domain/pricing.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { CheckoutInput, CheckoutResult, OrderStatus } from '../schema/order.ts';
import { lockOpenCart } from './carts.ts';
import type { Channel, ToolContext } from '../context.ts';
import { consumeDiscount } from './discounts.ts';
import { requireFeature } from '../shop/features.ts';
import { readSettings } from '../shop/settings.ts';
import type { Queryable } from '../db/client.ts';

type OrderLine = { productId: string; productName: string; unitPriceDkk: number; quantity: number };

/** CONTRACT §9: `channel` is `api` for REST and `mcp` for MCP. */
function orderChannel(channel: Channel): string {
  switch (channel) {
    case 'rest':
      return 'api';
    case 'mcp':
      return 'mcp';
    case 'cli':
      return 'cli';
  }
}

/**
 * cart.checkout, one transaction (ctx.db is it). Lock order: cart row, discount row, product rows by id,
 * the same order order cancellation uses, so concurrent checkouts and cancellations cannot deadlock.
 */
export async function checkoutCart(
  ctx: ToolContext,
  input: z.output<typeof CheckoutInput>,
): Promise<z.input<typeof CheckoutResult>> {
  const { db } = ctx;
  await requireFeature(db, 'checkout');
  // Locked first: a second concurrent checkout of this cart waits here and then sees it closed.
  const cart = await lockOpenCart(db, input.cartId);
  const wanted = await db.select().from(cartItems).where(eq(cartItems.cartId, cart.id)).orderBy(asc(cartItems.productId));
  if (wanted.length === 0) throw new ToolError('cart_empty', `Cart "${cart.id}" has no items; add some with cart.set_item.`);

  const now = ctx.clock();
  const discount = cart.discountCode === null ? null : await consumeDiscount(db, cart.discountCode, now);
  const lines: OrderLine[] = [];
  for (const item of wanted) lines.push(await takeStock(db, item, now));

  const totals = priceLines(lines, discount ? { type: discount.type, value: discount.value } : null, await readSettings(db));
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
    currency: 'DKK',
    fxRate: 1,
    channel: orderChannel(ctx.channel),
  }).returning();
  if (!order) throw new Error('order insert returned no row');
  const items = await db.insert(orderItems).values(lines.map((line) => ({ orderId: order.id, ...line }))).returning();
  await db.update(carts).set({ status: 'closed', orderId: order.id, updatedAt: now }).where(eq(carts.id, cart.id));
  await ctx.audit({ targetType: 'order', targetId: order.id, before: null, after: { ...order, items } });
  return { orderId: order.id, status, totalDkk: order.totalDkk, vatOere };
}

/**
 * Decrements stock in one guarded UPDATE, so concurrent checkouts never take it below zero (CONTRACT §9).
 * The returned row also snapshots the name and price the order is charged at.
 */
async function takeStock(db: Queryable, item: { productId: string; quantity: number }, now: Date): Promise<OrderLine> {
  const [product] = await db.update(products)
    .set({ stock: sql`${products.stock} - ${item.quantity}`, updatedAt: now })
    .where(and(eq(products.id, item.productId), gte(products.stock, item.quantity), isNull(products.deletedAt)))
    .returning({ name: products.name, priceDkk: products.priceDkk });
  if (product) return { productId: item.productId, productName: product.name, unitPriceDkk: product.priceDkk, quantity: item.quantity };

  const [current] = await db.select().from(products).where(eq(products.id, item.productId));
  const name = current ? `"${current.name}" (${current.slug})` : `product ${item.productId}`;
  const detail = !current || current.deletedAt
    ? `${name} is no longer sold; remove it from the cart with cart.set_item quantity 0.`
    : `Only ${current.stock} of ${name} in stock; the cart asks for ${item.quantity}.`;
  throw new ToolError('out_of_stock', detail);
}
