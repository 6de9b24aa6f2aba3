import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { OrderEventHub } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { orders, ucpOrders, ucpPaymentActions, ucpWebhookOutbox } from '../../db/schema.ts';
import type { OrderStatus } from '../../domain/order-status.ts';
import { presentOrder } from '../checkout/shapes.ts';
import { isUcpVersion } from '../core/versions.ts';

/**
 * The feed of an order placed through UCP: its UCP order document, changed as the order moves, and the webhook
 * events the platform is sent about it. Everything here runs in the transaction that changed the order, so an
 * event exists exactly when its change does. Orders from other channels have no feed.
 */

/** How long a webhook event, or a payment action, is retried before it is marked failed: three days. */
export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

type Document = Record<string, unknown> & {
  line_items?: Array<Record<string, unknown> & { id: string; quantity: { total: number; fulfilled: number } }>;
  fulfillment?: { expectations?: unknown[]; events?: unknown[] };
  adjustments?: unknown[];
};

export type FeedEvent = {
  orderId: string;
  eventType: string;
  now: Date;
  /** The document after the change; the document before is its argument. */
  change?: (document: Document) => Document;
};

/** The order's feed row, locked, with the order's currency: one round trip on every event, order_placed included. */
const feedRowForUpdate = preparedStatement((db) => db.select({ row: ucpOrders, order: { currency: orders.currency } })
  .from(ucpOrders).innerJoin(orders, eq(orders.id, ucpOrders.orderId))
  .where(eq(ucpOrders.orderId, sql.placeholder('orderId')))
  .for('update', { of: ucpOrders })
  .prepare('ucp_feed_row_for_update'));

/** Applies a change to an order's document and queues the event for the platform's webhook, if it named one. */
export async function recordOrderEvent(db: Queryable, event: FeedEvent): Promise<Document | undefined> {
  const [found] = await feedRowForUpdate(db).execute({ orderId: event.orderId });
  if (!found) return undefined;
  const { row, order } = found;
  const document = event.change ? event.change(structuredClone(row.document) as Document) : (row.document as Document);
  if (event.change) await db.update(ucpOrders).set({ document, updatedAt: event.now }).where(eq(ucpOrders.orderId, event.orderId));
  if (row.webhookUrl && isUcpVersion(row.ucpVersion)) {
    // In the version the platform negotiated when it placed the order.
    const shown = presentOrder(document, { version: row.ucpVersion }, order.currency);
    await db.insert(ucpWebhookOutbox).values({
      orderId: event.orderId,
      eventType: event.eventType,
      url: row.webhookUrl,
      // As the samples post it: the order's own members, the event's, and the order once more nested.
      body: JSON.stringify({
        ...shown,
        event_id: `evt_${randomUUID()}`,
        created_time: event.now.toISOString(),
        event_type: event.eventType,
        checkout_id: row.checkoutId,
        order: shown,
      }),
      nextAttemptAt: event.now,
      giveUpAt: new Date(event.now.getTime() + WEBHOOK_RETRY_WINDOW_MS),
      createdAt: event.now,
    });
  }
  return document;
}

type Shipment = { carrier?: string | null; trackingNumber?: string | null; trackingUrl?: string | null };

const allLines = (document: Document) => (document.line_items ?? []).map((line) => ({ id: line.id, quantity: line.quantity.total }));

function withEvent(document: Document, event: Record<string, unknown>): Document {
  return { ...document, fulfillment: { ...document.fulfillment, events: [...(document.fulfillment?.events ?? []), event] } };
}

function withAdjustment(document: Document, adjustment: Record<string, unknown>): Document {
  return { ...document, adjustments: [...(document.adjustments ?? []), adjustment] };
}

/**
 * What a status change means to the platform: shipped and delivered are fulfillment events (shipping fulfils
 * every line), cancelled and refunded are adjustments over the whole amount, and a refund is queued for the
 * payment processor. Other statuses send nothing.
 */
async function feedStatusChange(
  db: Queryable,
  change: { orderId: string; to: OrderStatus; totalAmount: number; shipment: Shipment; now: Date },
): Promise<void> {
  const occurredAt = change.now.toISOString();
  const id = randomUUID();
  switch (change.to) {
    case 'shipped':
      await recordOrderEvent(db, {
        orderId: change.orderId, eventType: 'order_shipped', now: change.now,
        change: (document) => withEvent({
          ...document,
          line_items: document.line_items?.map((line) => ({ ...line, quantity: { ...line.quantity, fulfilled: line.quantity.total }, status: 'fulfilled' })),
        }, {
          id: `evt_${id}`, occurred_at: occurredAt, type: 'shipped', line_items: allLines(document),
          ...(change.shipment.carrier ? { carrier: change.shipment.carrier } : {}),
          ...(change.shipment.trackingNumber ? { tracking_number: change.shipment.trackingNumber } : {}),
          ...(change.shipment.trackingUrl ? { tracking_url: change.shipment.trackingUrl } : {}),
        }),
      });
      return;
    case 'delivered':
      await recordOrderEvent(db, {
        orderId: change.orderId, eventType: 'order_delivered', now: change.now,
        change: (document) => withEvent(document, { id: `evt_${id}`, occurred_at: occurredAt, type: 'delivered', line_items: allLines(document) }),
      });
      return;
    case 'cancelled':
    case 'refunded':
      await recordOrderEvent(db, {
        orderId: change.orderId, eventType: change.to === 'cancelled' ? 'order_cancelled' : 'order_refunded', now: change.now,
        change: (document) => withAdjustment(document, {
          id: `adj_${id}`, type: change.to === 'cancelled' ? 'cancellation' : 'refund', occurred_at: occurredAt, status: 'completed',
          line_items: allLines(document), amount: change.totalAmount,
        }),
      });
      // A refunded order's money goes back through the processor that took it, once this transaction commits.
      if (change.to === 'refunded') {
        await db.insert(ucpPaymentActions).values({
          orderId: change.orderId, action: 'refund', amount: change.totalAmount, nextAttemptAt: change.now,
          giveUpAt: new Date(change.now.getTime() + WEBHOOK_RETRY_WINDOW_MS), createdAt: change.now,
        });
      }
      return;
    default:
      return;
  }
}

/**
 * A refund through orders.refund, whole or part: an adjustment over the amount it gave back. The processor has
 * already paid it back inside the refund (payments/refund-seam.ts), so no payment action is queued.
 */
async function feedRefund(db: Queryable, refund: { orderId: string; amount: number; now: Date }): Promise<void> {
  await recordOrderEvent(db, {
    orderId: refund.orderId, eventType: 'order_refunded', now: refund.now,
    change: (document) => withAdjustment(document, {
      id: `adj_${randomUUID()}`, type: 'refund', occurred_at: refund.now.toISOString(), status: 'completed', amount: refund.amount,
    }),
  });
}

/**
 * Subscribes the feed to commerce's order events (composition does this only while UCP is on): a UCP order's
 * placement and status moves reach its document and its platform; other orders are passed over unread.
 */
export function feedOrderEvents(events: OrderEventHub): void {
  events.subscribe(async (db, event) => {
    if (event.channel !== 'ucp') return;
    if (event.type === 'order_placed') {
      await recordOrderEvent(db, { orderId: event.orderId, eventType: 'order_placed', now: event.at });
      return;
    }
    if (event.type === 'order_refunded') {
      await feedRefund(db, { orderId: event.orderId, amount: event.amount, now: event.at });
      return;
    }
    await feedStatusChange(db, { orderId: event.orderId, to: event.to, totalAmount: event.totalAmount, shipment: event.shipment, now: event.at });
  });
}
