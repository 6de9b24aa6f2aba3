import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { preparedStatement } from '../db/prepared.ts';
import { auditEntries, categories, products } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { Queryable } from '../db/client.ts';
import { PRODUCT_COLUMNS } from './product-read.ts';
import type { ProductRow } from './product-read.ts';

export type CategoryRow = typeof categories.$inferSelect;

/** A visible (not soft-deleted) product, locked for update when inside a write. */
export async function findProduct(db: Queryable, slug: string, options: { lock?: boolean } = {}): Promise<ProductRow> {
  const [row] = await (options.lock ? visibleProductForUpdate : visibleProduct)(db).execute({ slug });
  if (!row) throw await productNotFound(db, slug);
  return row;
}

/** A visible product as a cart line needs it: its id, slug, SKU (promotions name it), name and current price. */
export type LineProduct = Pick<ProductRow, 'id' | 'slug' | 'sku' | 'name' | 'priceDkk'>;

/**
 * findProduct for a cart line (cart.create, cart.set_item): the same visible product and the same not_found, without
 * the rest of the record (description, images, answer-engine content), which a line never shows and each call
 * would otherwise fetch, parse and map.
 */
export async function findLineProduct(db: Queryable, slug: string): Promise<LineProduct> {
  const [row] = await visibleLineProduct(db).execute({ slug });
  if (!row) throw await productNotFound(db, slug);
  return row;
}

/** Every cart line starts here, so it is a prepared statement. */
const visibleLineProduct = preparedStatement((db) => db
  .select({ id: products.id, slug: products.slug, name: products.name, priceDkk: products.priceDkk, sku: products.sku }).from(products)
  .where(and(eq(products.slug, sql.placeholder('slug')), isNull(products.deletedAt)))
  .prepare('shop_visible_line_product_by_slug'));

/** findProduct's statements: the whole visible record, plain or locked for a product write. */
const visibleProductQuery = (db: Queryable) => db.select(PRODUCT_COLUMNS).from(products)
  .where(and(eq(products.slug, sql.placeholder('slug')), isNull(products.deletedAt)));
const visibleProduct = preparedStatement((db) => visibleProductQuery(db).prepare('shop_visible_product_by_slug'));
const visibleProductForUpdate = preparedStatement((db) => visibleProductQuery(db).for('update').prepare('shop_visible_product_by_slug_for_update'));

/**
 * The not_found for a slug no visible product has. A soft-deleted product keeps its slug, so the answer can
 * say it was deleted and name the audit entry whose revert brings it back (docs/behaviour.md#problem-members-an-agent-can-act-on): the latest entry of
 * a deleted product is its deletion, because a deleted product cannot be edited.
 */
export async function productNotFound(db: Queryable, slug: string): Promise<ToolError> {
  const [deleted] = await db.select({ id: products.id, deletedAt: products.deletedAt }).from(products)
    .where(and(eq(products.slug, slug), isNotNull(products.deletedAt)));
  if (!deleted) return new ToolError('not_found', `No product with slug "${slug}"; products.search finds the existing ones.`);
  const [entry] = await db.select({ id: auditEntries.id, revertedBy: auditEntries.revertedBy }).from(auditEntries)
    .where(and(eq(auditEntries.targetType, 'product'), eq(auditEntries.targetId, deleted.id)))
    .orderBy(desc(auditEntries.at), desc(auditEntries.id))
    .limit(1);
  const when = deleted.deletedAt?.toISOString() ?? 'earlier';
  if (!entry || entry.revertedBy !== null) {
    return new ToolError('not_found', `Product "${slug}" was deleted (${when}) and is no longer sold.`);
  }
  return new ToolError(
    'not_found',
    `Product "${slug}" was deleted (${when}) and is no longer sold; audit.revert with entryId "${entry.id}" restores it.`,
    { auditEntryId: entry.id },
  );
}

/**
 * A visible category. `lock: 'share'` holds it until the write commits, so a concurrent categories.delete
 * (which locks FOR UPDATE, then counts products) waits and then sees the new product.
 */
export async function findCategory(
  db: Queryable,
  where: { id?: string; slug?: string },
  options: { lock?: 'share' } = {},
): Promise<CategoryRow> {
  const match = where.id !== undefined ? eq(categories.id, where.id) : eq(categories.slug, where.slug ?? '');
  const query = db.select().from(categories).where(and(match, isNull(categories.deletedAt)));
  const [row] = options.lock ? await query.for(options.lock) : await query;
  if (!row) {
    const named = where.id !== undefined ? `id "${where.id}"` : `slug "${where.slug}"`;
    throw new ToolError('not_found', `No category with ${named}; categories.list shows the existing ones.`);
  }
  return row;
}

/**
 * Exactly one of categoryId / categorySlug on create, at most one on update (docs/behaviour.md#other-decisions). Only writes
 * call this, so the category is share-locked until they commit.
 */
export async function resolveCategoryId(
  db: Queryable,
  ref: { categoryId?: string | undefined; categorySlug?: string | undefined },
): Promise<string | undefined> {
  if (ref.categoryId !== undefined) return (await findCategory(db, { id: ref.categoryId }, { lock: 'share' })).id;
  if (ref.categorySlug !== undefined) return (await findCategory(db, { slug: ref.categorySlug }, { lock: 'share' })).id;
  return undefined;
}

