import { describe, expect, it } from 'vitest';
import {
  ORDER_STATUSES, ORDER_TRANSITIONS, describeTransitions, isLegalTransition, legalNextStatuses, releasesStockAndDiscount,
  timestampSetBy,
} from '../../src/domain/order-status.ts';

const unpaid = { paid: false };
const paid = { paid: true };

describe('order status machine', () => {
  it('has a row for each of the twelve statuses and only targets known statuses', () => {
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...ORDER_STATUSES].sort());
    expect(ORDER_STATUSES).toHaveLength(12);
    for (const status of ORDER_STATUSES) {
      for (const move of ORDER_TRANSITIONS[status]) expect(ORDER_STATUSES).toContain(move.to);
    }
  });

  it('lists the legal next statuses of the transition table', () => {
    expect(legalNextStatuses('pending_payment')).toEqual(['paid', 'pending', 'flagged_review', 'cancelled']);
    expect(legalNextStatuses('pending')).toEqual(['paid', 'processing', 'flagged_review', 'cancelled']);
    expect(legalNextStatuses('flagged_review')).toEqual(['paid', 'pending', 'processing', 'cancelled', 'refunded']);
    expect(legalNextStatuses('paid')).toEqual(['processing', 'shipped', 'flagged_review', 'partial_refund', 'refunded', 'disputed']);
    expect(legalNextStatuses('processing')).toEqual(['shipped', 'partial_refund', 'refunded', 'disputed', 'cancelled']);
    expect(legalNextStatuses('shipped')).toEqual(['delivered', 'partial_refund', 'refunded', 'disputed']);
    expect(legalNextStatuses('delivered')).toEqual(['completed', 'partial_refund', 'refunded', 'disputed']);
    expect(legalNextStatuses('completed')).toEqual(['partial_refund', 'refunded', 'disputed']);
    expect(legalNextStatuses('partial_refund')).toEqual(['processing', 'shipped', 'delivered', 'completed', 'refunded', 'disputed']);
    expect(legalNextStatuses('disputed')).toEqual(['completed', 'refunded']);
    expect(legalNextStatuses('cancelled')).toEqual([]);
    expect(legalNextStatuses('refunded')).toEqual([]);
  });

  it('allows processing → cancelled only while the order is unpaid', () => {
    expect(isLegalTransition('processing', 'cancelled', unpaid)).toBe(true);
    expect(isLegalTransition('processing', 'cancelled', paid)).toBe(false);
    expect(legalNextStatuses('processing', paid)).not.toContain('cancelled');
  });

  it('rejects the moves the transition table leaves out', () => {
    expect(isLegalTransition('cancelled', 'paid', unpaid)).toBe(false);
    expect(isLegalTransition('pending_payment', 'shipped', unpaid)).toBe(false);
    for (const to of ORDER_STATUSES) expect(isLegalTransition('refunded', to, paid)).toBe(false);
  });

  it('names the timestamp each move sets and the release on cancel', () => {
    expect(timestampSetBy('paid')).toBe('paidAt');
    expect(timestampSetBy('refunded')).toBe('refundedAt');
    expect(timestampSetBy('disputed')).toBe('disputedAt');
    expect(timestampSetBy('shipped')).toBeNull();
    expect(ORDER_STATUSES.filter(releasesStockAndDiscount)).toEqual(['cancelled']);
  });

  it('describes the table for agents from the same data', () => {
    const text = describeTransitions();
    expect(text).toContain('pending_payment → paid, pending, flagged_review, cancelled');
    expect(text).toContain('cancelled (only while unpaid)');
    expect(text).toContain('disputed → completed (dispute won), refunded (dispute lost)');
    expect(text).toContain('cancelled and refunded: terminal.');
  });
});
