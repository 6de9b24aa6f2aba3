import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { categories, products } from '../db/schema.ts';
import { categoryIsVisible, productIsVisible, productRecordQuery, toProductRecord } from '../shop/product-read.ts';
import type { ProductRecord } from '../shop/product-read.ts';

/**
 * What the public shop pages read of the catalog: visible products and categories only, in the shapes the
 * views need. The site reads the database through this module, never through the tools.
 */
export type ShopCategory = { slug: string; name: string; description: string | null; productCount: number };

/** A product as the shop's pages show it: the shared record, with a SKU always there for schema.org data. */
export type ShopProduct = Omit<ProductRecord, 'sku'> & { sku: string };

function toShopProduct(record: ProductRecord): ShopProduct {
  // The merchant's own SKU when it has one (butik import sets it); else the product id, stable and unique.
  return { ...record, sku: record.sku ?? record.id };
}

/** Categories with at least one visible product, by name, with their counts. */
export async function listShopCategories(db: Db): Promise<ShopCategory[]> {
  const rows = await db.select({
    slug: categories.slug, name: categories.name, description: categories.description, productCount: count(products.id),
  }).from(categories)
    .innerJoin(products, and(eq(products.categoryId, categories.id), productIsVisible))
    .where(categoryIsVisible)
    .groupBy(categories.id)
    .orderBy(asc(categories.name));
  return rows;
}

/** A visible category, empty or not. */
export async function findShopCategory(db: Db, slug: string): Promise<ShopCategory | undefined> {
  const [row] = await db.select({
    slug: categories.slug, name: categories.name, description: categories.description, productCount: count(products.id),
  }).from(categories)
    .leftJoin(products, and(eq(products.categoryId, categories.id), productIsVisible))
    .where(and(eq(categories.slug, slug), categoryIsVisible))
    .groupBy(categories.id);
  return row;
}

export type ProductPage = { products: ShopProduct[]; total: number };

/** One page of visible products, featured first, then newest: what a shopper wants to see first. */
export async function listShopProducts(
  db: Db,
  options: { categorySlug?: string; featuredOnly?: boolean; limit: number; offset: number },
): Promise<ProductPage> {
  const where = and(
    productIsVisible,
    categoryIsVisible,
    options.categorySlug === undefined ? undefined : eq(categories.slug, options.categorySlug),
    options.featuredOnly ? eq(products.featured, true) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    productRecordQuery(db).where(where)
      .orderBy(desc(products.featured), desc(products.createdAt), desc(products.id))
      .limit(options.limit).offset(options.offset),
    db.select({ n: count() }).from(products).innerJoin(categories, eq(categories.id, products.categoryId)).where(where),
  ]);
  return { products: rows.map((row) => toShopProduct(toProductRecord(row))), total: total?.n ?? 0 };
}

export async function findShopProduct(db: Db, slug: string): Promise<ShopProduct | undefined> {
  const [row] = await productRecordQuery(db).where(and(eq(products.slug, slug), productIsVisible, categoryIsVisible));
  return row ? toShopProduct(toProductRecord(row)) : undefined;
}
