import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { categories, products } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { Confirm, Id, NonNegativeInt, Slug } from '../schema/common.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';

const Name = z.string().min(2).max(200).meta({ description: 'Display name, 2–200 characters.', examples: ['Solbriller'] });

export const listCategories = defineTool({
  name: 'categories.list',
  description: 'List the catalog categories with the number of visible products in each, by name.',
  scope: 'categories:read',
  anonymous: true,
  annotations: readOnly('List categories'),
  input: z.strictObject({
    includeEmpty: z.boolean().default(true).meta({ description: 'false leaves out categories with no visible products.' }),
  }).meta({ examples: [{}, { includeEmpty: false }] }),
  output: z.array(z.strictObject({
    id: Id,
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    productCount: NonNegativeInt.meta({ description: 'Visible (not deleted) products in the category.' }),
  })),
  async handler({ includeEmpty }, { db }) {
    const productCount = count(products.id);
    const rows = await db
      .select({
        id: categories.id,
        slug: categories.slug,
        name: categories.name,
        description: categories.description,
        productCount,
      })
      .from(categories)
      .leftJoin(products, and(eq(products.categoryId, categories.id), isNull(products.deletedAt)))
      .where(isNull(categories.deletedAt))
      .groupBy(categories.id)
      .having(includeEmpty ? undefined : sql`${productCount} > 0`)
      .orderBy(asc(categories.name), asc(categories.id));
    return rows;
  },
});

export const upsertCategory = defineTool({
  name: 'categories.upsert',
  description: 'Create a category, or update the name (and description, when given) of the one with this slug.',
  scope: 'categories:write',
  annotations: write('Create or update category', { idempotent: true }),
  input: z.strictObject({
    slug: Slug,
    name: Name,
    description: z.string().max(2000).optional().meta({ description: 'Omitted: an existing description stays.' }),
  }).meta({ examples: [{ slug: 'solbriller', name: 'Solbriller', description: 'Briller med UV-beskyttende glas.' }] }),
  output: z.strictObject({ id: Id, slug: z.string(), name: z.string() }),
  async handler({ slug, name, description }, ctx) {
    const [before] = await ctx.db.select().from(categories).where(eq(categories.slug, slug)).for('update');
    const now = ctx.clock();
    const [after] = before
      ? await ctx.db.update(categories)
        .set({ name, ...(description !== undefined ? { description } : {}), deletedAt: null, updatedAt: now })
        .where(eq(categories.id, before.id)).returning()
      : await ctx.db.insert(categories).values({ slug, name, description: description ?? null })
        .onConflictDoUpdate({
          target: categories.slug,
          set: { name, ...(description !== undefined ? { description } : {}), deletedAt: null, updatedAt: now },
        }).returning();
    if (!after) throw new Error('category upsert returned no row');
    // A revived (soft-deleted) category keeps its deleted row as `before`, so a revert deletes it again.
    await ctx.audit({ targetType: 'category', targetId: after.id, before: before ?? null, after });
    return { id: after.id, slug: after.slug, name: after.name };
  },
});

export const deleteCategory = defineTool({
  name: 'categories.delete',
  description: 'Delete an empty category (422 category_not_empty while it has visible products). Requires confirm: true.',
  scope: 'categories:write',
  annotations: write('Delete category', { idempotent: true, destructive: true }),
  input: z.strictObject({ slug: Slug, confirm: Confirm }).meta({ examples: [{ slug: 'solbriller', confirm: true }] }),
  output: z.strictObject({ ok: z.literal(true), slug: z.string() }),
  async handler({ slug }, ctx) {
    const [before] = await ctx.db.select().from(categories)
      .where(and(eq(categories.slug, slug), isNull(categories.deletedAt))).for('update');
    if (!before) throw new ToolError('not_found', `No category with slug "${slug}".`);
    const [inUse] = await ctx.db.select({ n: count() }).from(products)
      .where(and(eq(products.categoryId, before.id), isNull(products.deletedAt)));
    if (inUse && inUse.n > 0) {
      throw new ToolError('category_not_empty', `Category "${slug}" still has ${inUse.n} product(s).`);
    }
    const [after] = await ctx.db.update(categories).set({ deletedAt: ctx.clock(), updatedAt: ctx.clock() })
      .where(eq(categories.id, before.id)).returning();
    await ctx.audit({ targetType: 'category', targetId: before.id, before, after });
    return { ok: true as const, slug };
  },
});

export const categoryTools: AnyTool[] = [listCategories, upsertCategory, deleteCategory];
