import { and, eq, gt, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Queryable } from '../../db/client.ts';
import { cartItems, carts, products, ucpCarts, ucpCheckoutSessions } from '../../db/schema.ts';
import { lineTotal, subtotalOf } from '../../domain/pricing.ts';
import { MAX_QUANTITY } from '../../schema/cart.ts';
import { productRecordsBySkuOrSlug, productRecordsWhere } from '../../shop/product-read.ts';
import { readSettings } from '../../shop/settings.ts';
import { mayUse } from '../identity/caller.ts';
import type { UcpCaller } from '../identity/caller.ts';
import { variantIdOf } from '../catalog/catalog-product.ts';
import { Buyer } from '../checkout/schemas.ts';
import { envelope, invalid, Outcome, parseRequest } from '../catalog/shopping-answer.ts';

/**
 * UCP carts (docs/ucp.md#catalog-and-cart) over Butik's carts: the lines are the Butik cart's lines (one per
 * product, the line id is the product id), priced from the catalog on every answer; ucp_carts holds what only UCP
 * has (the owning key, buyer, context, expiry, cancellation). Totals are estimates: shipping is priced at checkout.
 */

/** A cart lives this long after its last write. */
export const CART_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const LineItem = z.object({ item: z.object({ id: z.string().min(1).max(200) }), quantity: z.int().min(1).max(MAX_QUANTITY) });
const Context = z.looseObject({});

/** Create and update alike: update is a full replacement of the cart. */
export const CartRequest = z.object({
  id: z.string().max(200).optional(),
  line_items: z.array(LineItem).max(100),
  buyer: Buyer.optional(),
  context: Context.optional(),
});
type CartRequest = z.infer<typeof CartRequest>;

type CartSettings = { caller: UcpCaller; now: Date };
type UcpCartRow = typeof ucpCarts.$inferSelect;

const cartNotFound = (id: string) => new Outcome('not_found', `Cart ${id} not found or has expired`);

/**
 * The products the lines name, by item id (SKU, else slug). An item the catalog does not sell, or one named twice,
 * fails the whole write: the cart never holds a line its platform did not mean.
 */
async function resolveLines(db: Queryable, request: CartRequest) {
  const itemIds = request.line_items.map((line) => line.item.id);
  const records = await productRecordsBySkuOrSlug(db, itemIds);
  const lines = request.line_items.map((line, index) => {
    const record = records.find((candidate) => variantIdOf(candidate) === line.item.id)
      ?? records.find((candidate) => candidate.slug === line.item.id);
    if (!record) throw new Outcome('not_found', `Product ${line.item.id} not found`, { severity: 'recoverable', path: `$.line_items[${index}]` });
    return { productId: record.id, quantity: line.quantity };
  });
  const seen = new Set<string>();
  for (const [index, line] of lines.entries()) {
    if (seen.has(line.productId)) throw invalid(`Invalid request: line_items.${index}: the item is already in the cart; list each item once`);
    seen.add(line.productId);
  }
  return lines;
}

async function writeLines(db: Queryable, cartId: string, lines: ReadonlyArray<{ productId: string; quantity: number }>) {
  await db.delete(cartItems).where(eq(cartItems.cartId, cartId));
  if (lines.length > 0) await db.insert(cartItems).values(lines.map((line) => ({ cartId, ...line })));
}

/**
 * The UCP cart the caller may use: not canceled, not expired, its Butik cart still open (a cart checked out
 * is cleared, as the spec allows). Anything else is not found.
 */
async function findUcpCart(db: Queryable, id: string, settings: CartSettings, options: { lock?: boolean } = {}): Promise<UcpCartRow> {
  const query = db.select({ ucp: ucpCarts, status: carts.status }).from(ucpCarts).innerJoin(carts, eq(carts.id, ucpCarts.cartId))
    .where(eq(ucpCarts.cartId, id));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row || row.status !== 'open' || row.ucp.canceledAt !== null || row.ucp.expiresAt.getTime() <= settings.now.getTime()
    || !mayUse(settings.caller, row.ucp.keyId)) {
    throw cartNotFound(id);
  }
  return row.ucp;
}

