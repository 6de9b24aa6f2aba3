import { unusableReason } from '../commerce/discounts.ts';
import type { DiscountRow } from '../commerce/discounts.ts';
import { normalizeCode } from '../schema/discount.ts';
import type { Settings } from '../shop/settings.ts';
import type { Promotion, ShippingRate } from './catalog.ts';

export type AppliedDiscount = { code: string; title: string; amount: number; priority: number };
export type Warning = { type: 'warning'; code: string; path: string; content: string };

/** UCP's words for why a code does not apply (discount.md, "Rejected Codes"). */
function rejectionCode(reason: ReturnType<typeof unusableReason>): string {
  return reason === 'expired' ? 'discount_code_expired' : 'discount_code_invalid';
}

function rejection(reason: NonNullable<ReturnType<typeof unusableReason>>, code: string): string {
  switch (reason) {
    case 'unknown_code':
      return `Code '${code}' is not a valid discount code`;
    case 'inactive':
      return `Code '${code}' is not active`;
    case 'expired':
      return `Code '${code}' has expired`;
    case 'usage_limit_reached':
      return `Code '${code}' has reached its usage limit`;
  }
}

/**
 * The codes in the order sent, each on the merchandise amount the ones before it left (a percentage floored),
 * never below zero. A code that cannot be used, or is sent twice, is a warning and takes nothing.
 */
export function applyDiscounts(codes: readonly string[], merchandise: number, rows: ReadonlyMap<string, DiscountRow>, now: Date) {
  const applied: AppliedDiscount[] = [];
  const warnings: Warning[] = [];
  const seen = new Set<string>();
  let remaining = merchandise;
  codes.forEach((sent, index) => {
    const code = normalizeCode(sent);
    const path = `$.discounts.codes[${index}]`;
    if (seen.has(code)) {
      warnings.push({ type: 'warning', code: 'discount_code_already_applied', path, content: `Code '${code}' is already applied` });
      return;
    }
    seen.add(code);
    const row = rows.get(code);
    const reason = unusableReason(row, now);
    if (reason || !row) {
      warnings.push({ type: 'warning', code: rejectionCode(reason), path, content: rejection(reason ?? 'unknown_code', code) });
      return;
    }
    const amount = Math.min(remaining, row.type === 'percent' ? Math.floor((remaining * row.value) / 100) : row.value);
    remaining -= amount;
    applied.push({ code: row.code, title: row.title ?? row.code, amount, priority: applied.length + 1 });
  });
  return { applied, warnings, discount: merchandise - remaining };
}

export type FulfillmentOption = {
  id: string;
  title: string;
  totals: Array<{ type: 'subtotal' | 'total'; amount: number }>;
};

function option(id: string, title: string, amount: number): FulfillmentOption {
  return { id, title, totals: [{ type: 'subtotal', amount }, { type: 'total', amount }] };
}

/** True when a free-shipping promotion covers the order: its minimum reached after discounts, or an eligible item. */
export function shipsFree(promotions: readonly Promotion[], afterDiscounts: number, itemIds: readonly string[]): boolean {
  return promotions.some((promotion) => (promotion.minSubtotal !== null && afterDiscounts >= promotion.minSubtotal)
    || promotion.eligibleSkus.some((sku) => itemIds.includes(sku)));
}

/**
 * The options for a destination country, as the samples' fulfillment service builds them: one rate per service
 * level (the country's own beating `default`), cheapest first; free shipping makes `standard` cost 0.
 */
export function optionsFromRates(rates: readonly ShippingRate[], country: string, free: boolean): FulfillmentOption[] {
  const byLevel = new Map<string, ShippingRate>();
  for (const rate of rates) {
    const current = byLevel.get(rate.serviceLevel);
    if (!current || (current.countryCode === 'default' && rate.countryCode === country)) byLevel.set(rate.serviceLevel, rate);
  }
  return [...byLevel.values()]
    .sort((a, b) => a.price - b.price || (a.id < b.id ? -1 : 1))
    .map((rate) => (free && rate.serviceLevel === 'standard' ? option(rate.id, `${rate.title} (Free)`, 0) : option(rate.id, rate.title, rate.price)));
}

/** A shop without shipping rates ships at today's flat price, free from its threshold on (the shop settings). */
export function optionFromSettings(settings: Pick<Settings, 'shippingDkk' | 'freeShippingThresholdDkk'>, afterDiscounts: number, free: boolean): FulfillmentOption {
  return free || afterDiscounts >= settings.freeShippingThresholdDkk
    ? option('standard', 'Standard Shipping (Free)', 0)
    : option('standard', 'Standard Shipping', settings.shippingDkk);
}
