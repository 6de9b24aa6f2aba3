import { and, asc, isNull, lte } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { products } from '../db/schema.ts';

/** The visible products with the fewest units left, at most `threshold`: what the console's overview warns about. */
export function lowStock(db: Queryable, options: { threshold: number; limit: number }) {
  return db.select({ slug: products.slug, name: products.name, stock: products.stock }).from(products)
    .where(and(isNull(products.deletedAt), lte(products.stock, options.threshold)))
    .orderBy(asc(products.stock), asc(products.slug)).limit(options.limit);
}
