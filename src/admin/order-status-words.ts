import type { OrderStatus } from '../domain/order-status.ts';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';

/** Every order status as an owner says it; a Record over all statuses, so a new one cannot be left out. */
const WORDS: Readonly<Record<OrderStatus, string>> = {
  pending_payment: 'Awaiting payment',
  pending: 'Pending',
  paid: 'Paid',
  flagged_review: 'Flagged for review',
  shipped: 'Shipped',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  partial_refund: 'Partly refunded',
  disputed: 'Disputed',
  processing: 'Processing',
  delivered: 'Delivered',
  completed: 'Completed',
};

/** The console's one way to name an order status in words. */
export function statusWords(status: OrderStatus): string {
  return WORDS[status];
}

/** The status in words, with the code the tools use in its tooltip (for a person who talks to an agent or the API). */
export function statusLabel(status: OrderStatus): Html {
  return html`<span class="status" title="${status}">${statusWords(status)}</span>`;
}
