import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { productRecordsByAnyKey } from '../../shop/product-read.ts';
import type { ProductRecord } from '../../shop/product-read.ts';
import { readSettings } from '../../shop/settings.ts';
import { searchCatalogRecords } from '../../shop/product-search.ts';
import { UcpError } from '../core/errors.ts';
import { matchOf, ucpProduct } from './catalog-product.ts';
import type { InputMatch, Shop } from './catalog-product.ts';
import { envelope, invalid, Outcome, parseRequest } from './shopping-answer.ts';

/**
 * UCP's catalog search and lookup (docs/ucp.md#catalog-and-cart) over products.search's own search
 * (shop/product-search.ts) and the shared product read model (shop/product-read.ts). Request members Butik
 * does not use (signals, attribution, most of context) are read and dropped.
 */

const Amount = z.int().min(0);
const Context = z.object({ currency: z.string().max(10).optional() });
const Filters = z.object({
  categories: z.array(z.string().min(1).max(200)).max(20).optional(),
  price: z.object({ min: Amount.optional(), max: Amount.optional() }).optional(),
});
type Filters = z.infer<typeof Filters>;

export const SearchRequest = z.object({
  query: z.string().max(200).optional(),
  context: Context.optional(),
  filters: Filters.optional(),
  pagination: z.object({ cursor: z.string().max(200).optional(), limit: z.int().min(1).optional() }).optional(),
});

export const LookupRequest = z.object({
  ids: z.array(z.string().min(1).max(200)).min(1),
  context: Context.optional(),
  filters: Filters.optional(),
});

export const GetProductRequest = z.object({
  id: z.string().min(1).max(200),
  context: Context.optional(),
  filters: Filters.optional(),
});

/** The spec's default page; a larger request is clamped to MAX_PAGE silently, as it allows. */
const DEFAULT_PAGE = 10;
const MAX_PAGE = 50;
/** products.search pages no further than this many products in. */
const MAX_OFFSET = 10_000;
/** Identifiers one lookup may name; more is 400 request_too_large. */
export const MAX_LOOKUP_IDS = 50;

type Message = { type: 'info' | 'warning'; code: string; content: string; path?: string };

/** The cursor is opaque to the platform: the offset of the next page, base64url. */
function readCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const decoded = /^[A-Za-z0-9_-]+$/.test(cursor) ? Number(Buffer.from(cursor, 'base64url').toString('utf8')) : NaN;
  if (!Number.isInteger(decoded) || decoded < 0 || decoded > MAX_OFFSET) throw invalid('Invalid request: pagination.cursor: not a cursor this shop gave out');
  return decoded;
}
const writeCursor = (offset: number) => Buffer.from(String(offset), 'utf8').toString('base64url');

/**
 * The price filter is in context.currency; Butik prices in one currency, so a filter in another cannot be
 * applied: it is left out and a message says so, as the spec asks.
 */
function priceBounds(filters: Filters | undefined, currency: string | undefined, shop: Shop, messages: Message[]) {
  const price = filters?.price;
  if (!price) return {};
  if (currency !== undefined && currency.toUpperCase() !== shop.currency) {
    messages.push({ type: 'info', code: 'price_filter_ignored', content: `Prices are in ${shop.currency}; a price filter in ${currency} was not applied.`, path: '$.filters.price' });
    return {};
  }
  return { min: price.min, max: price.max };
}

function inBounds(record: ProductRecord, bounds: { min?: number | undefined; max?: number | undefined }): boolean {
  return (bounds.min === undefined || record.priceDkk >= bounds.min) && (bounds.max === undefined || record.priceDkk <= bounds.max);
}

async function shopOf(db: Db, baseUrl: string): Promise<Shop> {
  return { currency: (await readSettings(db)).currency, baseUrl };
}

