import { randomUUID } from 'node:crypto';
import { itemView, lineTotals, totalsOf } from './checkout-view.ts';
import type { Pricing } from './checkout-view.ts';

/**
 * The UCP order an order placed through UCP starts as (order.json, 2026-01-11's shape with the currency beside it;
 * ucp/checkout/shapes.ts adds the `ucp` block per version): its lines, one shipping expectation to the
 * selected destination described by the option's title, no events yet, and the checkout's totals.
 */
export function orderDocument(orderId: string, checkoutId: string, permalink: string, pricing: Pricing, currency: string): Record<string, unknown> {
  const shipping = pricing.shipping;
  const lineRefs = pricing.lines.map((line) => ({ id: line.id, quantity: line.quantity }));
  const { id: _destinationId, ...destination } = shipping?.destination ?? { id: '' };
  return {
    id: orderId,
    checkout_id: checkoutId,
    permalink_url: permalink,
    line_items: pricing.lines.map((line) => ({
      id: line.id,
      item: itemView(line),
      quantity: { total: line.quantity, fulfilled: 0 },
      totals: lineTotals(line),
      status: 'processing',
    })),
    fulfillment: {
      expectations: shipping ? [{
        id: `exp_${randomUUID()}`,
        line_items: lineRefs,
        method_type: 'shipping',
        destination,
        description: shipping.option.title,
      }] : [],
      events: [],
    },
    adjustments: [],
    currency,
    totals: totalsOf(pricing, shipping !== null),
  };
}
