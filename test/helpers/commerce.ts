import type { TestApp } from './app.ts';
import { createProduct, master, uniqueSlug } from './fixtures.ts';

/** Shared set-up of the commerce tests: discount codes, carts and placed orders, all through the tools. */

export function uniqueCode(prefix = 'CODE'): string {
  return uniqueSlug(prefix).toUpperCase();
}

export async function createDiscount(t: TestApp, fields: Record<string, unknown> = {}) {
  const body = { code: uniqueCode(), type: 'percent', value: 10, ...fields };
  const response = await t.call('discounts.create', body, master);
  if (response.status !== 200) throw new Error(`discount fixture failed: ${JSON.stringify(response.body)}`);
  return response.body.result as { id: string; code: string };
}

export const shipping = { name: 'Karen Blixen', address: 'Rungstedvej 111', zip: '2960', city: 'Rungsted Kyst' };

export function checkoutBody(cartId: string, fields: Record<string, unknown> = {}) {
  return { cartId, email: 'karen@example.dk', shipping, ...fields };
}

export async function createCart(t: TestApp, body: Record<string, unknown> = {}, key = master.key) {
  const response = await t.call('cart.create', body, { key });
  if (response.status !== 200) throw new Error(`cart fixture failed: ${JSON.stringify(response.body)}`);
  return response.body.result as { cartId: string; totalDkk: number };
}

/** A product, a cart holding `quantity` of it, and a checked-out order. */
export async function placeOrder(
  t: TestApp,
  options: { quantity?: number; product?: { id: string; slug: string }; discountCode?: string; checkout?: Record<string, unknown> } = {},
) {
  const product = options.product ?? await createProduct(t, { priceDkk: 20000, stock: 50 });
  const cart = await createCart(t, {
    items: [{ slug: product.slug, quantity: options.quantity ?? 1 }],
    ...(options.discountCode ? { discountCode: options.discountCode } : {}),
  });
  const response = await t.call('cart.checkout', checkoutBody(cart.cartId, options.checkout), master);
  if (response.status !== 200) throw new Error(`order fixture failed: ${JSON.stringify(response.body)}`);
  return { ...(response.body.result as { orderId: string; status: string; totalDkk: number; vatOere: number }), product };
}

export async function stockOf(t: TestApp, slug: string): Promise<number> {
  const response = await t.call('products.get', { slug });
  return response.body.result.stock as number;
}

export async function discountRecord(t: TestApp, code: string) {
  const response = await t.call('discounts.get', { code }, master);
  return response.body.result as { usageCount: number; active: boolean; remainingUses: number | null };
}