/** POST /catalog/search, search_catalog: relevance, filters and paging exactly as products.search has them. */
export async function searchCatalogProducts(db: Db, body: unknown, baseUrl: string) {
  const request = parseRequest(SearchRequest, body);
  const query = request.query?.trim() || undefined;
  const categories = request.filters?.categories;
  if (query === undefined && !categories?.length && !request.filters?.price) {
    throw invalid('Invalid request: send a query, or filters (categories, price) to browse');
  }
  const shop = await shopOf(db, baseUrl);
  const messages: Message[] = [];
  const bounds = priceBounds(request.filters, request.context?.currency, shop, messages);
  const offset = readCursor(request.pagination?.cursor);
  const limit = Math.min(request.pagination?.limit ?? DEFAULT_PAGE, MAX_PAGE);
  // One more than the page tells whether another page follows.
  const found = await searchCatalogRecords(db, {
    q: query, categorySlugs: categories?.length ? categories : undefined, minPriceOere: bounds.min, maxPriceOere: bounds.max, limit: limit + 1, offset,
  });
  const next = offset + limit;
  const hasNext = found.length > limit && next <= MAX_OFFSET;
  return {
    ucp: envelope('dev.ucp.shopping.catalog.search'),
    products: found.slice(0, limit).map((record) => ucpProduct(record, shop)),
    pagination: hasNext ? { cursor: writeCursor(next), has_next_page: true } : { has_next_page: false },
    ...(messages.length > 0 ? { messages } : {}),
  };
}

/** POST /catalog/lookup, lookup_catalog: each product once, its variant saying which identifiers reached it. */
export async function lookupCatalog(db: Db, body: unknown, baseUrl: string) {
  const request = parseRequest(LookupRequest, body);
  const ids = [...new Set(request.ids)];
  if (ids.length > MAX_LOOKUP_IDS) throw new UcpError(400, 'REQUEST_TOO_LARGE', `A lookup names at most ${MAX_LOOKUP_IDS} identifiers; this one names ${ids.length}.`);
  const shop = await shopOf(db, baseUrl);
  const messages: Message[] = [];
  const bounds = priceBounds(request.filters, request.context?.currency, shop, messages);
  const records = await productRecordsByAnyKey(db, ids);
  const resolved = new Set<string>();
  const products = records.flatMap((record) => {
    const inputs: InputMatch[] = ids.flatMap((id) => {
      const match = matchOf(record, id);
      return match ? [{ id, match }] : [];
    });
    for (const input of inputs) resolved.add(input.id);
    return inputs.length > 0 && inBounds(record, bounds) ? [ucpProduct(record, shop, inputs)] : [];
  });
  for (const id of ids) if (!resolved.has(id)) messages.push({ type: 'info', code: 'not_found', content: id });
  return { ucp: envelope('dev.ucp.shopping.catalog.lookup'), products, ...(messages.length > 0 ? { messages } : {}) };
}

/**
 * POST /catalog/product, get_product: the product a product or variant id names. A Butik product has no option
 * axes, so `selected` and `preferences` have nothing to narrow and `selected` is left out. Unknown → not_found.
 */
export async function getCatalogProduct(db: Db, body: unknown, baseUrl: string) {
  const request = parseRequest(GetProductRequest, body);
  const shop = await shopOf(db, baseUrl);
  const messages: Message[] = [];
  const bounds = priceBounds(request.filters, request.context?.currency, shop, messages);
  // A variant id names its product before another product's id or handle that happens to spell the same text.
  const candidates = (await productRecordsByAnyKey(db, [request.id])).filter((candidate) => inBounds(candidate, bounds));
  const record = candidates.find((candidate) => matchOf(candidate, request.id) === 'exact')
    ?? candidates.find((candidate) => matchOf(candidate, request.id) !== undefined);
  if (!record) throw new Outcome('not_found', `Product not found: ${request.id}`);
  return { ucp: envelope('dev.ucp.shopping.catalog.lookup'), product: ucpProduct(record, shop), ...(messages.length > 0 ? { messages } : {}) };
}
