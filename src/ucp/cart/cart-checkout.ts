import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { readSettings } from '../../shop/settings.ts';
import { cartForCheckout, openCheckoutOf } from './cart-sessions.ts';
import { variantIdOf } from '../catalog/catalog-product.ts';
import { renderCheckout } from '../checkout/checkout-view.ts';
import { invalidRequest, notFound } from '../core/errors.ts';
import { Buyer, CreateCheckout } from '../checkout/schemas.ts';
import { createSessionOnCart } from '../checkout/sessions.ts';
import type { WriteSettings } from '../checkout/sessions.ts';
import { Outcome } from '../catalog/shopping-answer.ts';

/**
 * Create Checkout with `cart_id` (cart.json#/$defs/checkout): the cart's lines and buyer start the session and
 * what the request says of them is ignored; the rest (fulfillment, payment, discounts) is read as for any
 * checkout. The session takes over the cart's own Butik cart, so a line the checkout changes is the cart's too.
 */
export const CheckoutFromCart = CreateCheckout.omit({ line_items: true, currency: true }).extend({
  cart_id: z.string().min(1).max(200),
  currency: CreateCheckout.shape.currency.optional(),
});
export type CheckoutFromCart = z.infer<typeof CheckoutFromCart>;

/**
 * One open checkout per cart: while the one made from this cart is open, converting again answers it. The cart
 * row is locked first, so two conversions at once make one session.
 */
export async function checkoutFromCart(db: Db, request: CheckoutFromCart, platform: string, settings: WriteSettings) {
  return db.transaction(async (tx) => {
    let held;
    try {
      held = await cartForCheckout(tx, request.cart_id, settings);
    } catch (error) {
      if (error instanceof Outcome) throw notFound('Cart');
      throw error;
    }
    const open = await openCheckoutOf(tx, request.cart_id, settings.now);
    if (open) return (await renderCheckout(tx, open, settings)).view;
    if (held.lines.length === 0) throw invalidRequest(`Cart ${request.cart_id} is empty; add items before checking it out`);
    const cartBuyer = held.cart.buyer ? Buyer.safeParse(held.cart.buyer) : undefined;
    const { cart_id: cartId, ...rest } = request;
    const buyer = cartBuyer?.success ? cartBuyer.data : rest.buyer;
    return createSessionOnCart(tx, cartId, {
      ...rest,
      ...(buyer ? { buyer } : {}),
      currency: rest.currency ?? (await readSettings(tx)).currency,
      line_items: held.lines.map(({ record, quantity }) => ({ id: record.id, item: { id: variantIdOf(record) }, quantity })),
    }, platform, settings);
  });
}
