import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { cartItems, carts, ucpCheckoutSessions } from '../../db/schema.ts';
import { MAX_QUANTITY } from '../../schema/cart.ts';
import { readSettings } from '../../shop/settings.ts';
import { productsByItemId } from './catalog.ts';
import type { CatalogProduct } from './catalog.ts';
import { renderCheckout } from './checkout-view.ts';
import type { SessionRow, StoredFulfillment, StoredMethod, ViewSettings } from './checkout-view.ts';
import { invalidRequest, notFound, UcpError } from '../core/errors.ts';
import { mayUse } from '../identity/caller.ts';
import type { UcpCaller } from '../identity/caller.ts';
import { offerSavedAddresses } from './saved-addresses.ts';
import type { Buyer, CreateCheckout, LineItemInput, MethodInput, UpdateCheckout } from './schemas.ts';

/** What a write needs beyond the view: whether buyers' addresses are saved (at completion) and offered. */
/** `ap2`: the creating call negotiated the AP2 mandate extension, which the new session then records. */
export type WriteSettings = ViewSettings & { savedAddresses: boolean; ap2?: boolean };

/** A session nobody completes is canceled six hours after it was created. */
export const SESSION_TTL_MS = 6 * 60 * 60 * 1000;

type StoredLine = SessionRow['lineItems'][number];

/**
 * The lines as the catalog knows them, and their products by Butik id. Checked in the samples' order: an unknown
 * item, then stock (a line asking for more than there is, whatever the amount), then the currency, then Butik's
 * per-line bound.
 */
async function resolveLines(
  db: Queryable,
  sent: readonly LineItemInput[],
  currency: string | undefined,
): Promise<{ lines: StoredLine[]; products: ReadonlyMap<string, CatalogProduct> }> {
  const products = await productsByItemId(db, sent.map((line) => line.item.id));
  const wanted = new Map<string, number>();
  const lines = sent.map((line) => {
    const product = products.get(line.item.id);
    if (!product) throw invalidRequest(`Product ${line.item.id} not found`, { outcome: 'not_found' });
    wanted.set(product.id, (wanted.get(product.id) ?? 0) + line.quantity);
    if ((wanted.get(product.id) ?? 0) > product.stock) throw invalidRequest(`Insufficient stock for item ${line.item.id}`, { outcome: 'out_of_stock' });
    return { id: line.id ?? randomUUID(), itemId: line.item.id, productId: product.id, quantity: line.quantity };
  });
  if (currency !== undefined) await requireShopCurrency(db, currency);
  for (const line of lines) {
    if (line.quantity > MAX_QUANTITY) throw invalidRequest(`Quantity of item ${line.itemId} exceeds ${MAX_QUANTITY} units per line`);
  }
  const ids = lines.map((line) => line.id);
  const repeated = ids.find((lineId, index) => ids.indexOf(lineId) !== index);
  if (repeated) throw new UcpError(422, 'INVALID_REQUEST', `Line item id ${repeated} is used twice`);
  return { lines, products: new Map([...products.values()].map((product) => [product.id, product])) };
}

async function requireShopCurrency(db: Queryable, currency: string): Promise<void> {
  const shop = await readSettings(db);
  if (currency !== shop.currency) throw invalidRequest(`Currency ${currency} is not supported; this shop sells in ${shop.currency}.`);
}

/**
 * The cart mirrors the session's lines, one row per product, so completion runs on Butik's cart. A cart made for
 * the session has no lines to clear first.
 */
async function syncCart(db: Queryable, cartId: string, lines: readonly StoredLine[], cart: 'new' | 'existing' = 'existing'): Promise<void> {
  if (cart === 'existing') await db.delete(cartItems).where(eq(cartItems.cartId, cartId));
  const quantities = new Map<string, number>();
  for (const line of lines) quantities.set(line.productId, (quantities.get(line.productId) ?? 0) + line.quantity);
  if (quantities.size === 0) return;
  await db.insert(cartItems).values([...quantities].map(([productId, quantity]) => ({ cartId, productId, quantity })));
}

/**
 * A sent fulfillment replaces the stored one, method by method: a method keeps what it omits (its destinations,
 * its groups) from the stored method with its id, or, when it has no id, from the only stored method of its type.
 */
