import { z } from 'zod';
import { Id, NonNegativeInt, Oere, SlugRef, money } from './common.ts';

const Amount = Oere;

/** Per line; 0 is accepted only by cart.set_item, where it removes the line. */
export const MAX_QUANTITY = 999;
export const Quantity = z.int().min(1).max(MAX_QUANTITY).meta({ description: 'Units, 1..999.' });

export const CartLineInput = z.strictObject({
  slug: SlugRef.meta({ description: 'Product slug.' }),
  quantity: Quantity,
});

/** The cart (docs/behaviour.md#pricing-a-cart), computed from the current product prices and shop settings. */
export const Cart = z.strictObject({
  cartId: Id,
  items: z.array(z.strictObject({
    slug: z.string(),
    productName: z.string(),
    unitPriceDkk: money(Amount, 'the current unit price, VAT included.'),
    quantity: NonNegativeInt,
    lineTotalDkk: Amount,
  })),
  subtotalDkk: Amount,
  discountCode: z.string().nullable(),
  discountDkk: Amount,
  shippingDkk: Amount,
  totalDkk: Amount,
});
export type Cart = z.infer<typeof Cart>;
