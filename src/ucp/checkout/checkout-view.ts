import type { Queryable } from '../../db/client.ts';
import type { ucpCheckoutSessions } from '../../db/schema.ts';
import { readSettings } from '../../shop/settings.ts';
import { discountsByCode, productsById } from './catalog.ts';
import { shippingBook } from '../../shop/shipping.ts';
import type { CatalogProduct } from './catalog.ts';
import type { PaymentHandlerDeclaration } from '../payments/payment-handlers.ts';
import { lineTotal, priceShipping, subtotalOf } from '../../domain/pricing.ts';
import type { ShippingOption } from '../../domain/pricing.ts';
import { applyDiscounts } from './discounts.ts';
import type { AppliedDiscount, Warning } from './discounts.ts';
import type { UcpCaller } from '../identity/caller.ts';
import type { PostalAddress } from './schemas.ts';

export type SessionRow = typeof ucpCheckoutSessions.$inferSelect;
export type StoredDestination = PostalAddress & { id: string };
export type StoredMethod = {
  id: string;
  type: 'shipping' | 'pickup';
  destinations: StoredDestination[];
  selected_destination_id: string | null;
  groups: Array<{ id: string; selected_option_id: string | null }>;
};
export type StoredFulfillment = { methods: StoredMethod[] };

type ErrorMessage = { type: 'error'; code: string; path: string; content: string; severity: 'recoverable' };

const missing = (path: string, content: string): ErrorMessage => ({ type: 'error', code: 'missing', path, content, severity: 'recoverable' });

/** A shipping option as UCP shows it: its price as a subtotal and a total. */
export type FulfillmentOption = {
  id: string;
  title: string;
  totals: Array<{ type: 'subtotal' | 'total'; amount: number }>;
};

function fulfillmentOption(option: ShippingOption): FulfillmentOption {
  return { id: option.id, title: option.title, totals: [{ type: 'subtotal', amount: option.amount }, { type: 'total', amount: option.amount }] };
}

export type PricedLine = { id: string; itemId: string; productId: string; title: string; price: number; quantity: number; imageUrl?: string };

/** A session priced against today's catalog: what the view shows and what completion charges. */
export type Pricing = {
  lines: PricedLine[];
  subtotal: number;
  discount: number;
  /** The selected option's price, 0 until one is chosen. */
  shippingAmount: number;
  applied: AppliedDiscount[];
  /** The selected option and where it ships, when both are chosen. */
  shipping: { option: FulfillmentOption; destination: StoredDestination; method: StoredMethod } | null;
  total: number;
  ready: boolean;
  /** The item ids whose stock no longer covers their line. */
  outOfStock: string[];
};

/** A line's item and totals as checkout and order documents both show them. */
export function itemView(line: PricedLine) {
  return { id: line.itemId, title: line.title, price: line.price, ...(line.imageUrl ? { image_url: line.imageUrl } : {}) };
}

/** A line's totals: subtotal and total, the same amount (prices include VAT, no tax line). */
export function lineTotals(line: PricedLine) {
  const amount = lineTotal({ unitPriceDkk: line.price, quantity: line.quantity });
  return [{ type: 'subtotal', amount }, { type: 'total', amount }];
}

/** The checkout's totals: subtotal, discount when there is one, fulfillment once an option is chosen, total. */
export function totalsOf(pricing: Pick<Pricing, 'subtotal' | 'discount' | 'shippingAmount' | 'total'>, shipped: boolean) {
  return [
    { type: 'subtotal', amount: pricing.subtotal },
    ...(pricing.discount > 0 ? [{ type: 'discount', amount: pricing.discount }] : []),
    ...(shipped ? [{ type: 'fulfillment', amount: pricing.shippingAmount }] : []),
    { type: 'total', amount: pricing.total },
  ];
}

/** The storefront page where a person finishes the session; its unguessable id is what opens it. */
export const handoffUrl = (baseUrl: string, sessionId: string) => `${baseUrl}/checkout/${sessionId}`;

/** What one call runs with: the shop's handlers and address, the time, and who is calling. */
export type ViewSettings = {
  handlers: readonly PaymentHandlerDeclaration[];
  caller: UcpCaller;
  baseUrl: string;
  now: Date;
};

/**
 * The checkout in 2026-01-11's shape without its `ucp` block, which ucp/checkout/shapes.ts adds per version. An open
 * session is priced from the catalog on every read; a completed or canceled one answers what it ended with.
 * Empty optional members are left out. `known`: the lines' products by id, when the caller read them in this transaction.
 */
