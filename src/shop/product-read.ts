import { and, eq, getTableColumns, inArray, isNull, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { preparedStatement } from '../db/prepared.ts';
import { categories, products } from '../db/schema.ts';
import type { ProductImage } from '../db/schema.ts';
import { rowVersion, versionToken } from './record-version.ts';

/**
 * The product read model every face shares: which columns of a product (and of its category) a reader
 * gets, the join that brings them together, and the record they become. products.get, the shop's pages
 * and UCP's line items each shape this record into their own answer; none lists columns of its own.
 */

const {
  searchVector: _searchVector, nameVector: _nameVector, searchCategory: _searchCategory, lowStock: _lowStock, ...storedColumns
} = getTableColumns(products);
/**
 * Every product column but what the database derives from the others (the two generated tsvectors, the trigger-kept
 * copy of the category's name and the low-stock flag), which writes and snapshots never need.
 */
export const PRODUCT_COLUMNS = storedColumns;
export type ProductRow = Omit<typeof products.$inferSelect, 'searchVector' | 'nameVector' | 'searchCategory' | 'lowStock'>;

/**
 * What a reader sees of a product: the sellable facts, not the answer-engine content or the bookkeeping. Catalog
 * search reads these columns too when a face wants whole records (search-query.ts).
 */
export const PRODUCT_FIELDS = {
  id: products.id,
  sku: products.sku,
  slug: products.slug,
  name: products.name,
  brand: products.brand,
  description: products.description,
  priceDkk: products.priceDkk,
  stock: products.stock,
  featured: products.featured,
  frameColor: products.frameColor,
  lensColor: products.lensColor,
  images: products.images,
  createdAt: products.createdAt,
  categorySlug: categories.slug,
  categoryName: categories.name,
  categoryDescription: categories.description,
};

export type ProductRecord = {
  id: string;
  /** The merchant's own product id when it has one (butik import sets it). */
  sku: string | null;
  slug: string;
  name: string;
  brand: string | null;
  description: string;
  priceDkk: number;
  stock: number;
  featured: boolean;
  frameColor: string | null;
  lensColor: string | null;
  images: ProductImage[];
  createdAt: Date;
  category: { slug: string; name: string; description: string | null };
};

/** A product that is not soft-deleted; and one whose category is not either (what shoppers may see). */
export const productIsVisible = isNull(products.deletedAt);
export const categoryIsVisible = isNull(categories.deletedAt);

/** Products with their category, filtered by the caller's conditions. */
export function productRecordQuery(db: Queryable) {
  return db.select(PRODUCT_FIELDS).from(products).innerJoin(categories, eq(categories.id, products.categoryId));
}

/** A row of PRODUCT_FIELDS, before it becomes a record. */
export type ProductRecordRow = Awaited<ReturnType<typeof productRecordQuery>>[number];

/**
 * Field by field rather than by rest and spread: a catalog search turns a page of rows into records on every
 * request, and an object rest copies a row many times slower than this (about 0.1 ms a page, profiled under load).
 */
export function toProductRecord(row: ProductRecordRow): ProductRecord {
  return {
    id: row.id, sku: row.sku, slug: row.slug, name: row.name, brand: row.brand, description: row.description,
    priceDkk: row.priceDkk, stock: row.stock, featured: row.featured, frameColor: row.frameColor, lensColor: row.lensColor,
    images: row.images, createdAt: row.createdAt,
    category: { slug: row.categorySlug, name: row.categoryName, description: row.categoryDescription },
  };
}

/** The records of the products that meet `where`, in no particular order. */
export async function productRecordsWhere(db: Queryable, where: SQL | undefined): Promise<ProductRecord[]> {
  return (await productRecordQuery(db).where(where)).map(toProductRecord);
}

/**
 * The reads a UCP checkout sends on every create, update and completion, named prepared statements like the cart
 * path's (db/prepared.ts): the ids or keys go as one array, so one statement serves any number of lines.
 */
const byIds = preparedStatement((db) => productRecordQuery(db)
  .where(and(productIsVisible, sql`${products.id} = any(${sql.placeholder('ids')}::text[])`))
  .prepare('products_by_ids'));
const bySkuOrSlug = preparedStatement((db) => productRecordQuery(db)
  .where(and(productIsVisible, or(sql`${products.sku} = any(${sql.placeholder('keys')}::text[])`, sql`${products.slug} = any(${sql.placeholder('keys')}::text[])`)))
  .prepare('products_by_sku_or_slug'));

/** Visible products by Butik id (soft-deleted ones are missing). */
export async function productRecordsById(db: Queryable, ids: readonly string[]): Promise<ProductRecord[]> {
  return (await byIds(db).execute({ ids: [...ids] })).map(toProductRecord);
}

/** Visible products whose SKU or slug is one of `keys`. */
export async function productRecordsBySkuOrSlug(db: Queryable, keys: readonly string[]): Promise<ProductRecord[]> {
  return (await bySkuOrSlug(db).execute({ keys: [...keys] })).map(toProductRecord);
}

/**
 * Visible products of visible categories that `keys` name by id, SKU or slug: a catalog lookup that takes any of
 * a product's identifiers (UCP's lookup_catalog and get_product).
 */
export function productRecordsByAnyKey(db: Queryable, keys: readonly string[]): Promise<ProductRecord[]> {
  const named = or(inArray(products.id, [...keys]), inArray(products.sku, [...keys]), inArray(products.slug, [...keys]));
  return productRecordsWhere(db, and(productIsVisible, categoryIsVisible, named));
}

/**
 * A visible product of a visible category by slug, with its version token: products.get's one read, a hot path,
 * so a named prepared statement built once (db/prepared.ts) that also reads the row's version (record-version.ts),
 * so the token is that of what it shows without a second query or a transaction.
 */
const bySlug = preparedStatement((db) => db.select({ ...PRODUCT_FIELDS, xmin: rowVersion(products) })
  .from(products).innerJoin(categories, eq(categories.id, products.categoryId))
  .where(and(eq(products.slug, sql.placeholder('slug')), productIsVisible, categoryIsVisible))
  .prepare('products_get_by_slug'));

export async function productRecordBySlug(db: Queryable, slug: string): Promise<{ record: ProductRecord; version: string } | undefined> {
  const [row] = await bySlug(db).execute({ slug });
  return row ? { record: toProductRecord(row), version: versionToken(row.id, row.xmin) } : undefined;
}
