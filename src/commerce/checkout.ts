import { inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { actorName } from '../access/actor.ts';
import { products } from '../db/schema.ts';
import { priceLines, vatOf } from '../domain/pricing.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { CheckoutInput, CheckoutResult, OrderStatus } from '../schema/order.ts';
import type { Channel, ToolContext } from '../context.ts';
import { usableDiscount } from './discounts.ts';
import { placeOrder } from './place-order.ts';
import type { OrderColumns } from './place-order.ts';
import { requireFeature } from '../shop/features.ts';
import { readSettings } from '../shop/settings.ts';
import { shippingBook } from '../shop/shipping.ts';
import type { Queryable } from '../db/client.ts';

type CartLine = { productId: string; quantity: number };

/** `channel` is `api` for REST and `mcp` for MCP. */
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
 * cart.checkout, one transaction (ctx.db is it): the cart priced as the cart tools show it, placed by placeOrder
 * (which holds the lock order and takes stock and the code's use last).
 */
export async function checkoutCart(
  ctx: ToolContext,
  input: z.output<typeof CheckoutInput>,
): Promise<z.input<typeof CheckoutResult>> {
  const { db } = ctx;
  await requireFeature(db, 'checkout');
  const shop = await readSettings(db);
  const country = input.shipping.country;
  const book = await shippingBook(db);
  const now = ctx.clock();
  // The initial status depends on how the customer pays.
  const status: OrderStatus = input.paymentMethod === 'invoice' ? 'pending' : 'pending_payment';
  const { order } = await placeOrder(db, {
    cartId: input.cartId,
    now,
    async price(cart, lines) {
      if (lines.length === 0) throw new ToolError('cart_empty', `Cart "${cart.id}" has no items; add some with cart.set_item.`);
      // Read without a lock, so an unusable code fails before anything is written; its use is taken at the end.
      const discount = cart.discountCode === null ? null : await usableDiscount(db, cart.discountCode, now);
      // The same rule as the UCP checkout (docs/behaviour.md#shipping): the cheapest option to the country.
      const { totals, shipping } = priceLines(lines, discount, book, { country });
      if (!shipping.charged) {
        throw new ToolError('shipping_unavailable', `The shop has no shipping rate for ${country === undefined ? 'orders without shipping.country' : `country "${country}"`}; `
          + 'check out with another shipping.country, or ask the shop owner to add a rate with shipping.set_rate.');
      }
      return {
        columns: orderColumns(ctx, input, { status, currency: shop.currency }),
        lines: lines.map(({ productId, productName, unitPriceDkk, quantity }) => ({ productId, productName, unitPriceDkk, quantity })),
        totals,
        discountCodes: discount ? [discount.code] : [],
      };
    },
    audit: ctx.audit,
    events: ctx.orderEvents,
    outOfStock: (_productId, lines) => shortage(db, lines),
  });
  return { orderId: order.id, status, totalDkk: order.totalDkk, vatOere: vatOf(order.totalDkk) };
}

function orderColumns(ctx: ToolContext, input: z.output<typeof CheckoutInput>, facts: { status: OrderStatus; currency: string }): OrderColumns {
  return {
    email: input.email,
    status: facts.status,
    shippingName: input.shipping.name,
    shippingAddress: input.shipping.address,
    shippingZip: input.shipping.zip,
    shippingCity: input.shipping.city,
    // The country shipping was priced to: fulfilment needs it, and the order's shipping charge is explained by it.
    shippingCountry: input.shipping.country ?? null,
    billingName: input.billing?.name ?? null,
    billingAddress: input.billing?.address ?? null,
    billingZip: input.billing?.zip ?? null,
    billingCity: input.billing?.city ?? null,
    billingCountry: input.billing?.country ?? null,
    phoneNumber: input.phoneNumber ?? null,
    isAiGenerated: true,
    aiAgentSource: actorName(ctx.actor),
    paymentMethod: input.paymentMethod,
    currency: facts.currency,
    fxRate: 1,
    channel: orderChannel(ctx.channel),
  };
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
