import { eq, inArray } from 'drizzle-orm';
import { categories, discounts, products } from '../db/schema.ts';
import { slugify } from '../domain/slugify.ts';
import { normalizeCode } from '../schema/discount.ts';
import { Slug } from '../schema/common.ts';
import { PRODUCT_COLUMNS } from '../shop/product-read.ts';
import { SearchVocabulary } from '../shop/search-vocabulary.ts';
import { readSettings, writeSetting } from '../shop/settings.ts';
import type { ImportRows } from './files.ts';
import { batches } from './pace.ts';
import { changedValues } from './run.ts';
import type { ImportRun } from './run.ts';

/**
 * What the shop sells and at what price: products with their categories and stock, discount codes, the currency.
 * Each change is audited like the tool that would make it, so audit.revert undoes it.
 */

export async function importCurrency(run: ImportRun, code: string): Promise<void> {
  if ((await readSettings(run.db)).currency === code) {
    run.count('currency', 'unchanged');
    return;
  }
  const { before, after } = await writeSetting(run.db, { key: 'currency', value: code, now: run.now });
  await run.audit('settings', 'currency', before, after);
  run.count('currency', before ? 'updated' : 'created');
}

/**
 * search_words.csv is the shop's whole search vocabulary (the setting searchVocabulary): its rows replace the
 * words the shop had, in one audited settings change that audit.revert undoes, as settings.update would make it.
 * An import without the file leaves the vocabulary alone.
 */
export async function importSearchWords(run: ImportRun, rows: ImportRows['search_words.csv']): Promise<void> {
  const [first] = rows;
  if (!first) return;
  const words: Record<string, string[]> = {};
  const ignore: string[] = [];
  for (const { row } of rows) {
    if (row.means.length === 0) ignore.push(row.word);
    else words[row.word] = row.means;
  }
  const vocabulary = SearchVocabulary.safeParse({ words, ignore });
  if (!vocabulary.success) {
    run.problem('search_words.csv', first.line, vocabulary.error.issues.map((issue) => issue.message).join('; '));
    return;
  }
  const current = (await readSettings(run.db)).searchVocabulary;
  if (sameVocabulary(current, vocabulary.data)) {
    run.count('search_words.csv', 'unchanged');
    return;
  }
  const { before, after } = await writeSetting(run.db, { key: 'searchVocabulary', value: vocabulary.data, now: run.now });
  await run.audit('settings', 'searchVocabulary', before, after);
  run.count('search_words.csv', before ? 'updated' : 'created');
}

/** The same words, catalog words and ignored words, whatever order the stored document keeps its keys in. */
function sameVocabulary(a: SearchVocabulary, b: SearchVocabulary): boolean {
  const canonical = (v: SearchVocabulary) => JSON.stringify([Object.entries(v.words).sort(([x], [y]) => (x < y ? -1 : 1)), [...v.ignore].sort()]);
  return canonical(a) === canonical(b);
}

/** A visible category by slug, created (title-cased from the slug) when the shop has none. */
async function categoryIdFor(run: ImportRun, slug: string, line: number): Promise<string | undefined> {
  if (!Slug.safeParse(slug).success) {
    run.problem('products.csv', line, `category: "${slug}" is not a slug (lowercase letters, digits and hyphens)`);
    return undefined;
  }
  const [existing] = await run.db.select().from(categories).where(eq(categories.slug, slug)).for('update');
  if (existing?.deletedAt) {
    run.problem('products.csv', line, `category: "${slug}" was deleted; restore it with audit.revert or name another`);
    return undefined;
  }
  if (existing) return existing.id;
  const name = slug.split('-').join(' ').replace(/^./, (first) => first.toUpperCase());
  const [created] = await run.db.insert(categories).values({ slug, name }).returning();
  if (!created) throw new Error('category insert returned no row');
  await run.audit('category', created.id, null, created);
  run.count('categories', 'created');
  return created.id;
}

export async function importProducts(run: ImportRun, rows: ImportRows, defaultCategory: string): Promise<void> {
  const stockBySku = new Map<string, number>();
  const firstLine = new Map<string, number>();
  for (const { line, row } of rows['products.csv']) {
    const earlier = firstLine.get(row.id);
    if (earlier !== undefined) run.problem('products.csv', line, `id: "${row.id}" is also on line ${earlier}`);
    else firstLine.set(row.id, line);
    if (row.stock !== undefined) stockBySku.set(row.id, row.stock);
  }
  const inventory = rows['inventory.csv'];
  const known = await knownSkus(run, inventory.map(({ row }) => row.product_id).filter((sku) => !firstLine.has(sku)));
  for (const { line, row } of inventory) {
    await run.pace();
    if (!firstLine.has(row.product_id) && !known.has(row.product_id)) {
      run.problem('inventory.csv', line, `product_id: no product "${row.product_id}" in products.csv or the shop`);
    }
    stockBySku.set(row.product_id, row.quantity);
  }

  const categoryIds = new Map<string, string | undefined>();
  for (const { line, row } of rows['products.csv']) {
    await run.pace();
    if (firstLine.get(row.id) !== line) continue;
    const categorySlug = row.category ?? defaultCategory;
    if (!categoryIds.has(categorySlug)) categoryIds.set(categorySlug, await categoryIdFor(run, categorySlug, line));
    const categoryId = categoryIds.get(categorySlug);
    if (categoryId === undefined) continue;
    await upsertProduct(run, line, row, { categoryId, stock: stockBySku.get(row.id) });
    stockBySku.delete(row.id);
  }
  // Inventory rows for products that only the shop knows: a stock change alone.
  await restock(run, [...stockBySku].filter(([sku]) => known.has(sku)));
}

