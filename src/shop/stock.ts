import { and, asc, isNotNull, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { products } from '../db/schema.ts';

/**
 * The visible products with LOW_STOCK_UNITS or fewer left, fewest first: what the console's overview warns about.
 * Walks products_low_stock_idx and stops after `limit` entries, however many products are low.
 */
export function lowStock(db: Queryable, options: { limit: number }) {
  return db.select({ slug: products.slug, name: products.name, stock: products.stock }).from(products)
    .where(and(isNotNull(products.lowStock), isNull(products.deletedAt)))
    .orderBy(asc(products.lowStock), asc(products.slug)).limit(options.limit);
}