export function mergeFulfillment(stored: StoredFulfillment | null, sent: { methods?: MethodInput[] }): StoredFulfillment {
  const before = stored?.methods ?? [];
  return {
    methods: (sent.methods ?? []).map((method) => {
      const type = method.type ?? 'shipping';
      const sameType = before.filter((candidate) => candidate.type === type);
      const previous = method.id !== undefined
        ? before.find((candidate) => candidate.id === method.id)
        : (sameType.length === 1 ? sameType[0] : undefined);
      const destinations = method.destinations
        ? method.destinations.map((destination) => ({ ...destination, id: destination.id ?? randomUUID() }))
        : previous?.destinations ?? [];
      const selected = method.selected_destination_id !== undefined ? method.selected_destination_id : previous?.selected_destination_id ?? null;
      const groups = method.groups
        ? method.groups.map((group, index) => ({
          id: group.id ?? previous?.groups[index]?.id ?? `group_${randomUUID()}`,
          selected_option_id: group.selected_option_id ?? null,
        }))
        : previous?.groups ?? [];
      const next: StoredMethod = { id: method.id ?? previous?.id ?? randomUUID(), type, destinations, selected_destination_id: selected, groups };
      // A chosen destination gets the group its options are offered in; its id is kept from then on.
      if (selected !== null && next.groups.length === 0) next.groups = [{ id: `group_${randomUUID()}`, selected_option_id: null }];
      return next;
    }),
  };
}

/** The fulfillment after a write: the sent methods merged, and with saved addresses on, the caller's offered. */
async function nextFulfillment(
  db: Queryable, stored: StoredFulfillment | null, sent: { methods?: MethodInput[] } | undefined, buyer: Buyer | null | undefined, settings: WriteSettings,
): Promise<StoredFulfillment | null> {
  const merged = sent ? mergeFulfillment(stored, sent) : stored;
  return settings.savedAddresses && merged ? offerSavedAddresses(db, settings.caller, buyer, merged) : merged;
}

/** Only the instruments' description is kept: a credential never reaches the database. */
function storablePayment(payment: CreateCheckout['payment']): Record<string, unknown> | null {
  if (!payment) return null;
  return {
    ...(payment.selected_instrument_id ? { selected_instrument_id: payment.selected_instrument_id } : {}),
    ...(payment.instruments ? { instruments: payment.instruments.map(({ credential: _credential, ...instrument }) => instrument) } : {}),
  };
}

export async function createSession(db: Db, request: CreateCheckout, platform: string, settings: WriteSettings) {
  return db.transaction(async (tx) => {
    const [cart] = await tx.insert(carts).values({ createdAt: settings.now, updatedAt: settings.now }).returning({ id: carts.id });
    if (!cart) throw new Error('cart insert returned no row');
    return createSessionOnCart(tx, cart.id, request, platform, settings, 'new');
  });
}

/**
 * Whether a session was created under the AP2 mandate extension, and by which platform: what its completion
 * must hold to, whatever version or profile the completing call names. Undefined for no such session.
 */
export async function sessionMandate(db: Queryable, id: string): Promise<{ ap2: boolean; platform: string } | undefined> {
  const [row] = await db.select({ ap2: ucpCheckoutSessions.ap2, platform: ucpCheckoutSessions.platform })
    .from(ucpCheckoutSessions).where(eq(ucpCheckoutSessions.id, id));
  return row;
}

/** A new session over an open Butik cart, its lines replaced by the request's: a new cart, or a UCP cart converted. */
export async function createSessionOnCart(
  tx: Queryable,
  cartId: string,
  request: CreateCheckout,
  platform: string,
  settings: WriteSettings,
  cart: 'new' | 'existing' = 'existing',
) {
  const { lines, products } = await resolveLines(tx, request.line_items, request.currency);
  const currency = request.currency ?? (await readSettings(tx)).currency;
  const now = settings.now;
  await syncCart(tx, cartId, lines, cart);
  const [session] = await tx.insert(ucpCheckoutSessions).values({
    cartId,
    platform,
    keyId: settings.caller.keyId,
    status: 'incomplete',
    currency,
    lineItems: lines,
    buyer: request.buyer ?? null,
    context: request.context ?? null,
    signals: request.signals ?? null,
    fulfillment: await nextFulfillment(tx, null, request.fulfillment, request.buyer, settings),
    discountCodes: request.discounts?.codes ?? null,
    payment: storablePayment(request.payment),
    ap2: settings.ap2 === true,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    createdAt: now,
    updatedAt: now,
  }).returning();
  if (!session) throw new Error('session insert returned no row');
  // Priced from the products the lines were just resolved from, not read a second time.
  return answer(tx, session, settings, products);
}

