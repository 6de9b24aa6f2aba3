import { inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { discounts } from '../../db/schema.ts';
import { normalizeCode } from '../../schema/discount.ts';
import { productRecordsById, productRecordsBySkuOrSlug } from '../../shop/product-read.ts';
import type { ProductRecord } from '../../shop/product-read.ts';

export type CatalogProduct = {
  id: string;
  /** What UCP calls the item id: the SKU, else the slug. */
  itemId: string;
  title: string;
  price: number;
  stock: number;
  imageUrl: string | undefined;
};

function toCatalogProduct(record: ProductRecord): CatalogProduct {
  return {
    id: record.id, itemId: record.sku ?? record.slug, title: record.name, price: record.priceDkk, stock: record.stock,
    imageUrl: record.images[0]?.url,
  };
}

/** The products a platform names by item id (SKU, else slug), withdrawn ones left out; keyed by the id it used. */
export async function productsByItemId(db: Queryable, itemIds: readonly string[]): Promise<Map<string, CatalogProduct>> {
  if (itemIds.length === 0) return new Map();
  const records = await productRecordsBySkuOrSlug(db, itemIds);
  const found = new Map<string, CatalogProduct>();
  // A SKU wins over another product's slug that happens to spell the same text: SKU matches are set last.
  for (const record of records) if (itemIds.includes(record.slug)) found.set(record.slug, toCatalogProduct(record));
  for (const record of records) if (record.sku !== null && itemIds.includes(record.sku)) found.set(record.sku, toCatalogProduct(record));
  return found;
}

/** The products of a session's lines by Butik id; a withdrawn product is missing from the map. */
export async function productsById(db: Queryable, ids: readonly string[]): Promise<Map<string, CatalogProduct>> {
  if (ids.length === 0) return new Map();
  const records = await productRecordsById(db, ids);
  return new Map(records.map((record) => [record.id, toCatalogProduct(record)]));
}

export async function discountsByCode(db: Queryable, codes: readonly string[]) {
  if (codes.length === 0) return new Map<string, typeof discounts.$inferSelect>();
  const rows = await db.select().from(discounts).where(inArray(discounts.code, codes.map(normalizeCode)));
  return new Map(rows.map((row) => [row.code, row]));
}
