import { eq } from 'drizzle-orm';
import { appendAudit } from '../../access/audit-log.ts';
import { placeOrder } from '../../commerce/place-order.ts';
import type { OrderColumns, OrderRow } from '../../commerce/place-order.ts';
import type { OrderEventHub } from '../../context.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { ucpCheckoutSessions, ucpOrders } from '../../db/schema.ts';
import type { Log } from '../../log.ts';
import { callerName } from '../identity/caller.ts';
import { renderCheckout } from './checkout-view.ts';
import type { Pricing, SessionRow } from './checkout-view.ts';
import { invalidRequest, UcpError } from '../core/errors.ts';
import { orderDocument } from './order-document.ts';
import type { PaymentHandlerDeclaration } from '../payments/payment-handlers.ts';
import { processorNamed } from '../payments/processors.ts';
import type { UcpVersion } from '../core/versions.ts';
import type { PaymentProcessor } from '../payments/processors.ts';
import { fullName } from './schemas.ts';
import type { CompleteCheckout } from './schemas.ts';
import { saveShippedAddress } from './saved-addresses.ts';
import { actsFor } from '../identity/linked-buyer.ts';
import { findSession, openSession, requireOpen } from './sessions.ts';
import type { WriteSettings } from './sessions.ts';

export type CompleteSettings = WriteSettings & {
  log: Log;
  platform: string;
  idempotencyKey: string;
  /** The order webhook of the platform's profile, if it names one: order events go there. */
  webhookUrl: string | null;
  /** The app's order-event hub, where the placed order is announced. */
  events: OrderEventHub;
  /** The version the platform negotiated: the order's events are sent to it in this version's shape. */
  version: UcpVersion;
  /** Under the AP2 mandate extension: refuses the completion unless the verified mandate is for the checkout as it stands. */
  bindMandate?: (view: Record<string, unknown>) => void;
};

const NOT_READY = 'Fulfillment address and option must be selected before completion.';

/**
 * Complete: readiness, then authorization with the handler's processor, then one transaction on the path
 * cart.checkout takes (stock, discount uses, order), then capture. Whatever fails after authorization voids it.
 */
export async function completeSession(db: Db, id: string, request: CompleteCheckout, settings: CompleteSettings): Promise<Record<string, unknown>> {
  const session = requireOpen(await findSession(db, id, settings.caller), 'complete', settings.now);
  const { view, pricing } = await renderCheckout(db, session, settings);
  requireReady(pricing);
  // Before any money moves; the transaction below then holds the total to the one authorized, so to the mandated one.
  settings.bindMandate?.(view);
  const handler = settings.handlers.find((candidate) => candidate.id === request.payment_data.handler_id);
  if (!handler) throw invalidRequest(`Unsupported payment handler: ${request.payment_data.handler_id}`);

  const processor = processorNamed(handler.processor);
  const authorization = await processor.authorize({
    amount: pricing.total,
    currency: session.currency,
    instrument: request.payment_data,
    checkoutId: session.id,
    idempotencyKey: `${session.id}:${settings.idempotencyKey}`,
  });
  if (authorization.outcome === 'declined') {
    throw new UcpError(402, 'PAYMENT_FAILED', authorization.message, { severity: 'requires_buyer_input' });
  }
  if (authorization.outcome === 'requires_action') {
    return {
      ...view,
      status: 'requires_escalation',
      continue_url: authorization.continueUrl,
      messages: [{ type: 'error', code: 'payment_requires_action', content: 'The payment needs the buyer to confirm it with the payment provider.', severity: 'requires_buyer_input' }],
    };
  }

  try {
    const completed = await db.transaction((tx) => completeInTransaction(tx, id, pricing.total, { ...settings, handler, reference: authorization.reference, request }));
    await capture(processor, authorization.reference, pricing.total, settings.log);
    return completed;
  } catch (error) {
    await processor.void(authorization.reference).catch((voidError: unknown) => {
      settings.log.error({ err: voidError, checkoutId: id }, 'ucp: voiding an authorization failed; void it at the processor');
    });
    throw error;
  }
}

/** Stock gone since the session was priced is a conflict (409); anything else missing is the platform's to send (400). */
function requireReady(pricing: Pricing): void {
  const [short] = pricing.outOfStock;
  if (short !== undefined) throw outOfStock(short);
  if (!pricing.ready || !pricing.shipping) throw invalidRequest(NOT_READY);
}

const outOfStock = (itemId: string) => new UcpError(409, 'OUT_OF_STOCK', `Item ${itemId} is out of stock`);

async function capture(processor: PaymentProcessor, reference: string, amount: number, log: Log): Promise<void> {
  try {
    await processor.capture(reference, amount);
  } catch (error) {
    // The order stands and is marked paid by its authorization; an operator settles the capture with the processor.
    log.error({ err: error, reference }, 'ucp: capturing a payment failed after the order was placed');
  }
}

type Placement = CompleteSettings & { handler: PaymentHandlerDeclaration; reference: string; request: CompleteCheckout };

/**
 * The order, in one transaction: the session locked first, then commerce's placeOrder (the cart, the product rows
 * by id, the discount rows, the last two right before the commit). The total is priced again in the transaction
 * and must be the one authorized. What is UCP's own rides along: the payment reference, the currency and channel,
 * the frozen session and the UCP order document, written before the order is announced to the order feed.
 */