export async function renderCheckout(
  db: Queryable,
  session: SessionRow,
  settings: ViewSettings,
  known?: ReadonlyMap<string, CatalogProduct>,
): Promise<{ view: Record<string, unknown>; pricing: Pricing }> {
  const shop = await readSettings(db);
  const products = known ?? await productsById(db, session.lineItems.map((line) => line.productId));
  const messages: Array<ErrorMessage | Warning> = [];
  const outOfStock: string[] = [];

  const lines: PricedLine[] = session.lineItems.map((line, index) => {
    const product: CatalogProduct | undefined = products.get(line.productId);
    if (!product || product.stock < line.quantity) {
      outOfStock.push(line.itemId);
      messages.push({ type: 'error', code: 'out_of_stock', path: `$.line_items[${index}]`, content: `Insufficient stock for item ${line.itemId}`, severity: 'recoverable' });
    }
    return {
      id: line.id,
      itemId: line.itemId,
      productId: line.productId,
      title: product?.title ?? line.itemId,
      price: product?.price ?? 0,
      quantity: line.quantity,
      ...(product?.imageUrl ? { imageUrl: product.imageUrl } : {}),
    };
  });
  const subtotal = subtotalOf(lines.map((line) => ({ unitPriceDkk: line.price, quantity: line.quantity })));
  const codes = session.discountCodes ?? [];
  const discounts = applyDiscounts(codes, subtotal, await discountsByCode(db, codes), { now: settings.now, stack: shop.stackDiscountCodes });
  messages.push(...discounts.warnings);
  const afterDiscounts = subtotal - discounts.discount;

  const fulfillment = session.fulfillment as StoredFulfillment | null;
  // Promotions know an item by what the platform called it and by the catalog's own id (SKU, else slug), as the cart does.
  const itemIds = lines.flatMap((line) => [line.itemId, products.get(line.productId)?.itemId ?? line.itemId]);
  const shipping = await chooseShipping(db, fulfillment, { afterDiscounts, itemIds, lineIds: lines.map((line) => line.id), messages });
  const shippingAmount = shipping.selected ? optionAmount(shipping.selected.option) : 0;
  const total = afterDiscounts + shippingAmount;
  const ready = !messages.some((message) => message.type === 'error');

  const view: Record<string, unknown> = {
    id: session.id,
    status: ready ? 'ready_for_complete' : 'incomplete',
    currency: session.currency,
    line_items: lines.map((line) => ({ id: line.id, item: itemView(line), quantity: line.quantity, totals: lineTotals(line) })),
    ...(session.buyer ? { buyer: session.buyer } : {}),
    ...(session.context ? { context: session.context } : {}),
    totals: totalsOf({ subtotal, discount: discounts.discount, shippingAmount, total }, shipping.selected !== null),
    ...(messages.length > 0 ? { messages } : {}),
    links: [],
    expires_at: session.expiresAt.toISOString(),
    // The buyer's page for this session (docs/ucp.md#the-buyers-page): where a platform sends a person. A session
    // frozen as completed or canceled leaves it out, as UCP asks of ended sessions.
    continue_url: handoffUrl(settings.baseUrl, session.id),
    payment: { ...(session.payment ?? {}) },
    ...(shipping.view ? { fulfillment: shipping.view } : {}),
    ...(session.discountCodes ? { discounts: { codes: session.discountCodes, ...(discounts.applied.length > 0 ? { applied: discounts.applied } : {}) } } : {}),
  };
  return {
    view,
    pricing: { lines, subtotal, discount: discounts.discount, shippingAmount, applied: discounts.applied, shipping: shipping.selected, total, ready, outOfStock },
  };
}

type ShippingInputs = {
  afterDiscounts: number;
  itemIds: string[];
  lineIds: string[];
  messages: Array<ErrorMessage | Warning>;
};

/**
 * The fulfillment member and the chosen option. Everything ships (Butik sells physical goods), so a checkout
 * needs one shipping method with a selected destination that names its country, and a selected option in its
 * first group. Every method and group covers all lines: a Butik order ships as one parcel.
 */
async function chooseShipping(db: Queryable, fulfillment: StoredFulfillment | null, inputs: ShippingInputs) {
  const { messages, lineIds } = inputs;
  const methods = fulfillment?.methods ?? [];
  methods.forEach((candidate, index) => {
    if (candidate.type === 'pickup') {
      messages.push({ type: 'error', code: 'invalid', path: `$.fulfillment.methods[${index}].type`, content: 'Pickup is not offered; use a shipping method', severity: 'recoverable' });
    }
  });
  const method = methods.find((candidate) => candidate.type === 'shipping');
  if (!method) {
    messages.push(missing('$.fulfillment', 'Fulfillment address is required'));
    return { view: methods.length > 0 ? { methods: methods.map((candidate) => renderMethod(candidate, lineIds, candidate.groups)) } : null, selected: null };
  }
  const index = methods.indexOf(method);
  const destination = method.destinations.find((candidate) => candidate.id === method.selected_destination_id);
  const country = destination?.address_country;
  const firstGroup = method.groups[0];
  const quote = country
    ? priceShipping({ ...inputs, country, chosenOptionId: firstGroup?.selected_option_id ?? undefined }, await shippingBook(db))
    : undefined;
  const options = quote?.options.map(fulfillmentOption);
  // UCP asks the buyer to choose: the cheapest option is charged only once it is selected.
  const option = quote?.charged && firstGroup?.selected_option_id ? fulfillmentOption(quote.charged) : undefined;
  if (!destination) {
    messages.push(missing(`$.fulfillment.methods[${index}].selected_destination_id`, 'Fulfillment address is required'));
  } else if (!country) {
    const at = method.destinations.indexOf(destination);
    messages.push(missing(`$.fulfillment.methods[${index}].destinations[${at}].address_country`, 'Fulfillment address country is required'));
  } else if (!option) {
    messages.push(missing(`$.fulfillment.methods[${index}].groups[0].selected_option_id`, 'Please select a fulfillment option'));
  }
  const groups = method.groups.map((group) => ({ ...group, line_item_ids: lineIds, ...(options ? { options } : {}) }));
  return {
    view: { methods: methods.map((candidate) => renderMethod(candidate, lineIds, candidate === method ? groups : candidate.groups)) },
    selected: destination && option ? { option, destination, method } : null,
  };
}

function renderMethod(method: StoredMethod, lineIds: readonly string[], groups: readonly object[]) {
  return {
    id: method.id,
    type: method.type,
    line_item_ids: lineIds,
    ...(method.destinations.length > 0 ? { destinations: method.destinations } : {}),
    ...(method.selected_destination_id ? { selected_destination_id: method.selected_destination_id } : {}),
    ...(groups.length > 0 ? { groups } : {}),
  };
}

function optionAmount(option: FulfillmentOption): number {
  return option.totals.find((total) => total.type === 'total')?.amount ?? 0;
}
