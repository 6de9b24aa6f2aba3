import { describe, expect, it } from 'vitest';
import {
  discountAmount, optionFromSettings, optionsFromRates, priceLines, priceShipping, shipsFree, stackedDiscounts, totalsAreSafe, vatOf,
} from '../../src/domain/pricing.ts';

const shop = { shippingDkk: 4900, freeShippingThresholdDkk: 50000 };
/** A shop without rates or promotions: it ships at its flat settings. */
const flat = { terms: shop, rates: [], promotions: [] };
const shippingAmount = (subtotal: number, discount: number) => priceShipping({ afterDiscounts: subtotal - discount, itemIds: [] }, flat).charged?.amount;

describe('pricing', () => {
  it('rounds a percent discount down to whole øre', () => {
    expect(discountAmount(9999, { type: 'percent', value: 10 })).toBe(999);
    expect(discountAmount(129900, { type: 'percent', value: 25 })).toBe(32475);
    expect(discountAmount(1, { type: 'percent', value: 99 })).toBe(0);
    expect(discountAmount(5000, { type: 'percent', value: 100 })).toBe(5000);
  });

  it('computes a percent discount exactly even near the integer maximum', () => {
    expect(discountAmount(9007199254740991, { type: 'percent', value: 33 })).toBe(2972375754064527);
  });

  it('caps a fixed discount at the subtotal', () => {
    expect(discountAmount(30000, { type: 'fixed', value: 5000 })).toBe(5000);
    expect(discountAmount(3000, { type: 'fixed', value: 5000 })).toBe(3000);
  });

  it('gives no discount without a code', () => {
    expect(discountAmount(30000, null)).toBe(0);
  });

  it('charges shipping below the threshold and ships free at or above it, after the discount', () => {
    expect(shippingAmount(49999, 0)).toBe(4900);
    expect(shippingAmount(50000, 0)).toBe(0);
    expect(shippingAmount(60000, 10001)).toBe(4900);
    expect(shippingAmount(60000, 10000)).toBe(0);
  });

  it('charges the standard shipping on an empty cart, as the rule has no exception', () => {
    expect(priceLines([], null, flat).totals).toEqual({ subtotalDkk: 0, discountDkk: 0, shippingDkk: 4900, totalDkk: 4900 });
  });

  it('prices lines: subtotal − discount + shipping', () => {
    const lines = [{ unitPriceDkk: 12000, quantity: 2 }, { unitPriceDkk: 7900, quantity: 1 }];
    expect(priceLines(lines, { type: 'percent', value: 10 }, flat).totals)
      .toEqual({ subtotalDkk: 31900, discountDkk: 3190, shippingDkk: 4900, totalDkk: 33610 });
    expect(priceLines(lines, { type: 'fixed', value: 2500 }, { ...flat, terms: { shippingDkk: 3900, freeShippingThresholdDkk: 0 } }).totals)
      .toEqual({ subtotalDkk: 31900, discountDkk: 2500, shippingDkk: 0, totalDkk: 29400 });
  });

  it('takes VAT as round(total / 5)', () => {
    expect(vatOf(134800)).toBe(26960);
    expect(vatOf(33612)).toBe(6722);
    expect(vatOf(33613)).toBe(6723);
    expect(vatOf(0)).toBe(0);
  });

  it('flags totals beyond the integer maximum', () => {
    expect(totalsAreSafe(priceLines([{ unitPriceDkk: 9007199254740991, quantity: 1 }], null, flat).totals)).toBe(true);
    expect(totalsAreSafe(priceLines([{ unitPriceDkk: 9007199254740991, quantity: 2 }], null, flat).totals)).toBe(false);
  });

  it('stacks codes in the order given, each on what the ones before left, exactly near the integer maximum', () => {
    expect(stackedDiscounts(7000, [{ type: 'percent', value: 10 }, { type: 'percent', value: 20 }, { type: 'fixed', value: 500 }]))
      .toEqual({ amounts: [700, 1260, 500], total: 2460 });
    expect(stackedDiscounts(1000, [{ type: 'fixed', value: 800 }, { type: 'fixed', value: 800 }])).toEqual({ amounts: [800, 200], total: 1000 });
    expect(stackedDiscounts(9007199254740991, [{ type: 'percent', value: 33 }]).total).toBe(discountAmount(9007199254740991, { type: 'percent', value: 33 }));
    expect(stackedDiscounts(5000, [])).toEqual({ amounts: [], total: 0 });
  });

  it('ships free under a promotion reached after discounts or naming an item, and prices flat shipping like the cart', () => {
    const promotions = [{ minSubtotal: 10000, eligibleSkus: [] }, { minSubtotal: null, eligibleSkus: ['roses'] }];
    expect(shipsFree(promotions, 10000, ['tulips'])).toBe(true);
    expect(shipsFree(promotions, 9999, ['tulips'])).toBe(false);
    expect(shipsFree(promotions, 1, ['roses'])).toBe(true);
    expect(optionFromSettings(shop, 49999, false)).toEqual({ id: 'standard', title: 'Standard Shipping', amount: shippingAmount(49999, 0) });
    expect(optionFromSettings(shop, 50000, false).amount).toBe(0);
    expect(optionFromSettings(shop, 1, true)).toEqual({ id: 'standard', title: 'Standard Shipping (Free)', amount: 0 });
  });

  it('offers one rate per service level, the country\'s own beating default, cheapest first', () => {
    const rates = [
      { id: 'std', title: 'Standard', serviceLevel: 'standard', countryCode: 'default', price: 500 },
      { id: 'exp', title: 'Express', serviceLevel: 'express', countryCode: 'default', price: 2000 },
      { id: 'exp-us', title: 'Express (US)', serviceLevel: 'express', countryCode: 'US', price: 1500 },
    ];
    expect(optionsFromRates(rates, 'US', false)).toEqual([
      { id: 'std', title: 'Standard', amount: 500 }, { id: 'exp-us', title: 'Express (US)', amount: 1500 },
    ]);
    expect(optionsFromRates(rates, 'DK', true)).toEqual([
      { id: 'std', title: 'Standard (Free)', amount: 0 }, { id: 'exp', title: 'Express', amount: 2000 },
    ]);
  });

  it('prices shipping by one rule: the destination\'s rates, else default ones, else flat; the cheapest unless one is chosen', () => {
    const rates = [
      { id: 'std', title: 'Standard', serviceLevel: 'standard', countryCode: 'default', price: 500 },
      { id: 'exp', title: 'Express', serviceLevel: 'express', countryCode: 'default', price: 2000 },
      { id: 'exp-us', title: 'Express (US)', serviceLevel: 'express', countryCode: 'US', price: 1500 },
    ];
    const book = { terms: shop, rates, promotions: [{ minSubtotal: null, eligibleSkus: ['roses'] }] };
    expect(priceShipping({ afterDiscounts: 100, itemIds: [] }, book))
      .toEqual({ options: [{ id: 'std', title: 'Standard', amount: 500 }, { id: 'exp', title: 'Express', amount: 2000 }], charged: { id: 'std', title: 'Standard', amount: 500 } });
    expect(priceShipping({ afterDiscounts: 100, itemIds: [], country: 'US', chosenOptionId: 'exp-us' }, book).charged)
      .toEqual({ id: 'exp-us', title: 'Express (US)', amount: 1500 });
    expect(priceShipping({ afterDiscounts: 100, itemIds: ['roses'], country: 'DK' }, book).charged)
      .toEqual({ id: 'std', title: 'Standard (Free)', amount: 0 });
    // A chosen option the destination is not offered, and a shop whose rates miss the country: nothing to charge.
    expect(priceShipping({ afterDiscounts: 100, itemIds: [], country: 'DK', chosenOptionId: 'exp-us' }, book).charged).toBeNull();
    const usOnly = { ...book, rates: [rates[2]!] };
    expect(priceShipping({ afterDiscounts: 100, itemIds: [], country: 'DK' }, usOnly)).toEqual({ options: [], charged: null });
    expect(priceShipping({ afterDiscounts: 100, itemIds: [] }, usOnly).charged).toBeNull();
    // Without rates the flat settings ship, free under an item promotion.
    expect(priceShipping({ afterDiscounts: 100, itemIds: ['roses'], country: 'DK' }, { ...book, rates: [] }).charged)
      .toEqual({ id: 'standard', title: 'Standard Shipping (Free)', amount: 0 });
  });

  it('charges the quote\'s option in the totals, after the discount', () => {
    const book = { terms: shop, rates: [{ id: 'dk', title: 'Post', serviceLevel: 'standard', countryCode: 'DK', price: 3900 }], promotions: [] };
    const lines = [{ unitPriceDkk: 10000, quantity: 1, itemIds: ['sku-1'] }];
    expect(priceLines(lines, { type: 'fixed', value: 1000 }, book, { country: 'DK' }).totals)
      .toEqual({ subtotalDkk: 10000, discountDkk: 1000, shippingDkk: 3900, totalDkk: 12900 });
    expect(priceLines(lines, null, book, { country: 'SE' })).toEqual({
      totals: { subtotalDkk: 10000, discountDkk: 0, shippingDkk: 0, totalDkk: 10000 }, shipping: { options: [], charged: null },
    });
  });
});
