import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { carts } from '../db/schema.ts';
import { Cart, CartLineInput, MAX_QUANTITY } from '../schema/cart.ts';
import { Id, SlugRef } from '../schema/common.ts';
import { DiscountCodeRef } from '../schema/discount.ts';
import { CheckoutInput, CheckoutResult } from '../schema/order.ts';
import {
  cartSnapshot, findCart, findProductForCart, insertCart, lockOpenCart, priceCart, renderCart, setCartLine, snapshotOf,
} from '../commerce/carts.ts';
import { checkoutCart } from '../commerce/checkout.ts';
import { findLineProduct, productNotFound } from '../shop/catalog.ts';
import type { ToolContext } from '../context.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';
import { usableDiscount } from '../commerce/discounts.ts';
import { shippingBook } from '../shop/shipping.ts';

/** How every cart answer is priced, said once, on the tool that starts a cart. */
const CART_PRICING = 'Every cart answer is priced from the current product prices, all amounts in øre (1/100 DKK) incl. 25 % VAT: '
  + 'subtotal = Σ unitPrice × quantity; percent discount = floor(subtotal × value / 100), fixed = min(value, subtotal); '
  + 'shipping = the shop\'s default shipping (its default rate, else its flat price, default 4900, free once subtotal − discount '
  + 'reaches the threshold, default 50000, or under a free-shipping promotion), also for an empty cart; '
  + 'total = subtotal − discount + shipping. cart.checkout prices shipping to shipping.country. Stock is checked at checkout.';
/** The other cart tools point to it: the cart tools share one scope, so an agent that sees one sees cart.create. */
const PRICED_AS_CREATED = 'Answers the cart priced from the current product prices as cart.create describes, all amounts in øre '
  + '(1/100 DKK) incl. 25 % VAT. Stock is checked at checkout.';

const DISCOUNT_FAILURE = 'An unknown or unusable code → 422 discount_not_applicable with reason unknown_code, inactive, '
  + 'expired or usage_limit_reached.';

/** Audits a cart write with before/after snapshots and answers the priced cart. */
async function auditedCart(ctx: ToolContext, cartId: string, before: unknown): Promise<Cart> {
  const cart = await findCart(ctx.db, cartId);
  const view = await renderCart(ctx.db, cart);
  await ctx.audit({ targetType: 'cart', targetId: cartId, before, after: await cartSnapshot(ctx.db, cartId) });
  return view;
}

export const createCart = defineTool({
  name: 'cart.create',
  description: `Start a cart, optionally with items and a discount code. ${CART_PRICING} An unknown product slug → 404 not_found. `
    + DISCOUNT_FAILURE,
  scope: 'cart:write',
  annotations: write('Create cart', { idempotent: false }),
  input: z.strictObject({
    items: z.array(CartLineInput).max(100).default([])
      .refine((items) => new Set(items.map((item) => item.slug)).size === items.length, 'list each product slug once')
      .meta({ description: 'Initial lines; each slug at most once.' }),
    discountCode: DiscountCodeRef.optional(),
  }).meta({ examples: [{ items: [{ slug: 'aviator-classic', quantity: 1 }], discountCode: 'SOMMER25' }] }),
  output: Cart,
  // A hot path: the answer is priced from the rows this call read or wrote, not read back.
  async handler({ items, discountCode }, ctx) {
    const lines = [];
    for (const item of items) {
      const product = await findLineProduct(ctx.db, item.slug);
      lines.push({ productId: product.id, slug: product.slug, sku: product.sku, productName: product.name, unitPriceDkk: product.priceDkk, quantity: item.quantity });
    }
    const discount = discountCode === undefined ? undefined : await usableDiscount(ctx.db, discountCode, ctx.clock());
    const { cart, items: rows } = await insertCart(ctx.db, { discountCode: discount?.code ?? null, lines });
    const view = priceCart(cart.id, lines, discount, await shippingBook(ctx.db));
    await ctx.audit({ targetType: 'cart', targetId: cart.id, before: null, after: snapshotOf(cart, rows) });
    return view;
  },
});

export const getCart = defineTool({
  name: 'cart.get',
  description: `Read a cart. ${PRICED_AS_CREATED}`,
  scope: 'cart:write',
  annotations: readOnly('Get cart'),
  input: z.strictObject({ cartId: Id }).meta({ examples: [{ cartId: '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81' }] }),
  output: Cart,
  async handler({ cartId }, { db }) {
    return renderCart(db, await findCart(db, cartId));
  },
});

