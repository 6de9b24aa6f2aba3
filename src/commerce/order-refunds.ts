import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { actorName } from '../access/actor.ts';
import type { z } from 'zod';
import { orderItems, orderRefunds, orders, products } from '../db/schema.ts';
import { isLegalTransition, legalNextStatuses } from '../domain/order-status.ts';
import type { OrderStatus } from '../domain/order-status.ts';
import { ToolError } from '../errors/tool-error.ts';
import { toIso } from '../schema/common.ts';
import type { OrderRefund } from '../schema/order.ts';
import type { Queryable } from '../db/client.ts';
import type { ToolContext } from '../context.ts';
import { findOrder, statusOf } from './orders.ts';
import type { OrderItemRow, OrderRow } from './orders.ts';

export type RestockLine = { productId?: string; sku?: string; quantity: number };
export type RefundRequest = { orderId: string; amount?: number; restock?: boolean; lines?: RestockLine[]; reason?: string };
export type RestockedLine = { productId: string; quantity: number };

type RefundRow = typeof orderRefunds.$inferSelect;

/** An order's refunds, first to last. */
export async function refundsOf(db: Queryable, orderId: string): Promise<RefundRow[]> {
  return db.select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId)).orderBy(asc(orderRefunds.number));
}

export function toRefundRecord(row: RefundRow): z.input<typeof OrderRefund> {
  return { amount: row.amount, at: toIso(row.createdAt) ?? '', by: row.actorName, reason: row.reason, restocked: restockedOf(row) };
}

function restockedOf(row: RefundRow): RestockedLine[] {
  return Array.isArray(row.restocked) ? (row.restocked as RestockedLine[]) : [];
}

/**
 * orders.refund (docs/behaviour.md#refunds). The order row is locked first, so two refunds of one order are judged one
 * after the other against what is left to refund. The processor pays back before anything is written: a refused
 * payback refuses the refund, and a failure after it rolls back only the record, never the money (the processor is
 * asked last, after every check that can refuse).
 */
export async function refundOrder(ctx: ToolContext, input: RefundRequest) {
  const { db } = ctx;
  const before = await findOrder(db, input.orderId, { lock: true });
  const earlier = await refundsOf(db, before.id);
  const remaining = before.totalDkk - earlier.reduce((sum, refund) => sum + refund.amount, 0);
  const amount = input.amount ?? remaining;
  if (remaining <= 0) {
    throw new ToolError('refund_exceeds_remaining', `Order ${before.id} is already refunded in full (${before.totalDkk} øre); nothing is left to refund.`);
  }
  if (amount > remaining) {
    throw new ToolError('refund_exceeds_remaining',
      `Order ${before.id} has ${remaining} øre left to refund (total ${before.totalDkk} øre minus earlier refunds); ${amount} øre is more.`);
  }
  const to: OrderStatus = amount === remaining ? 'refunded' : 'partial_refund';
  const from = statusOf(before);
  const facts = { paid: before.paidAt !== null };
  // A second partial refund keeps the order in partial_refund: the same status, not a move.
  if (!(from === to && to === 'partial_refund') && !isLegalTransition(from, to, facts)) {
    const legal = legalNextStatuses(from, facts);
    throw new ToolError('illegal_transition',
      `Order ${before.id} is ${from} and cannot move to ${to}, so it cannot be refunded now; legal next statuses: ${legal.join(', ') || 'none'}.`,
      { legalNextStatuses: legal });
  }
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, before.id)).orderBy(asc(orderItems.productId));
  const restocked = input.restock ? await restockLines(db, before, items, earlier, input.lines) : [];

  if (before.processorPaymentIntentId) await payBack(ctx, before, amount);

  const now = ctx.clock();
  for (const line of restocked) {
    // Guarded: the product row must still be there; a missing one is a corrupted order, a server fault.
    const [row] = await db.update(products).set({ stock: sql`${products.stock} + ${line.quantity}`, updatedAt: now })
      .where(eq(products.id, line.productId)).returning({ id: products.id });
    if (!row) throw new Error(`order ${before.id} names product ${line.productId}, which is gone`);
  }
  const [refund] = await db.insert(orderRefunds).values({
    orderId: before.id, number: earlier.length + 1, amount, restocked, reason: input.reason ?? null, createdAt: now,
    actorKind: ctx.actor.kind, actorName: actorName(ctx.actor), actorKeyId: ctx.actor.kind === 'key' ? ctx.actor.keyId : null,
  }).returning();
  if (!refund) throw new Error('refund insert returned no row');
  const [after] = await db.update(orders).set({ status: to, refundedAt: now, updatedAt: now }).where(eq(orders.id, before.id)).returning();
  // The entry carries the amount beside the order's before and after, so the activity log and a daily refund budget read it.
  await ctx.audit({ targetType: 'order', targetId: before.id, before, after: { ...after, refund: toRefundRecord(refund) } });
  await ctx.orderEvents.publish(db, {
    type: 'order_refunded', orderId: before.id, channel: before.channel, from, to, amount, paidBack: before.processorPaymentIntentId !== null, at: now,
  });
  return { orderId: before.id, status: to, amount, refundedDkk: before.totalDkk - remaining + amount, remainingDkk: remaining - amount, restocked };
}

