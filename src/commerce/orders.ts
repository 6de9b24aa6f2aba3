import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { orderItems, orderRefunds, orders, products } from '../db/schema.ts';
import {
  ORDER_STATUSES, isLegalTransition, legalNextStatuses, releasesStockAndDiscount, timestampSetBy,
} from '../domain/order-status.ts';
import type { OrderStatus } from '../domain/order-status.ts';
import { ToolError } from '../errors/tool-error.ts';
import { jsonObjectOrNull, toIso } from '../schema/common.ts';
import type { OrderRecord, OrderSummary, Shipment } from '../schema/order.ts';
import type { ToolContext } from '../context.ts';
import { releaseDiscount } from './discounts.ts';
import type { Queryable } from '../db/client.ts';

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;

export async function findOrder(db: Queryable, orderId: string, options: { lock?: boolean } = {}): Promise<OrderRow> {
  const query = db.select().from(orders).where(eq(orders.id, orderId));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) throw new ToolError('not_found', `No order with id "${orderId}"; orders.list shows the existing ones.`);
  return row;
}

/** The items of many orders in one query (no N+1), grouped by order, each group by product name. */
export async function itemsByOrder(db: Queryable, orderIds: readonly string[]): Promise<Map<string, OrderItemRow[]>> {
  const grouped = new Map<string, OrderItemRow[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return grouped;
  const rows = await db.select().from(orderItems).where(inArray(orderItems.orderId, [...orderIds]))
    .orderBy(asc(orderItems.productName), asc(orderItems.id));
  for (const row of rows) grouped.get(row.orderId)?.push(row);
  return grouped;
}

function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/** Orders are only written with known statuses; anything else is a corrupted row, a server fault. */
export function statusOf(row: OrderRow): OrderStatus {
  if (!isOrderStatus(row.status)) throw new Error(`order ${row.id} has unknown status ${row.status}`);
  return row.status;
}

export function toOrderSummary(row: OrderRow, items: readonly OrderItemRow[]): z.input<typeof OrderSummary> {
  return {
    id: row.id,
    email: row.email,
    shippingName: row.shippingName,
    status: statusOf(row),
    subtotalDkk: row.subtotalDkk,
    discountDkk: row.discountDkk,
    shippingDkk: row.shippingDkk,
    totalDkk: row.totalDkk,
    discountCode: row.discountCode,
    itemCount: items.reduce((sum, item) => sum + item.quantity, 0),
    items: items.map((item) => ({ productName: item.productName, quantity: item.quantity, unitPriceDkk: item.unitPriceDkk })),
    createdAt: toIso(row.createdAt),
  };
}

export function toOrderRecord(row: OrderRow, items: readonly OrderItemRow[]): z.input<typeof OrderRecord> {
  return {
    id: row.id,
    userId: row.userId,
    email: row.email,
    status: statusOf(row),
    shippingName: row.shippingName,
    shippingAddress: row.shippingAddress,
    shippingZip: row.shippingZip,
    shippingCity: row.shippingCity,
    shippingRegion: row.shippingRegion,
    shippingCountry: row.shippingCountry,
    billingName: row.billingName,
    billingAddress: row.billingAddress,
    billingZip: row.billingZip,
    billingCity: row.billingCity,
    billingCountry: row.billingCountry,
    phoneNumber: row.phoneNumber,
    subtotalDkk: row.subtotalDkk,
    shippingDkk: row.shippingDkk,
    discountDkk: row.discountDkk,
    totalDkk: row.totalDkk,
    vatOere: row.vatOere,
    invoiceProvider: row.invoiceProvider,
    invoiceId: row.invoiceId,
    invoicePdfUrl: row.invoicePdfUrl,
    discountCode: row.discountCode,
    isAiGenerated: row.isAiGenerated,
    aiAgentSource: row.aiAgentSource,
    carrier: row.carrier,
    trackingNumber: row.trackingNumber,
    trackingUrl: row.trackingUrl,
    estDeliveryFrom: toIso(row.estDeliveryFrom),
    estDeliveryTo: toIso(row.estDeliveryTo),
    createdAt: toIso(row.createdAt),
    processorPaymentIntentId: row.processorPaymentIntentId,
    paymentMethod: row.paymentMethod,
    paidAt: toIso(row.paidAt),
    currency: row.currency,
    fxRate: row.fxRate,
    channel: row.channel,
    acpSessionId: row.acpSessionId,
    confirmationEmailSentAt: toIso(row.confirmationEmailSentAt),
    refundedAt: toIso(row.refundedAt),
    disputedAt: toIso(row.disputedAt),
    items: items.map((item) => ({
      id: item.id,
      orderId: item.orderId,
      productId: item.productId,
      productName: item.productName,
      unitPriceDkk: item.unitPriceDkk,
      quantity: item.quantity,
      variantId: item.variantId,
      variantSku: item.variantSku,
      variantAttributes: jsonObjectOrNull(item.variantAttributes),
    })),
  };
}

/**
 * orders.update_status (docs/behaviour.md#order-status-transitions). The order row is locked so two concurrent moves are judged one
 * after the other. Lock order on cancel: order, products by id, discount (as in checkout).
 */
export async function changeOrderStatus(ctx: ToolContext, input: { orderId: string; status: OrderStatus } & Shipment) {
  const { db } = ctx;
  const before = await findOrder(db, input.orderId, { lock: true });
  const from = statusOf(before);
  const to = input.status;
  const shipment = shipmentColumns(input);
  if (from === to) {
    if (Object.keys(shipment).length > 0) await updateOrder(ctx, before, shipment);
    return { id: before.id, status: to };
  }
  const facts = { paid: before.paidAt !== null };
  if (!isLegalTransition(from, to, facts)) {
    const legal = legalNextStatuses(from, facts);
    const next = legal.length > 0 ? `legal next statuses: ${legal.join(', ')}` : `${from} is terminal, no status may follow it`;
    throw new ToolError('illegal_transition', `Order ${before.id} cannot move from ${from} to ${to}; ${next}.`, {
      legalNextStatuses: legal,
    });
  }

  const now = ctx.clock();
  if (releasesStockAndDiscount(to)) {
    const items = await db.select().from(orderItems).where(eq(orderItems.orderId, before.id)).orderBy(asc(orderItems.productId));
    for (const item of items) {
      await db.update(products).set({ stock: sql`${products.stock} + ${item.quantity}`, updatedAt: now })
        .where(eq(products.id, item.productId));
    }
    // A UCP order of a shop that stacks codes holds several, comma-separated; they are released in code order.
    for (const code of (before.discountCode ?? '').split(',').filter(Boolean).sort()) await releaseDiscount(db, code, now);
  }
  // A move to refunded gives back what orders.refund has not given back already.
  const givesBack = to === 'refunded' ? before.totalDkk - await refundedSoFar(db, before.id) : before.totalDkk;
  const stamp = timestampSetBy(to);
  await updateOrder(ctx, before, { status: to, ...(stamp ? { [stamp]: now } : {}), ...shipment });
  await ctx.orderEvents.publish(db, {
    type: 'order_status_changed', orderId: before.id, channel: before.channel, from, to, totalAmount: givesBack, at: now,
    shipment: { carrier: input.carrier ?? before.carrier, trackingNumber: input.trackingNumber ?? before.trackingNumber, trackingUrl: input.trackingUrl ?? before.trackingUrl },
  });
  return { id: before.id, status: to };
}

/** The øre orders.refund has given back for an order so far. */
export async function refundedSoFar(db: Queryable, orderId: string): Promise<number> {
  const [row] = await db.select({ sum: sql<number>`coalesce(sum(${orderRefunds.amount}), 0)`.mapWith(Number) }).from(orderRefunds)
    .where(eq(orderRefunds.orderId, orderId));
  return row?.sum ?? 0;
}

async function updateOrder(ctx: ToolContext, before: OrderRow, changes: Partial<typeof orders.$inferInsert>): Promise<void> {
  const [after] = await ctx.db.update(orders).set({ ...changes, updatedAt: ctx.clock() }).where(eq(orders.id, before.id)).returning();
  await ctx.audit({ targetType: 'order', targetId: before.id, before, after });
}

/** The fulfilment columns an update_status call sets: only the fields it sent. */
function shipmentColumns(input: Shipment): Partial<typeof orders.$inferInsert> {
  return {
    ...(input.carrier === undefined ? {} : { carrier: input.carrier }),
    ...(input.trackingNumber === undefined ? {} : { trackingNumber: input.trackingNumber }),
    ...(input.trackingUrl === undefined ? {} : { trackingUrl: input.trackingUrl }),
    ...(input.estDeliveryFrom === undefined ? {} : { estDeliveryFrom: new Date(input.estDeliveryFrom) }),
    ...(input.estDeliveryTo === undefined ? {} : { estDeliveryTo: new Date(input.estDeliveryTo) }),
  };
}
