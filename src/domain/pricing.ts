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
 * The options for a destination country (or `default`) from the shop's rates: one per service level (the country's
 * own rate beating `default`; other countries' rates ignored), cheapest first; free shipping makes `standard` cost 0.
 */
export function optionsFromRates(rates: readonly ShippingRate[], country: string, free: boolean): ShippingOption[] {
  const byLevel = new Map<string, ShippingRate>();
  for (const rate of rates) {
    if (rate.countryCode !== country && rate.countryCode !== 'default') continue;
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

/** What a shop charges for shipping: its flat settings, its rates (none: it ships flat) and its promotions. */
export type ShippingBook = {
  terms: ShippingTerms;
  /**
   * The shop's rates: all of them, or at least those of the destination and `default` plus any one more when the
   * shop has others, since an empty list is what says the shop ships flat.
   */
  rates: readonly ShippingRate[];
  promotions: readonly FreeShippingPromotion[];
};

/** A cart on its way to shipping: its subtotal after discounts, its items, and where and how it ships when known. */
export type ShippingRequest = {
  afterDiscounts: number;
  /** The items' ids as promotions name them (SKU, slug). */
  itemIds: readonly string[];
  /** ISO 3166-1 alpha-2; without one, the shop's default rule (its `default` rates, else flat). */
  country?: string | undefined;
  /** The chosen option's id: one option per service level, so it names the service level. Without one, the cheapest. */
  chosenOptionId?: string | undefined;
};

/** The options a cart can ship with and the one charged: null when no option fits (or the chosen one is not offered). */
export type ShippingQuote = { options: ShippingOption[]; charged: ShippingOption | null };

/**
 * The one shipping rule of every door (docs/behaviour.md#shipping): a shop with rates ships at the rates of the
 * destination (else `default`), one with none at its flat price; a promotion or the flat threshold makes standard
 * shipping free. A country the rates miss gets no option, so nothing is charged and the caller refuses.
 */
export function priceShipping(request: ShippingRequest, book: ShippingBook): ShippingQuote {
  const free = shipsFree(book.promotions, request.afterDiscounts, request.itemIds);
  const options = book.rates.length === 0
    ? [optionFromSettings(book.terms, request.afterDiscounts, free)]
    : optionsFromRates(book.rates, request.country ?? 'default', free);
  const charged = request.chosenOptionId === undefined
    ? options[0] ?? null
    : options.find((option) => option.id === request.chosenOptionId) ?? null;
  return { options, charged };
}

/** A line of a cart priced for an order: its price and quantity, and the ids promotions know its item by (none: no item promotion applies). */
export type ShippedLine = PriceLine & { itemIds?: readonly string[] };

/**
 * A cart's totals and its shipping quote: subtotal, discount, then shipping on what the discount left. The totals
 * charge the quote's option, 0 when none fits (the caller refuses such an order).
 */
export function priceLines(
  lines: readonly ShippedLine[],
  discount: DiscountTerms | null,
  book: ShippingBook,
  destination: Pick<ShippingRequest, 'country' | 'chosenOptionId'> = {},
): { totals: Totals; shipping: ShippingQuote } {
  const subtotalDkk = subtotalOf(lines);
  const discountDkk = discountAmount(subtotalDkk, discount);
  const afterDiscounts = subtotalDkk - discountDkk;
  const shipping = priceShipping({ afterDiscounts, itemIds: lines.flatMap((line) => line.itemIds ?? []), ...destination }, book);
  const shippingDkk = shipping.charged?.amount ?? 0;
  return { totals: { subtotalDkk, discountDkk, shippingDkk, totalDkk: afterDiscounts + shippingDkk }, shipping };
}

/** The VAT contained in a VAT-inclusive total at 25 %: total / 5, rounded to whole minor units. */
export function vatOf(totalDkk: number): number {
  return Math.round(totalDkk / 5);
}

/** True when every amount fits the largest exact integer (2^53 − 1). */
export function totalsAreSafe(totals: Totals): boolean {
  return Object.values(totals).every((amount) => Number.isSafeInteger(amount));
}
