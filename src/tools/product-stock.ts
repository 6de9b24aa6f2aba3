import { and, eq, gte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { products } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { SlugRef } from '../schema/common.ts';
import { findProduct } from '../shop/catalog.ts';
import { PRODUCT_COLUMNS } from '../shop/product-read.ts';
import { defineTool, write } from './define-tool.ts';

/** Postgres integer: a change larger than this could not be stored anyway. */
const MAX_CHANGE = 2_147_483_647;

export const adjustProductStock = defineTool({
  name: 'products.adjust_stock',
  description: 'Add units to a product\'s stock or take them away (by: 3 or by: -1), counted from the stock as it is at '
    + 'that moment, so sales in between are kept; stock never goes below 0. To set a figure, use products.update.',
  scope: 'products:write',
  annotations: write('Adjust product stock', { idempotent: false }),
  input: z.strictObject({
    slug: SlugRef.meta({ description: 'The product whose stock changes.' }),
    by: z.int().min(-MAX_CHANGE).max(MAX_CHANGE).refine((by) => by !== 0, 'give a change other than 0')
      .meta({ description: 'Units to add (positive) or take away (negative).', examples: [3, -1] }),
  }).meta({ examples: [{ slug: 'aviator-classic', by: 3 }, { slug: 'aviator-classic', by: -1 }] }),
  output: z.strictObject({ id: z.string(), slug: z.string(), stock: z.int().meta({ description: 'The stock after the change.' }) }),
  async handler({ slug, by }, ctx) {
    const before = await findProduct(ctx.db, slug, { lock: true });
    // One guarded statement: the sum is taken from the row as the database holds it, never from a figure read earlier.
    const [after] = await ctx.db.update(products).set({ stock: sql`${products.stock} + ${by}`, updatedAt: ctx.clock() })
      .where(and(eq(products.id, before.id), gte(sql`${products.stock} + ${by}`, 0))).returning(PRODUCT_COLUMNS);
    if (!after) {
      throw new ToolError('validation_failed', `Product "${before.slug}" has ${before.stock} in stock; taking away ${-by} would make it negative. Nothing was changed.`,
        { errors: [{ path: 'by', message: `at most ${before.stock} can be taken away` }] });
    }
    await ctx.audit({ targetType: 'product', targetId: before.id, before, after });
    return { id: before.id, slug: before.slug, stock: after.stock };
  },
});