/** The checkout session made from this cart that is still open, if any. */
export async function openCheckoutOf(db: Queryable, cartId: string, now: Date) {
  const [session] = await db.select().from(ucpCheckoutSessions).where(and(
    eq(ucpCheckoutSessions.cartId, cartId),
    inArray(ucpCheckoutSessions.status, ['incomplete', 'ready_for_complete']),
    gt(ucpCheckoutSessions.expiresAt, now),
  )).limit(1);
  return session;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The cart's lines as the catalog prices them now, by product name then slug, as cart.get lists a cart. */
export async function cartLineRecords(db: Queryable, cartId: string) {
  const rows = await db.select({ productId: cartItems.productId, quantity: cartItems.quantity }).from(cartItems).where(eq(cartItems.cartId, cartId));
  const records = rows.length === 0 ? [] : await productRecordsWhere(db, inArray(products.id, rows.map((row) => row.productId)));
  return rows.flatMap((row) => {
    const record = records.find((candidate) => candidate.id === row.productId);
    return record ? [{ record, quantity: row.quantity }] : [];
  }).sort((a, b) => byText(a.record.name, b.record.name) || byText(a.record.slug, b.record.slug));
}

/** The cart as UCP shows it (cart.json), priced now. */
async function render(db: Queryable, cart: UcpCartRow) {
  const lines = await cartLineRecords(db, cart.cartId);
  const { currency } = await readSettings(db);
  const subtotal = subtotalOf(lines.map(({ record, quantity }) => ({ unitPriceDkk: record.priceDkk, quantity })));
  const messages = lines.flatMap((line, index) => (line.quantity > line.record.stock
    ? [{ type: 'warning' as const, code: 'out_of_stock', content: `Only ${line.record.stock} of ${line.record.name} in stock`, path: `$.line_items[${index}]` }]
    : []));
  return {
    ucp: envelope('dev.ucp.shopping.cart'),
    id: cart.cartId,
    line_items: lines.map(({ record, quantity }) => {
      const amount = lineTotal({ unitPriceDkk: record.priceDkk, quantity });
      const image = record.images[0]?.url;
      return {
        id: record.id,
        item: { id: variantIdOf(record), title: record.name, price: record.priceDkk, ...(image ? { image_url: image } : {}) },
        quantity,
        totals: [{ type: 'subtotal', amount }, { type: 'total', amount }],
      };
    }),
    currency,
    totals: [
      { type: 'subtotal', amount: subtotal },
      { type: 'total', amount: subtotal, display_text: 'Estimated total (shipping is priced at checkout)' },
    ],
    ...(cart.buyer ? { buyer: cart.buyer } : {}),
    ...(cart.context ? { context: cart.context } : {}),
    ...(messages.length > 0 ? { messages } : {}),
    expires_at: cart.expiresAt.toISOString(),
  };
}

export async function createUcpCart(db: Db, body: unknown, platform: string, settings: CartSettings) {
  const request = parseRequest(CartRequest, body);
  return db.transaction(async (tx) => {
    const lines = await resolveLines(tx, request);
    const [cart] = await tx.insert(carts).values({ createdAt: settings.now, updatedAt: settings.now }).returning({ id: carts.id });
    if (!cart) throw new Error('cart insert returned no row');
    await writeLines(tx, cart.id, lines);
    const [row] = await tx.insert(ucpCarts).values({
      cartId: cart.id, platform, keyId: settings.caller.keyId, buyer: request.buyer ?? null, context: request.context ?? null,
      expiresAt: new Date(settings.now.getTime() + CART_TTL_MS), createdAt: settings.now,
    }).returning();
    if (!row) throw new Error('ucp cart insert returned no row');
    return render(tx, row);
  });
}

export async function readUcpCart(db: Db, id: string, settings: CartSettings) {
  return render(db, await findUcpCart(db, id, settings));
}

/**
 * PUT: the cart replaced by what was sent. While a checkout made from the cart is open, that checkout owns its
 * lines: the cart changes through the checkout instead, so the order is never placed from lines the checkout
 * did not show.
 */
export async function updateUcpCart(db: Db, id: string, body: unknown, settings: CartSettings) {
  const request = parseRequest(CartRequest, body);
  if (request.id !== undefined && request.id !== id) throw invalid(`Invalid request: the body's id ${request.id} is not the cart ${id} in the URL`);
  return db.transaction(async (tx) => {
    const cart = await findUcpCart(tx, id, settings, { lock: true });
    if (await openCheckoutOf(tx, id, settings.now)) {
      throw new Outcome('cart_in_checkout', `Cart ${id} is being checked out; change the checkout session instead`, { severity: 'recoverable' });
    }
    await writeLines(tx, id, await resolveLines(tx, request));
    await tx.update(carts).set({ updatedAt: settings.now }).where(eq(carts.id, id));
    const [row] = await tx.update(ucpCarts).set({
      buyer: request.buyer ?? null, context: request.context ?? null, expiresAt: new Date(settings.now.getTime() + CART_TTL_MS),
    }).where(eq(ucpCarts.cartId, cart.cartId)).returning();
    if (!row) throw cartNotFound(id);
    return render(tx, row);
  });
}

/** Cancel: answers the cart as it was; from then on it is not found. A checkout made from it carries on. */
export async function cancelUcpCart(db: Db, id: string, settings: CartSettings) {
  return db.transaction(async (tx) => {
    const cart = await findUcpCart(tx, id, settings, { lock: true });
    const view = await render(tx, cart);
    await tx.update(ucpCarts).set({ canceledAt: settings.now }).where(eq(ucpCarts.cartId, id));
    return view;
  });
}

/** The cart a checkout is made from, locked, with its lines; for cart-checkout.ts. */
export async function cartForCheckout(db: Queryable, id: string, settings: CartSettings) {
  const cart = await findUcpCart(db, id, settings, { lock: true });
  return { cart, lines: await cartLineRecords(db, id) };
}