export const setCartItem = defineTool({
  name: 'cart.set_item',
  description: `Set the quantity of one product in an open cart (0..${MAX_QUANTITY}); 0 removes the line. Unknown slug → 404 `
    + `not_found; a checked-out cart → 422 cart_closed. ${PRICED_AS_CREATED}`,
  scope: 'cart:write',
  annotations: write('Set cart item quantity', { idempotent: true }),
  input: z.strictObject({
    cartId: Id,
    slug: SlugRef.meta({ description: 'Product slug.' }),
    quantity: z.int().min(0).max(MAX_QUANTITY).meta({ description: `Units, 0..${MAX_QUANTITY}; 0 removes the line.` }),
  }).meta({ examples: [{ cartId: '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81', slug: 'aviator-classic', quantity: 2 }] }),
  output: Cart,
  async handler({ cartId, slug, quantity }, ctx) {
    await lockOpenCart(ctx.db, cartId);
    // A line of a product withdrawn since it was added can still be removed; new units need a visible product.
    const product = quantity === 0 ? await findProductForCart(ctx.db, slug) : await findLineProduct(ctx.db, slug);
    if (!product) throw await productNotFound(ctx.db, slug);
    const before = await cartSnapshot(ctx.db, cartId);
    await setCartLine(ctx.db, { cartId, productId: product.id, quantity });
    return auditedCart(ctx, cartId, before);
  },
});

export const applyCartDiscount = defineTool({
  name: 'cart.apply_discount',
  description: `Put a discount code on an open cart (case-insensitive; replaces any earlier code), or remove it with code: null. `
    + `${DISCOUNT_FAILURE} Checkout checks the code again. ${PRICED_AS_CREATED}`,
  scope: 'cart:write',
  annotations: write('Apply discount code to cart', { idempotent: true }),
  input: z.strictObject({
    cartId: Id,
    code: DiscountCodeRef.nullable().meta({ description: 'The code, or null to remove the cart\'s code.' }),
  })
    .meta({ examples: [{ cartId: '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81', code: 'SOMMER25' }, { cartId: '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81', code: null }] }),
  output: Cart,
  async handler({ cartId, code }, ctx) {
    await lockOpenCart(ctx.db, cartId);
    const discount = code === null ? null : await usableDiscount(ctx.db, code, ctx.clock());
    const before = await cartSnapshot(ctx.db, cartId);
    await ctx.db.update(carts).set({ discountCode: discount?.code ?? null, updatedAt: ctx.clock() }).where(eq(carts.id, cartId));
    return auditedCart(ctx, cartId, before);
  },
});

export const checkout = defineTool({
  name: 'cart.checkout',
  description: 'Turn an open cart into an order, all or nothing: the discount code is checked again and one use taken '
    + '(422 discount_not_applicable with reason), stock is reserved for every line (422 out_of_stock naming the product, '
    + 'nothing changed), shipping is priced to shipping.country, the cheapest option (none for it → 422 shipping_unavailable), '
    + 'the order is created and the cart closed (checking it out again → 422 cart_closed; an empty cart '
    + '→ 422 cart_empty). paymentMethod card (default) starts the order as pending_payment, invoice as pending. '
    + 'totalDkk and vatOere are øre; vatOere = round(totalDkk / 5), the 25 % VAT included in the total. '
    + 'To retry safely, send an idempotency key: over MCP as _meta["butik/idempotencyKey"], over REST as the Idempotency-Key header.',
  scope: 'cart:write',
  annotations: write('Check out cart', { idempotent: false }),
  input: CheckoutInput
    .meta({ examples: [{ cartId: '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81', email: 'karen@example.dk', shipping: { name: 'Karen Blixen', address: 'Rungstedvej 111', zip: '2960', city: 'Rungsted Kyst' }, phoneNumber: '+45 12 34 56 78', paymentMethod: 'card' }] }),
  output: CheckoutResult,
  handler: (input, ctx) => checkoutCart(ctx, input),
});

export const cartTools: AnyTool[] = [createCart, getCart, setCartItem, applyCartDiscount, checkout];
