import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { recordOrderEvent } from './order-feed.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { orders, ucpOrders } from '../../db/schema.ts';
import { mayUse } from '../identity/caller.ts';
import { ownsOrder } from '../identity/buyer-orders.ts';
import type { UcpCaller } from '../identity/caller.ts';
import { notFound, UcpError } from '../core/errors.ts';

/** An order's UCP document and its currency, which ucp/checkout/shapes.ts needs to show it in any version. */
export type OrderAnswer = { document: Record<string, unknown>; currency: string };

/**
 * GET /orders/{id}: the UCP order document, for a caller who may read it (key mode: the placing key or orders:read),
 * or for a linked buyer's token with dev.ucp.shopping.order:read when the order was placed for that buyer.
 */
export async function readOrder(db: Queryable, id: string, caller: UcpCaller): Promise<OrderAnswer> {
  const [row] = await db.select({ document: ucpOrders.document, keyId: ucpOrders.keyId, buyerId: ucpOrders.buyerId, currency: orders.currency })
    .from(ucpOrders).innerJoin(orders, eq(orders.id, ucpOrders.orderId)).where(eq(ucpOrders.orderId, id));
  if (!row || !(mayUse(caller, row.keyId, 'orders:read') || ownsOrder(caller, row.buyerId))) throw notFound('Order');
  return { document: row.document, currency: row.currency };
}

const LineRefs = z.array(z.object({ id: z.string().min(1).max(200), quantity: z.int().min(1) })).max(100);
const OccurredAt = z.iso.datetime({ offset: true });

const Event = z.object({
  id: z.string().min(1).max(200),
  occurred_at: OccurredAt,
  type: z.string().min(1).max(100),
  line_items: LineRefs,
  tracking_number: z.string().max(200).optional(),
  tracking_url: z.url().max(2000).optional(),
  carrier: z.string().max(200).optional(),
});

const Adjustment = z.object({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(100),
  occurred_at: OccurredAt,
  status: z.enum(['pending', 'completed', 'failed']),
  line_items: LineRefs.optional(),
  amount: z.int().optional(),
});

/** PUT /orders/{id} reads only the two append-only logs; every other member is the shop's and is kept. */
export const UpdateOrder = z.object({
  fulfillment: z.object({ events: z.array(Event).max(500).optional() }).optional(),
  adjustments: z.array(Adjustment).max(500).optional(),
});
export type UpdateOrder = z.infer<typeof UpdateOrder>;

type Logged = { id: string; line_items?: Array<{ id: string }> };

/**
 * Appends the events and adjustments the order does not hold yet (by id; a known id keeps what it was), after
 * checking that they name the order's own lines; the platform gets order_updated with the result.
 */
export async function updateOrder(db: Db, id: string, request: UpdateOrder, now: Date, caller: UcpCaller): Promise<OrderAnswer> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ document: ucpOrders.document, keyId: ucpOrders.keyId, currency: orders.currency })
      .from(ucpOrders).innerJoin(orders, eq(orders.id, ucpOrders.orderId)).where(eq(ucpOrders.orderId, id));
    if (!row || !mayUse(caller, row.keyId, 'orders:write')) throw notFound('Order');
    const current = row.document as { line_items?: Array<{ id: string }>; fulfillment?: { events?: Logged[] }; adjustments?: Logged[] };
    const lineIds = new Set((current.line_items ?? []).map((line) => line.id));
    const unknownLine = [...(request.fulfillment?.events ?? []), ...(request.adjustments ?? [])]
      .flatMap((entry) => entry.line_items ?? []).find((line) => !lineIds.has(line.id));
    if (unknownLine) throw new UcpError(422, 'INVALID_REQUEST', `Invalid request: line item ${unknownLine.id} is not in order ${id}`);
    const newOnes = <T extends Logged>(known: readonly Logged[] | undefined, sent: readonly T[] | undefined) => {
      const ids = new Set((known ?? []).map((entry) => entry.id));
      return (sent ?? []).filter((entry) => !ids.has(entry.id));
    };
    const updated = await recordOrderEvent(tx, {
      orderId: id,
      eventType: 'order_updated',
      now,
      change: (document) => ({
        ...document,
        fulfillment: { ...document.fulfillment, events: [...(document.fulfillment?.events ?? []), ...newOnes(current.fulfillment?.events, request.fulfillment?.events)] },
        adjustments: [...(document.adjustments ?? []), ...newOnes(current.adjustments, request.adjustments)],
      }),
    });
    if (!updated) throw notFound('Order');
    return { document: updated, currency: row.currency };
  });
}