async function completeInTransaction(tx: Queryable, id: string, authorized: number, placement: Placement): Promise<Record<string, unknown>> {
  const session = await openSession(tx, id, 'complete', placement);
  const now = placement.now;
  const itemIdOf = new Map(session.lineItems.map((line) => [line.productId, line.itemId]));
  let completed: Record<string, unknown> | undefined;
  await placeOrder(tx, {
    cartId: session.cartId,
    now,
    async price() {
      const { view, pricing } = await renderCheckout(tx, session, placement);
      requireReady(pricing);
      if (pricing.total !== authorized) {
        throw new UcpError(409, 'PRICE_CHANGED', `The checkout total changed from ${authorized} to ${pricing.total}; review the checkout and complete it again.`);
      }
      return {
        columns: orderColumns(session, pricing, placement),
        lines: pricing.lines.map((line) => ({ productId: line.productId, productName: line.title, unitPriceDkk: line.price, quantity: line.quantity })),
        totals: { subtotalDkk: pricing.subtotal, discountDkk: pricing.discount, shippingDkk: pricing.shippingAmount, totalDkk: pricing.total },
        discountCodes: pricing.applied.map((applied) => applied.code),
        async record(order) {
          completed = await recordUcpOrder(tx, { order, session, view, pricing }, placement);
        },
      };
    },
    audit: (record) => appendAudit(tx, {
      record,
      actor: placement.caller.actor,
      actorName: callerName(placement.caller, placement.platform),
      channel: 'rest',
      tool: 'ucp.complete_checkout',
      at: now,
    }),
    events: placement.events,
    outOfStock: (productId) => outOfStock(itemIdOf.get(productId) ?? productId),
    discountGone: (code) => new UcpError(409, 'DISCOUNT_UNAVAILABLE', `Discount code ${code} can no longer be used; update the checkout's discounts.`),
  });
  if (!completed) throw new Error('the UCP order was not recorded');
  return completed;
}

/** The session frozen as completed with its order, and the order's UCP document. */
async function recordUcpOrder(
  tx: Queryable,
  placed: { order: OrderRow; session: SessionRow; view: Record<string, unknown>; pricing: Pricing },
  placement: Placement,
): Promise<Record<string, unknown>> {
  const { order, session, pricing } = placed;
  const now = placement.now;
  const permalink = `${placement.baseUrl}/orders/${order.id}`;
  // An ended session has nothing left to hand over: no messages, no continue_url.
  const { messages: _messages, continue_url: _continueUrl, ...rest } = placed.view;
  const frozen = { ...rest, status: 'completed', order: { id: order.id, permalink_url: permalink } };
  // Risk signals and an AP2 mandate stay with the session that was paid, for fraud review; nothing else reads them.
  const { signals, ap2Mandate } = placement.request;
  const kept = signals || ap2Mandate ? { signals: { ...session.signals, ...signals, ...(ap2Mandate ? { ap2_checkout_mandate: ap2Mandate } : {}) } } : {};
  await tx.update(ucpCheckoutSessions).set({ status: 'completed', orderId: order.id, frozen, ...kept, updatedAt: now }).where(eq(ucpCheckoutSessions.id, session.id));
  await tx.insert(ucpOrders).values({
    orderId: order.id, checkoutId: session.id, document: orderDocument(order.id, session.id, permalink, pricing, session.currency),
    webhookUrl: placement.webhookUrl, ucpVersion: placement.version,
    keyId: placement.caller.keyId, buyerId: actsFor(placement.caller, 'dev.ucp.shopping.checkout:manage')?.id ?? null,
    processor: placement.handler.processor, paymentReference: placement.reference, createdAt: now, updatedAt: now,
  });
  // Only a completed order saves the address it ships to, owned by the caller that placed it.
  if (placement.savedAddresses && pricing.shipping) await saveShippedAddress(tx, placement.caller, session.buyer, pricing.shipping.destination);
  return frozen;
}

/** The order's own columns: the buyer and destination of the session, paid by card through the authorization. */
function orderColumns(session: SessionRow, pricing: Pricing, placement: Placement): OrderColumns {
  const shipping = pricing.shipping;
  if (!shipping) throw invalidRequest(NOT_READY);
  const { destination } = shipping;
  const buyer = (session.buyer ?? {}) as { email?: string; phone_number?: string; full_name?: string; first_name?: string; last_name?: string };
  const billing = placement.request.payment_data.billing_address;
  return {
    email: buyer.email ?? '',
    status: 'paid',
    paidAt: placement.now,
    shippingName: fullName(destination) ?? fullName(buyer) ?? '',
    shippingAddress: [destination.street_address, destination.extended_address].filter(Boolean).join(', '),
    shippingZip: destination.postal_code ?? '',
    shippingCity: destination.address_locality ?? '',
    shippingRegion: destination.address_region ?? null,
    shippingCountry: destination.address_country ?? null,
    billingName: fullName(billing) ?? null,
    billingAddress: billing?.street_address ?? null,
    billingZip: billing?.postal_code ?? null,
    billingCity: billing?.address_locality ?? null,
    billingCountry: billing?.address_country ?? null,
    phoneNumber: buyer.phone_number ?? destination.phone_number ?? null,
    // A session without a platform was started by a person on the shop's own Buy button (ucp/handoff.ts).
    isAiGenerated: placement.platform !== '',
    aiAgentSource: placement.platform !== '' ? callerName(placement.caller, placement.platform) : null,
    paymentMethod: 'card',
    processorPaymentIntentId: placement.reference,
    currency: session.currency,
    fxRate: 1,
    channel: 'ucp',
    ucpCheckoutId: session.id,
    createdAt: placement.now,
    updatedAt: placement.now,
  };
}
