/**
 * Money maths of carts and orders, CONTRACT §9. Every amount is integer øre, VAT included.
 * Pure functions: callers bring current prices, the discount terms and the shop's shipping settings.
 */

export type PriceLine = { unitPriceDkk: number; quantity: number };
export type DiscountTerms = { type: 'percent' | 'fixed'; value: number };
export type ShippingTerms = { shippingDkk: number; freeShippingThresholdDkk: number };

export type Totals = {
  subtotalDkk: number;
  discountDkk: number;
  shippingDkk: number;
  totalDkk: number;
};

export function lineTotal(line: PriceLine): number {
  return line.unitPriceDkk * line.quantity;
}

export function subtotalOf(lines: readonly PriceLine[]): number {
  return lines.reduce((sum, line) => sum + lineTotal(line), 0);
}

/** Percent: floor(subtotal × value / 100), in BigInt so large subtotals stay exact; fixed: min(value, subtotal). */
export function discountAmount(subtotalDkk: number, discount: DiscountTerms | null): number {
  if (!discount) return 0;
  switch (discount.type) {
    case 'percent':
      return Number((BigInt(subtotalDkk) * BigInt(discount.value)) / 100n);
    case 'fixed':
      return Math.min(discount.value, subtotalDkk);
  }
}

/** Shipping is charged unless subtotal − discount reaches the free-shipping threshold. */
export function shippingAmount(subtotalDkk: number, discountDkk: number, terms: ShippingTerms): number {
  return subtotalDkk - discountDkk >= terms.freeShippingThresholdDkk ? 0 : terms.shippingDkk;
}

export function priceLines(lines: readonly PriceLine[], discount: DiscountTerms | null, terms: ShippingTerms): Totals {
  const subtotalDkk = subtotalOf(lines);
  const discountDkk = discountAmount(subtotalDkk, discount);
  const shippingDkk = shippingAmount(subtotalDkk, discountDkk, terms);
  return { subtotalDkk, discountDkk, shippingDkk, totalDkk: subtotalDkk - discountDkk + shippingDkk };
}

/** The VAT contained in a VAT-inclusive total at 25 %: total / 5, rounded to whole øre. */
export function vatOf(totalDkk: number): number {
  return Math.round(totalDkk / 5);
}

/** True when every amount fits the SPEC's integer range (2^53 − 1). */
export function totalsAreSafe(totals: Totals): boolean {
  return Object.values(totals).every((amount) => Number.isSafeInteger(amount));
}
