import { and, eq, isNull, sql } from 'drizzle-orm';
import { categories, products } from '../db/schema.ts';
import { productNotFound } from '../shop/catalog.ts';
import type { ToolContext } from '../context.ts';

type Db = ToolContext['db'];

/**
 * products.get's one read: the product and its category in a single round trip, only the columns the result
 * needs (not the two tsvectors), as a named prepared statement built once per database handle. A hot path:
 * issue #7 wants no per-request work that could be done once.
 */
function prepare(db: Db) {
  return db.select({
    id: products.id,
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
  })
    .from(products)
    .innerJoin(categories, and(eq(categories.id, products.categoryId), isNull(categories.deletedAt)))
    .where(and(eq(products.slug, sql.placeholder('slug')), isNull(products.deletedAt)))
    .prepare('products_get_by_slug');
}

const prepared = new WeakMap<Db, ReturnType<typeof prepare>>();

export async function readProduct(db: Db, slug: string) {
  let query = prepared.get(db);
  if (query === undefined) {
    query = prepare(db);
    prepared.set(db, query);
  }
  const [row] = await query.execute({ slug });
  if (!row) throw await productNotFound(db, slug);
  return row;
}
