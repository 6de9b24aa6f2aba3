import { ORDER_STATUSES } from './order-status.ts';
import type { OrderStatus } from './order-status.ts';

/**
 * Whether an order in this status is a sale that counts as revenue (analytics.summary, customers.*):
 * the customer has paid or been invoiced and the order has not been called off or refunded in full.
 * An exhaustive switch, so a new status must be decided here. A partial_refund order counts, net of its
 * refunds: revenue sums take each order's total less what orders.refund gave back.
 */
export function countsAsRevenue(status: OrderStatus): boolean {
  switch (status) {
    case 'pending': // an invoice order: the sale is made, payment follows the invoice
    case 'paid':
    case 'processing':
    case 'shipped':
    case 'delivered':
    case 'completed':
    case 'partial_refund':
    case 'disputed': // counted until the dispute is lost (→ refunded)
      return true;
    case 'pending_payment': // the card payment has not gone through (yet)
    case 'flagged_review': // held until the operator decides
    case 'cancelled':
    case 'refunded':
      return false;
  }
}

export const REVENUE_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter(countsAsRevenue);

/** Cancelling an order gives its discount use back; in every other status the use stands. */
export function usesDiscount(status: OrderStatus): boolean {
  return status !== 'cancelled';
}
