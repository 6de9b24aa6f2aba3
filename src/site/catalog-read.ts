import { and, asc, count, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { categories, products } from '../db/schema.ts';
import type { ProductImage } from '../db/schema.ts';

/**
 * What the public shop pages read of the catalog: visible products and categories only, in the shapes the
 * views need. The site reads the database through this module, never through the tools.
 */
export type ShopCategory = { slug: string; name: string; description: string | null; productCount: number };

export type ShopProduct = {
  slug: string;
  name: string;
  brand: string | null;
  description: string;
  priceDkk: number;
  stock: number;
  frameColor: string | null;
  lensColor: string | null;
  images: ProductImage[];
  sku: string;
  category: { slug: string; name: string };
};

const visible = isNull(products.deletedAt);

const PRODUCT_FIELDS = {
  id: products.id,
  sku: products.sku,
  slug: products.slug,
  name: products.name,
  brand: products.brand,
  description: products.description,
  priceDkk: products.priceDkk,
  stock: products.stock,
  frameColor: products.frameColor,
  lensColor: products.lensColor,
  images: products.images,
  categorySlug: categories.slug,
  categoryName: categories.name,
};

function productQuery(db: Db) {
  return db.select(PRODUCT_FIELDS).from(products).innerJoin(categories, eq(categories.id, products.categoryId));
}

type Row = Awaited<ReturnType<typeof productQuery>>[number];

function toShopProduct(row: Row): ShopProduct {
  return {
    slug: row.slug,
    name: row.name,
    brand: row.brand,
    description: row.description,
    priceDkk: row.priceDkk,
    stock: row.stock,
    frameColor: row.frameColor,
    lensColor: row.lensColor,
    images: row.images,
    // The merchant's own SKU when it has one (butik import sets it); else the product id, stable and unique.
    sku: row.sku ?? row.id,
    category: { slug: row.categorySlug, name: row.categoryName },
  };
}

/** Categories with at least one visible product, by name, with their counts. */
export async function listShopCategories(db: Db): Promise<ShopCategory[]> {
  const rows = await db.select({
    slug: categories.slug, name: categories.name, description: categories.description, productCount: count(products.id),
  }).from(categories)
    .innerJoin(products, and(eq(products.categoryId, categories.id), visible))
    .where(isNull(categories.deletedAt))
    .groupBy(categories.id)
    .orderBy(asc(categories.name));
  return rows;
}

/** A visible category, empty or not. */
export async function findShopCategory(db: Db, slug: string): Promise<ShopCategory | undefined> {
  const [row] = await db.select({
    slug: categories.slug, name: categories.name, description: categories.description, productCount: count(products.id),
  }).from(categories)
    .leftJoin(products, and(eq(products.categoryId, categories.id), visible))
    .where(and(eq(categories.slug, slug), isNull(categories.deletedAt)))
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
    visible,
    isNull(categories.deletedAt),
    options.categorySlug === undefined ? undefined : eq(categories.slug, options.categorySlug),
    options.featuredOnly ? eq(products.featured, true) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    productQuery(db).where(where)
      .orderBy(desc(products.featured), desc(products.createdAt), desc(products.id))
      .limit(options.limit).offset(options.offset),
    db.select({ n: count() }).from(products).innerJoin(categories, eq(categories.id, products.categoryId)).where(where),
  ]);
  return { products: rows.map(toShopProduct), total: total?.n ?? 0 };
}

export async function findShopProduct(db: Db, slug: string): Promise<ShopProduct | undefined> {
  const [row] = await productQuery(db).where(and(eq(products.slug, slug), visible, isNull(categories.deletedAt)));
  return row ? toShopProduct(row) : undefined;
}
