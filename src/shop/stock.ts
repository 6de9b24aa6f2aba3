import { and, asc, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { products } from '../db/schema.ts';

/**
 * The visible products with LOW_STOCK_UNITS or fewer left, fewest first: what the console's overview warns about.
 * Read through products_low_stock_idx, so the cost follows the few low products, not the catalog's size.
 */
export function lowStock(db: Queryable, options: { limit: number }) {
  return db.select({ slug: products.slug, name: products.name, stock: products.stock }).from(products)
    .where(and(products.lowStock, isNull(products.deletedAt)))
    .orderBy(asc(products.stock), asc(products.slug)).limit(options.limit);
}
