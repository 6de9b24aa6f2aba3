import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { discounts, products, promotions, shippingRates } from '../db/schema.ts';
import { normalizeCode } from '../schema/discount.ts';

export type CatalogProduct = {
  id: string;
  /** What UCP calls the item id: the SKU, else the slug. */
  itemId: string;
  title: string;
  price: number;
  stock: number;
  imageUrl: string | undefined;
};

type ProductRow = Pick<typeof products.$inferSelect, 'id' | 'sku' | 'slug' | 'name' | 'priceDkk' | 'stock' | 'images'>;

function toCatalogProduct(row: ProductRow): CatalogProduct {
  return { id: row.id, itemId: row.sku ?? row.slug, title: row.name, price: row.priceDkk, stock: row.stock, imageUrl: row.images[0]?.url };
}

const productColumns = {
  id: products.id, sku: products.sku, slug: products.slug, name: products.name, priceDkk: products.priceDkk, stock: products.stock, images: products.images,
};

/** The products a platform names by item id (SKU, else slug), withdrawn ones left out; keyed by the id it used. */
export async function productsByItemId(db: Queryable, itemIds: readonly string[]): Promise<Map<string, CatalogProduct>> {
  if (itemIds.length === 0) return new Map();
  const rows = await db.select(productColumns).from(products)
    .where(and(isNull(products.deletedAt), or(inArray(products.sku, [...itemIds]), inArray(products.slug, [...itemIds]))));
  const found = new Map<string, CatalogProduct>();
  // A SKU wins over another product's slug that happens to spell the same text: SKU matches are set last.
  for (const row of rows) if (itemIds.includes(row.slug)) found.set(row.slug, toCatalogProduct(row));
  for (const row of rows) if (row.sku !== null && itemIds.includes(row.sku)) found.set(row.sku, toCatalogProduct(row));
  return found;
}

/** The products of a session's lines by Butik id; a withdrawn product is missing from the map. */
export async function productsById(db: Queryable, ids: readonly string[]): Promise<Map<string, CatalogProduct>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select(productColumns).from(products).where(and(isNull(products.deletedAt), inArray(products.id, [...ids])));
  return new Map(rows.map((row) => [row.id, toCatalogProduct(row)]));
}

export type ShippingRate = typeof shippingRates.$inferSelect;

/** The rates for a country plus the `default` ones; the caller picks one per service level. */
export async function ratesFor(db: Queryable, countryCode: string): Promise<ShippingRate[]> {
  return db.select().from(shippingRates).where(inArray(shippingRates.countryCode, [countryCode, 'default']));
}

export async function hasAnyRate(db: Queryable): Promise<boolean> {
  const rows = await db.select({ id: shippingRates.id }).from(shippingRates).limit(1);
  return rows.length > 0;
}

export async function freeShippingPromotions(db: Queryable) {
  return db.select().from(promotions).where(eq(promotions.type, 'free_shipping'));
}
export type Promotion = Awaited<ReturnType<typeof freeShippingPromotions>>[number];

export async function discountsByCode(db: Queryable, codes: readonly string[]) {
  if (codes.length === 0) return new Map<string, typeof discounts.$inferSelect>();
  const rows = await db.select().from(discounts).where(inArray(discounts.code, codes.map(normalizeCode)));
  return new Map(rows.map((row) => [row.code, row]));
}
