/** The twelve order statuses (docs/behaviour.md#order-status-transitions). */
export const ORDER_STATUSES = [
  'pending_payment', 'pending', 'paid', 'flagged_review', 'shipped', 'cancelled',
  'refunded', 'partial_refund', 'disputed', 'processing', 'delivered', 'completed',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

type Transition = {
  to: OrderStatus;
  /** `processing → cancelled` only while the order has not been paid. */
  onlyWhileUnpaid?: true;
  /** Shown to agents next to the target, e.g. "dispute won". */
  note?: string;
};

/**
 * The operator state machine of `orders.update_status`, exactly docs/behaviour.md#order-status-transitions. Anything not listed is
 * illegal. Typed as a Record over every status, so a new status cannot be forgotten here.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly Transition[]>> = {
  pending_payment: [{ to: 'paid' }, { to: 'pending' }, { to: 'flagged_review' }, { to: 'cancelled' }],
  pending: [{ to: 'paid' }, { to: 'processing' }, { to: 'flagged_review' }, { to: 'cancelled' }],
  flagged_review: [{ to: 'paid' }, { to: 'pending' }, { to: 'processing' }, { to: 'cancelled' }, { to: 'refunded' }],
  paid: [
    { to: 'processing' }, { to: 'shipped' }, { to: 'flagged_review' }, { to: 'partial_refund' }, { to: 'refunded' },
    { to: 'disputed' },
  ],
  processing: [
    { to: 'shipped' }, { to: 'partial_refund' }, { to: 'refunded' }, { to: 'disputed' },
    { to: 'cancelled', onlyWhileUnpaid: true, note: 'only while unpaid' },
  ],
  shipped: [{ to: 'delivered' }, { to: 'partial_refund' }, { to: 'refunded' }, { to: 'disputed' }],
  delivered: [{ to: 'completed' }, { to: 'partial_refund' }, { to: 'refunded' }, { to: 'disputed' }],
  completed: [{ to: 'partial_refund' }, { to: 'refunded' }, { to: 'disputed' }],
  partial_refund: [
    { to: 'processing' }, { to: 'shipped' }, { to: 'delivered' }, { to: 'completed' }, { to: 'refunded' },
    { to: 'disputed' },
  ],
  disputed: [{ to: 'completed', note: 'dispute won' }, { to: 'refunded', note: 'dispute lost' }],
  cancelled: [],
  refunded: [],
};

/** What the table's conditions depend on. */
export type OrderFacts = { paid: boolean };

/**
 * The statuses an order may move to from `from`. Given the order's facts, conditional moves are
 * included only when their condition holds; without facts, every move the table lists is returned.
 */
export function legalNextStatuses(from: OrderStatus, facts?: OrderFacts): OrderStatus[] {
  return ORDER_TRANSITIONS[from]
    .filter((transition) => !(transition.onlyWhileUnpaid && facts?.paid === true))
    .map((transition) => transition.to);
}

export function isLegalTransition(from: OrderStatus, to: OrderStatus, facts: OrderFacts): boolean {
  return legalNextStatuses(from, facts).includes(to);
}

/** The order timestamp a move sets (docs/behaviour.md#order-status-transitions), or null. */
export function timestampSetBy(to: OrderStatus): 'paidAt' | 'refundedAt' | 'disputedAt' | null {
  switch (to) {
    case 'paid':
      return 'paidAt';
    case 'refunded':
      return 'refundedAt';
    case 'disputed':
      return 'disputedAt';
    case 'pending_payment':
    case 'pending':
    case 'flagged_review':
    case 'shipped':
    case 'cancelled':
    case 'partial_refund':
    case 'processing':
    case 'delivered':
    case 'completed':
      return null;
  }
}

/** A cancelled order puts its items back in stock and gives back its discount use. */
export function releasesStockAndDiscount(to: OrderStatus): boolean {
  return to === 'cancelled';
}

/** The transition table as one line of text for tool descriptions, generated so it cannot drift. */
export function describeTransitions(): string {
  const terminal = ORDER_STATUSES.filter((status) => ORDER_TRANSITIONS[status].length === 0);
  const moves = ORDER_STATUSES.filter((status) => ORDER_TRANSITIONS[status].length > 0).map((status) => {
    const targets = ORDER_TRANSITIONS[status].map((t) => (t.note ? `${t.to} (${t.note})` : t.to));
    return `${status} → ${targets.join(', ')}`;
  });
  return `${moves.join('; ')}; ${terminal.join(' and ')}: terminal.`;
}
