/**
 * Money maths of carts, UCP checkouts and orders: one set of pure functions, so the cart tools and the UCP
 * checkout charge alike. Every amount is an integer in the shop currency's minor unit, VAT included; a percent
 * is taken in BigInt, so large amounts stay exact. Callers bring current prices, the discount terms, the shop's
 * shipping settings and, where they have them, shipping rates and free-shipping promotions.
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

/** Percent: floor(amount × value / 100), exact in BigInt; fixed: min(value, amount). */
export function discountAmount(amount: number, discount: DiscountTerms | null): number {
  if (!discount) return 0;
  switch (discount.type) {
    case 'percent':
      return Number((BigInt(amount) * BigInt(discount.value)) / 100n);
    case 'fixed':
      return Math.min(discount.value, amount);
  }
}

/**
 * Several codes on one amount, in the order given: each takes its share of what the ones before left, so the
 * total never exceeds the amount. One code is simply discountAmount.
 */
export function stackedDiscounts(amount: number, discounts: readonly DiscountTerms[]): { amounts: number[]; total: number } {
  let remaining = amount;
  const amounts = discounts.map((discount) => {
    const taken = discountAmount(remaining, discount);
    remaining -= taken;
    return taken;
  });
  return { amounts, total: amount - remaining };
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

/** A free-shipping promotion: a minimum after discounts, or items (by UCP item id) that ship free. */
export type FreeShippingPromotion = { minSubtotal: number | null; eligibleSkus: readonly string[] };

/** A shipping rate for a country (or `default`) and a service level. */
export type ShippingRate = { id: string; title: string; serviceLevel: string; countryCode: string; price: number };

/** A way to ship an order and its price. */
export type ShippingOption = { id: string; title: string; amount: number };

/** True when a free-shipping promotion covers the order: its minimum reached after discounts, or an eligible item. */
export function shipsFree(promotions: readonly FreeShippingPromotion[], afterDiscounts: number, itemIds: readonly string[]): boolean {
  return promotions.some((promotion) => (promotion.minSubtotal !== null && afterDiscounts >= promotion.minSubtotal)
    || promotion.eligibleSkus.some((sku) => itemIds.includes(sku)));
}

/**
 * The options for a destination country from the shop's rates: one per service level (the country's own rate
 * beating `default`), cheapest first; free shipping makes `standard` cost 0.
 */
export function optionsFromRates(rates: readonly ShippingRate[], country: string, free: boolean): ShippingOption[] {
  const byLevel = new Map<string, ShippingRate>();
  for (const rate of rates) {
    const current = byLevel.get(rate.serviceLevel);
    if (!current || (current.countryCode === 'default' && rate.countryCode === country)) byLevel.set(rate.serviceLevel, rate);
  }
  return [...byLevel.values()]
    .sort((a, b) => a.price - b.price || (a.id < b.id ? -1 : 1))
    .map((rate) => (free && rate.serviceLevel === 'standard'
      ? { id: rate.id, title: `${rate.title} (Free)`, amount: 0 }
      : { id: rate.id, title: rate.title, amount: rate.price }));
}

/** A shop without shipping rates ships at its flat price, free from its threshold on or under a promotion. */
export function optionFromSettings(terms: ShippingTerms, afterDiscounts: number, free: boolean): ShippingOption {
  return free || afterDiscounts >= terms.freeShippingThresholdDkk
    ? { id: 'standard', title: 'Standard Shipping (Free)', amount: 0 }
    : { id: 'standard', title: 'Standard Shipping', amount: terms.shippingDkk };
}

/** The VAT contained in a VAT-inclusive total at 25 %: total / 5, rounded to whole minor units. */
export function vatOf(totalDkk: number): number {
  return Math.round(totalDkk / 5);
}

/** True when every amount fits the largest exact integer (2^53 − 1). */
export function totalsAreSafe(totals: Totals): boolean {
  return Object.values(totals).every((amount) => Number.isSafeInteger(amount));
}