/** The processor that took the order's money gives the amount back; without one that will, nothing is recorded. */
async function payBack(ctx: ToolContext, order: OrderRow, amount: number): Promise<void> {
  const paid = { orderId: order.id, channel: order.channel, paymentReference: order.processorPaymentIntentId ?? '' };
  let done: boolean;
  try {
    done = await ctx.paymentRefunds.refund(ctx.db, paid, amount);
  } catch (error) {
    ctx.log.warn({ orderId: order.id, amount, reason: error instanceof Error ? error.message : String(error) }, 'refund: the payment processor refused');
    throw new ToolError('payment_refund_failed', `The payment processor did not give ${amount} øre back for order ${order.id}; nothing was recorded.`);
  }
  if (!done) {
    throw new ToolError('payment_refund_failed',
      `Order ${order.id} was paid through a payment processor this server does not reach now (payment ${order.processorPaymentIntentId}); nothing was recorded.`);
  }
}

/**
 * The lines a refund puts back in stock: the ones named (by product id or SKU), or every line of the order; never more
 * of a product than the order had less what earlier refunds restocked.
 */
async function restockLines(
  db: Queryable, order: OrderRow, items: readonly OrderItemRow[], earlier: readonly RefundRow[], lines: readonly RestockLine[] | undefined,
): Promise<RestockedLine[]> {
  const left = new Map<string, number>();
  for (const item of items) left.set(item.productId, (left.get(item.productId) ?? 0) + item.quantity);
  for (const refund of earlier) for (const line of restockedOf(refund)) left.set(line.productId, (left.get(line.productId) ?? 0) - line.quantity);
  const wanted = lines ? await namedLines(db, order, items, lines) : [...left].map(([productId, quantity]) => ({ productId, quantity }));
  const restocked: RestockedLine[] = [];
  for (const line of wanted) {
    const available = left.get(line.productId) ?? 0;
    if (lines && line.quantity > available) {
      throw new ToolError('refund_restock_invalid',
        `Order ${order.id} has ${available} of product ${line.productId} left to put back in stock; ${line.quantity} is more.`);
    }
    const quantity = Math.min(line.quantity, available);
    if (quantity > 0) restocked.push({ productId: line.productId, quantity });
    left.set(line.productId, available - quantity);
  }
  // Stock rows are updated in product id order, the lock order checkout and cancellation use.
  return restocked.sort((a, b) => a.productId.localeCompare(b.productId));
}

async function namedLines(db: Queryable, order: OrderRow, items: readonly OrderItemRow[], lines: readonly RestockLine[]): Promise<RestockedLine[]> {
  const ids = [...new Set(items.map((item) => item.productId))];
  const skus = ids.length === 0 ? [] : await db.select({ id: products.id, sku: products.sku }).from(products)
    .where(and(inArray(products.id, ids), isNotNull(products.sku)));
  const bySku = new Map<string, string>(skus.map((row) => [row.sku ?? '', row.id]));
  for (const item of items) if (item.variantSku) bySku.set(item.variantSku, item.productId);
  return lines.map((line) => {
    const productId = line.productId ?? bySku.get(line.sku ?? '');
    if (productId === undefined || !ids.includes(productId)) {
      throw new ToolError('refund_restock_invalid', `Order ${order.id} has no line for ${line.productId ? `product ${line.productId}` : `SKU ${line.sku}`}.`);
    }
    return { productId, quantity: line.quantity };
  });
}
