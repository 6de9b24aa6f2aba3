import { z } from 'zod';
import { MONEY_UNIT, NonNegativeInt, Timestamp, money } from './common.ts';

/** Shipping rates and free-shipping promotions as the shipping.* tools take and answer them (docs/behaviour.md#shipping). */

/** ISO 3166-1 alpha-2, as shipping rates name countries. */
export const CountryCode = z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code in capitals, e.g. DK')
  .meta({ description: 'Country, ISO 3166-1 alpha-2 (e.g. DK).', examples: ['DK'] });

/** The owner's own id of a rate or promotion: what an import names it by, and what UCP shows as an option id. */
export const ShippingId = z.string().trim().min(1).max(100);

const Text = (max: number) => z.string().trim().min(1).max(max);

/** The highest rate the tools take, as the flat price's bound (shop/settings.ts): 10.000,00 kr guards against a kroner/øre mix-up. */
const MAX_RATE = 1_000_000;
const Price = money(NonNegativeInt.max(MAX_RATE), `the rate, VAT included, 0..${MAX_RATE}.`, 4900);

export const ShippingRateFields = {
  id: ShippingId.meta({ description: 'The rate\'s id: a new one creates the rate, an existing one replaces it.', examples: ['dk-standard'] }),
  title: Text(200).meta({ description: 'What the buyer sees, e.g. "PostNord, 1-3 days".', examples: ['PostNord'] }),
  serviceLevel: Text(50).toLowerCase().meta({
    description: 'The kind of shipping, e.g. standard or express; a destination gets one option per level, and free-shipping promotions make standard free.',
    examples: ['standard'],
  }),
  countryCode: z.union([z.literal('default'), CountryCode]).meta({
    description: 'The destination country (ISO 3166-1 alpha-2), or "default" for every country without its own rate of the level.',
    examples: ['DK'],
  }),
  price: Price,
};

export const ShippingRateRecord = z.strictObject({
  id: z.string(),
  title: z.string(),
  serviceLevel: z.string(),
  countryCode: z.string(),
  price: money(NonNegativeInt, 'the rate, VAT included.', 4900),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ShippingRateRecord = z.infer<typeof ShippingRateRecord>;

export const PromotionFields = {
  id: ShippingId.meta({ description: 'The promotion\'s id: a new one creates it, an existing one replaces it.', examples: ['free-over-500'] }),
  description: Text(500).meta({ description: 'What the promotion is, for people.', examples: ['Fri fragt over 500 kr.'] }),
  minSubtotal: NonNegativeInt.nullable().default(null).meta({
    description: `${MONEY_UNIT}: orders whose subtotal after discounts reaches it ship free; null or left out: no minimum.`,
    examples: [50000],
  }),
  eligibleSkus: z.array(Text(100)).max(500).default([])
    .meta({ description: 'Products that ship free in any order, by SKU (or slug for a product without one).', examples: [['aviator-classic']] }),
};

export const PromotionRecord = z.strictObject({
  id: z.string(),
  type: z.literal('free_shipping'),
  description: z.string(),
  minSubtotal: money(NonNegativeInt, 'the minimum after discounts, or null.', 50000).nullable(),
  eligibleSkus: z.array(z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type PromotionRecord = z.infer<typeof PromotionRecord>;