/** The SKUs the shop has, looked up a batch at a time (one list of 150,000 parameters overflows the stack). */
async function knownSkus(run: ImportRun, skus: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (const batch of batches(skus)) {
    const found = await run.db.select({ sku: products.sku }).from(products).where(inArray(products.sku, batch));
    for (const { sku } of found) if (sku !== null) known.add(sku);
    await run.pace();
  }
  return known;
}

async function upsertProduct(run: ImportRun, 
  line: number,
  row: ImportRows['products.csv'][number]['row'],
  extra: { categoryId: string; stock: number | undefined },
): Promise<void> {
  const wanted = {
    name: row.title,
    priceDkk: row.price,
    categoryId: extra.categoryId,
    ...(row.image_url === undefined ? {} : { images: [{ url: row.image_url }] }),
    ...(row.description === undefined ? {} : { description: row.description }),
    ...(row.brand === undefined ? {} : { brand: row.brand }),
    ...(extra.stock === undefined ? {} : { stock: extra.stock }),
  };
  const [existing] = await run.db.select(PRODUCT_COLUMNS).from(products).where(eq(products.sku, row.id)).for('update');
  if (existing) {
    const changes = changedValues(existing, existing.deletedAt ? { ...wanted, deletedAt: null } : wanted);
    if (Object.keys(changes).length === 0) {
      run.count('products.csv', 'unchanged');
      return;
    }
    const [after] = await run.db.update(products).set({ ...changes, updatedAt: run.now })
      .where(eq(products.id, existing.id)).returning(PRODUCT_COLUMNS);
    await run.audit('product', existing.id, existing, after);
    run.count('products.csv', 'updated');
    return;
  }
  const slug = slugify(row.id);
  if (!Slug.safeParse(slug).success) {
    run.problem('products.csv', line, `id: "${row.id}" gives no usable slug (at least 2 letters or digits)`);
    return;
  }
  const [taken] = await run.db.select({ sku: products.sku }).from(products).where(eq(products.slug, slug));
  if (taken) {
    run.problem('products.csv', line, `id: the slug "${slug}" made from "${row.id}" belongs to another product`
      + `${taken.sku ? ` (id "${taken.sku}")` : ''}; rename one of them`);
    return;
  }
  const [created] = await run.db.insert(products).values({
    description: row.title,
    stock: 0,
    ...wanted,
    slug,
    sku: row.id,
  }).returning(PRODUCT_COLUMNS);
  if (!created) throw new Error('product insert returned no row');
  await run.audit('product', created.id, null, created);
  run.count('products.csv', 'created');
}

/** New stock figures for products the shop has, read and locked a batch at a time; each change audited. */
async function restock(run: ImportRun, stockBySku: ReadonlyArray<[string, number]>): Promise<void> {
  for (const batch of batches(stockBySku)) {
    const wanted = new Map(batch);
    const rows = await run.db.select(PRODUCT_COLUMNS).from(products).where(inArray(products.sku, [...wanted.keys()])).for('update');
    for (const existing of rows) {
      await run.pace();
      const stock = existing.sku === null ? undefined : wanted.get(existing.sku);
      if (stock === undefined) continue;
      if (existing.stock === stock) {
        run.count('inventory.csv', 'unchanged');
        continue;
      }
      const [after] = await run.db.update(products).set({ stock, updatedAt: run.now })
        .where(eq(products.id, existing.id)).returning(PRODUCT_COLUMNS);
      await run.audit('product', existing.id, existing, after);
      run.count('inventory.csv', 'updated');
    }
  }
}

export async function importDiscounts(run: ImportRun, rows: ImportRows['discounts.csv']): Promise<void> {
  for (const { row } of rows) {
    await run.pace();
    const code = normalizeCode(row.code);
    const wanted = { type: row.type === 'percentage' ? 'percent' as const : 'fixed' as const, value: row.value, title: row.description ?? null };
    const [existing] = await run.db.select().from(discounts).where(eq(discounts.code, code)).for('update');
    if (!existing) {
      const [created] = await run.db.insert(discounts).values({ code, ...wanted }).returning();
      if (!created) throw new Error('discount insert returned no row');
      await run.audit('discount', created.id, null, created);
      run.count('discounts.csv', 'created');
      continue;
    }
    const changes = changedValues(existing, wanted);
    if (Object.keys(changes).length === 0) {
      run.count('discounts.csv', 'unchanged');
      continue;
    }
    const [after] = await run.db.update(discounts).set({ ...changes, updatedAt: run.now })
      .where(eq(discounts.id, existing.id)).returning();
    await run.audit('discount', existing.id, existing, after);
    run.count('discounts.csv', 'updated');
  }
}