export async function updateSession(db: Db, id: string, request: UpdateCheckout, settings: WriteSettings) {
  if (request.id !== undefined && request.id !== id) throw invalidRequest(`The body's id ${request.id} is not the checkout session ${id} in the URL`);
  return db.transaction(async (tx) => {
    const session = await openSession(tx, id, 'update', settings);
    const lines = request.line_items ? (await resolveLines(tx, request.line_items, request.currency)).lines : session.lineItems;
    if (!request.line_items && request.currency !== undefined) await requireShopCurrency(tx, request.currency);
    if (request.line_items) await syncCart(tx, session.cartId, lines);
    const [updated] = await tx.update(ucpCheckoutSessions).set({
      lineItems: lines,
      ...(request.currency !== undefined ? { currency: request.currency } : {}),
      ...(request.buyer !== undefined ? { buyer: request.buyer } : {}),
      ...(request.context !== undefined ? { context: request.context } : {}),
      ...(request.signals !== undefined ? { signals: { ...session.signals, ...request.signals } } : {}),
      ...(request.fulfillment !== undefined || request.buyer !== undefined
        ? { fulfillment: await nextFulfillment(tx, session.fulfillment as StoredFulfillment | null, request.fulfillment, request.buyer ?? (session.buyer as Buyer | null), settings) }
        : {}),
      ...(request.discounts !== undefined ? { discountCodes: request.discounts.codes ?? [] } : {}),
      ...(request.payment !== undefined ? { payment: storablePayment(request.payment) } : {}),
      updatedAt: settings.now,
    }).where(eq(ucpCheckoutSessions.id, id)).returning();
    if (!updated) throw notFound('Checkout session');
    return answer(tx, updated, settings);
  });
}

export async function cancelSession(db: Db, id: string, settings: ViewSettings) {
  return db.transaction(async (tx) => {
    const session = await openSession(tx, id, 'cancel', settings);
    return end(tx, session, settings);
  });
}

/** GET: an open session priced now, an ended one as it ended; one past its expiry is canceled first. */
export async function readSession(db: Db, id: string, settings: ViewSettings): Promise<Record<string, unknown>> {
  const session = await findSession(db, id, settings.caller);
  if (session.frozen) return session.frozen;
  if (session.expiresAt.getTime() <= settings.now.getTime()) {
    return db.transaction(async (tx) => {
      const locked = await findSession(tx, id, settings.caller, { lock: true });
      return locked.frozen ?? end(tx, locked, settings);
    });
  }
  return (await renderCheckout(db, session, settings)).view;
}

// Every read, update and completion of a session starts here, so both reads are named prepared statements.
const sessionById = preparedStatement((db) => db.select().from(ucpCheckoutSessions)
  .where(eq(ucpCheckoutSessions.id, sql.placeholder('id'))).prepare('ucp_session_by_id'));
const sessionForUpdate = preparedStatement((db) => db.select().from(ucpCheckoutSessions)
  .where(eq(ucpCheckoutSessions.id, sql.placeholder('id'))).for('update').prepare('ucp_session_for_update'));

/** The session, when the caller may use it (key mode: the key that created it); otherwise not found. */
export async function findSession(db: Queryable, id: string, caller: UcpCaller, options: { lock?: boolean } = {}): Promise<SessionRow> {
  const [session] = await (options.lock ? sessionForUpdate : sessionById)(db).execute({ id });
  if (!session || !mayUse(caller, session.keyId)) throw notFound('Checkout session');
  return session;
}

/**
 * Refuses a write to a session that has ended (the samples' wording). A session past its expiry counts as
 * canceled; the next read records that.
 */
export function requireOpen(session: SessionRow, action: 'update' | 'complete' | 'cancel', now: Date): SessionRow {
  const status = session.frozen ? session.status : session.expiresAt.getTime() <= now.getTime() ? 'canceled' : undefined;
  if (status) throw new UcpError(409, 'CHECKOUT_NOT_MODIFIABLE', `Cannot ${action} checkout in state '${status}'`);
  return session;
}

/** The session locked for a write, in the caller's transaction; refused when it has ended. */
export async function openSession(db: Queryable, id: string, action: 'update' | 'complete' | 'cancel', settings: ViewSettings): Promise<SessionRow> {
  return requireOpen(await findSession(db, id, settings.caller, { lock: true }), action, settings.now);
}

async function answer(db: Queryable, session: SessionRow, settings: ViewSettings, products?: ReadonlyMap<string, CatalogProduct>) {
  const { view } = await renderCheckout(db, session, settings, products);
  const status = view.status as SessionRow['status'];
  if (status !== session.status) await db.update(ucpCheckoutSessions).set({ status }).where(eq(ucpCheckoutSessions.id, session.id));
  return view;
}

/** Cancels: the session answers from now on what it showed at this moment, with status canceled. */
async function end(db: Queryable, session: SessionRow, settings: ViewSettings): Promise<Record<string, unknown>> {
  const { view } = await renderCheckout(db, session, settings);
  const { messages: _messages, continue_url: _continueUrl, ...rest } = view;
  const frozen = { ...rest, status: 'canceled' };
  await db.update(ucpCheckoutSessions).set({ status: 'canceled', frozen, updatedAt: settings.now }).where(eq(ucpCheckoutSessions.id, session.id));
  return frozen;
}
