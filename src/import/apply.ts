import { isDeepStrictEqual } from 'node:util';
import { eq, inArray, sql } from 'drizzle-orm';
import { appendAudit } from '../access/audit-log.ts';
import type { Actor } from '../access/actor.ts';
import type { Db, Queryable } from '../db/client.ts';
import {
  categories, customerAddresses, customers, discounts, products, promotions, shippingRates,
} from '../db/schema.ts';
import { slugify } from '../domain/slugify.ts';
import { normalizeCode } from '../schema/discount.ts';
import { Slug } from '../schema/common.ts';
import { PRODUCT_COLUMNS } from '../shop/catalog.ts';
import { writeSetting } from '../shop/settings.ts';
import type { ImportFileName, ImportRows } from './files.ts';
import type { ImportProblem } from './read-files.ts';

export type ImportOptions = {
  /** ISO 4217; sets the shop currency in the same transaction. */
  currency?: string;
  /** Category slug for products whose row names none; default `uncategorized`. */
  category?: string;
  dryRun: boolean;
  now: Date;
};

export type Outcome = 'created' | 'updated' | 'unchanged';
export type ImportCounts = Partial<Record<ImportFileName | 'categories' | 'currency', Record<Outcome, number>>>;

/** The import could not be written as given; the transaction rolled back and nothing changed. */
export class ImportRejected extends Error {
  constructor(readonly problems: ImportProblem[]) {
    super(`${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was written`);
  }
}

/** Carries a dry run's counts out of the transaction it rolls back. */
class DryRunDone extends Error {
  constructor(readonly counts: ImportCounts) {
    super('dry run');
  }
}

const IMPORTER: Actor = { kind: 'cli' };
const DEFAULT_CATEGORY = 'uncategorized';

/**
 * Writes every row in one transaction, each upserted by its natural key (SKU, code, id), so a second run of the
 * same files changes nothing. Products, categories, discounts and the currency are audited like the tools that
 * change them, so audit.revert can undo an import row by row. Any problem rolls everything back.
 */
export async function applyImport(db: Db, rows: ImportRows, options: ImportOptions): Promise<ImportCounts> {
  try {
    return await db.transaction(async (tx) => {
      const run = new ImportRun(tx, options.now);
      if (options.currency !== undefined) await run.currency(options.currency);
      await run.products(rows, options.category ?? DEFAULT_CATEGORY);
      await run.discounts(rows['discounts.csv']);
      await run.shippingRates(rows['shipping_rates.csv']);
      await run.promotions(rows['promotions.csv']);
      await run.customers(rows['customers.csv'], rows['addresses.csv']);
      if (run.problems.length > 0) throw new ImportRejected(run.problems);
      if (options.dryRun) throw new DryRunDone(run.counts);
      return run.counts;
    });
  } catch (error) {
    if (error instanceof DryRunDone) return error.counts;
    throw error;
  }
}

/** The stored values that differ from the wanted ones; jsonb arrays and objects compare by content. */
function changedValues<T extends Record<string, unknown>>(stored: Record<string, unknown>, wanted: T): Partial<T> {
  return Object.fromEntries(Object.entries(wanted).filter(([field, value]) => !isDeepStrictEqual(stored[field], value))) as Partial<T>;
}

class ImportRun {
  readonly problems: ImportProblem[] = [];
  readonly counts: ImportCounts = {};

  constructor(private readonly db: Queryable, private readonly now: Date) {}

  private count(kind: keyof ImportCounts, outcome: Outcome): void {
    const tally = this.counts[kind] ?? { created: 0, updated: 0, unchanged: 0 };
    tally[outcome] += 1;
    this.counts[kind] = tally;
  }

  private problem(file: ImportFileName, line: number, message: string): void {
    this.problems.push({ file, line, message });
  }

  private audit(targetType: string, targetId: string, before: unknown, after: unknown): Promise<string> {
    return appendAudit(this.db, {
      record: { targetType, targetId, before, after }, actor: IMPORTER, channel: 'cli', tool: 'import', at: this.now,
    });
  }

  async currency(code: string): Promise<void> {
    const { before, after } = await writeSetting(this.db, { key: 'currency', value: code, now: this.now });
    if (before && isDeepStrictEqual(before.value, after.value)) {
      this.count('currency', 'unchanged');
      return;
    }
    await this.audit('settings', 'currency', before, after);
    this.count('currency', before ? 'updated' : 'created');
  }

  /** A visible category by slug, created (title-cased from the slug) when the shop has none. */
  private async categoryId(slug: string, line: number): Promise<string | undefined> {
    if (!Slug.safeParse(slug).success) {
      this.problem('products.csv', line, `category: "${slug}" is not a slug (lowercase letters, digits and hyphens)`);
      return undefined;
    }
    const [existing] = await this.db.select().from(categories).where(eq(categories.slug, slug)).for('update');
    if (existing?.deletedAt) {
      this.problem('products.csv', line, `category: "${slug}" was deleted; restore it with audit.revert or name another`);
      return undefined;
    }
    if (existing) return existing.id;
    const name = slug.split('-').join(' ').replace(/^./, (first) => first.toUpperCase());
    const [created] = await this.db.insert(categories).values({ slug, name }).returning();
    if (!created) throw new Error('category insert returned no row');
    await this.audit('category', created.id, null, created);
    this.count('categories', 'created');
    return created.id;
  }

  async products(rows: ImportRows, defaultCategory: string): Promise<void> {
    const stockBySku = new Map<string, number>();
    const firstLine = new Map<string, number>();
    for (const { line, row } of rows['products.csv']) {
      const earlier = firstLine.get(row.id);
      if (earlier !== undefined) this.problem('products.csv', line, `id: "${row.id}" is also on line ${earlier}`);
      else firstLine.set(row.id, line);
      if (row.stock !== undefined) stockBySku.set(row.id, row.stock);
    }
    const inventory = rows['inventory.csv'];
    const known = await this.knownSkus(inventory.map(({ row }) => row.product_id).filter((sku) => !firstLine.has(sku)));
    for (const { line, row } of inventory) {
      if (!firstLine.has(row.product_id) && !known.has(row.product_id)) {
        this.problem('inventory.csv', line, `product_id: no product "${row.product_id}" in products.csv or the shop`);
      }
      stockBySku.set(row.product_id, row.quantity);
    }

    const categoryIds = new Map<string, string | undefined>();
    for (const { line, row } of rows['products.csv']) {
      if (firstLine.get(row.id) !== line) continue;
      const categorySlug = row.category ?? defaultCategory;
      if (!categoryIds.has(categorySlug)) categoryIds.set(categorySlug, await this.categoryId(categorySlug, line));
      const categoryId = categoryIds.get(categorySlug);
      if (categoryId === undefined) continue;
      await this.product(line, row, { categoryId, stock: stockBySku.get(row.id) });
      stockBySku.delete(row.id);
    }
    // Inventory rows for products that only the shop knows: a stock change alone.
    for (const [sku, stock] of stockBySku) {
      if (known.has(sku)) await this.restock(sku, stock);
    }
  }

  private async knownSkus(skus: string[]): Promise<Set<string>> {
    if (skus.length === 0) return new Set();
    const found = await this.db.select({ sku: products.sku }).from(products).where(inArray(products.sku, skus));
    return new Set(found.flatMap((row) => (row.sku === null ? [] : [row.sku])));
  }

  private async product(
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
    const [existing] = await this.db.select(PRODUCT_COLUMNS).from(products).where(eq(products.sku, row.id)).for('update');
    if (existing) {
      const changes = changedValues(existing, existing.deletedAt ? { ...wanted, deletedAt: null } : wanted);
      if (Object.keys(changes).length === 0) {
        this.count('products.csv', 'unchanged');
        return;
      }
      const [after] = await this.db.update(products).set({ ...changes, updatedAt: this.now })
        .where(eq(products.id, existing.id)).returning(PRODUCT_COLUMNS);
      await this.audit('product', existing.id, existing, after);
      this.count('products.csv', 'updated');
      return;
    }
    const slug = slugify(row.id);
    if (!Slug.safeParse(slug).success) {
      this.problem('products.csv', line, `id: "${row.id}" gives no usable slug (at least 2 letters or digits)`);
      return;
    }
    const [taken] = await this.db.select({ sku: products.sku }).from(products).where(eq(products.slug, slug));
    if (taken) {
      this.problem('products.csv', line, `id: the slug "${slug}" made from "${row.id}" belongs to another product`
        + `${taken.sku ? ` (id "${taken.sku}")` : ''}; rename one of them`);
      return;
    }
    const [created] = await this.db.insert(products).values({
      description: row.title,
      stock: 0,
      ...wanted,
      slug,
      sku: row.id,
    }).returning(PRODUCT_COLUMNS);
    if (!created) throw new Error('product insert returned no row');
    await this.audit('product', created.id, null, created);
    this.count('products.csv', 'created');
  }

  private async restock(sku: string, stock: number): Promise<void> {
    const [existing] = await this.db.select(PRODUCT_COLUMNS).from(products).where(eq(products.sku, sku)).for('update');
    if (!existing) return;
    if (existing.stock === stock) {
      this.count('inventory.csv', 'unchanged');
      return;
    }
    const [after] = await this.db.update(products).set({ stock, updatedAt: this.now })
      .where(eq(products.id, existing.id)).returning(PRODUCT_COLUMNS);
    await this.audit('product', existing.id, existing, after);
    this.count('inventory.csv', 'updated');
  }

  async discounts(rows: ImportRows['discounts.csv']): Promise<void> {
    for (const { row } of rows) {
      const code = normalizeCode(row.code);
      const wanted = { type: row.type === 'percentage' ? 'percent' as const : 'fixed' as const, value: row.value, title: row.description ?? null };
      const [existing] = await this.db.select().from(discounts).where(eq(discounts.code, code)).for('update');
      if (!existing) {
        const [created] = await this.db.insert(discounts).values({ code, ...wanted }).returning();
        if (!created) throw new Error('discount insert returned no row');
        await this.audit('discount', created.id, null, created);
        this.count('discounts.csv', 'created');
        continue;
      }
      const changes = changedValues(existing, wanted);
      if (Object.keys(changes).length === 0) {
        this.count('discounts.csv', 'unchanged');
        continue;
      }
      const [after] = await this.db.update(discounts).set({ ...changes, updatedAt: this.now })
        .where(eq(discounts.id, existing.id)).returning();
      await this.audit('discount', existing.id, existing, after);
      this.count('discounts.csv', 'updated');
    }
  }

  async shippingRates(rows: ImportRows['shipping_rates.csv']): Promise<void> {
    for (const { row } of rows) {
      const wanted = { countryCode: row.country_code, serviceLevel: row.service_level, price: row.price, title: row.title };
      const [existing] = await this.db.select().from(shippingRates).where(eq(shippingRates.id, row.id)).for('update');
      this.count('shipping_rates.csv', await this.upsertPlain(existing, wanted, {
        insert: () => this.db.insert(shippingRates).values({ id: row.id, ...wanted }),
        update: (changes) => this.db.update(shippingRates).set({ ...changes, updatedAt: this.now }).where(eq(shippingRates.id, row.id)),
      }));
    }
  }

  async promotions(rows: ImportRows['promotions.csv']): Promise<void> {
    for (const { row } of rows) {
      const wanted = {
        type: row.type, minSubtotal: row.min_subtotal ?? null, eligibleSkus: row.eligible_item_ids, description: row.description,
      };
      const [existing] = await this.db.select().from(promotions).where(eq(promotions.id, row.id)).for('update');
      this.count('promotions.csv', await this.upsertPlain(existing, wanted, {
        insert: () => this.db.insert(promotions).values({ id: row.id, ...wanted }),
        update: (changes) => this.db.update(promotions).set({ ...changes, updatedAt: this.now }).where(eq(promotions.id, row.id)),
      }));
    }
  }

  async customers(rows: ImportRows['customers.csv'], addresses: ImportRows['addresses.csv']): Promise<void> {
    for (const { line, row } of rows) {
      const wanted = { name: row.name, email: row.email };
      const [sameEmail] = await this.db.select({ id: customers.id }).from(customers)
        .where(sql`lower(${customers.email}) = lower(${row.email})`);
      if (sameEmail && sameEmail.id !== row.id) {
        this.problem('customers.csv', line, `email: ${row.email} belongs to customer "${sameEmail.id}" already`);
        continue;
      }
      const [existing] = await this.db.select().from(customers).where(eq(customers.id, row.id)).for('update');
      this.count('customers.csv', await this.upsertPlain(existing, wanted, {
        insert: () => this.db.insert(customers).values({ id: row.id, ...wanted }),
        update: (changes) => this.db.update(customers).set({ ...changes, updatedAt: this.now }).where(eq(customers.id, row.id)),
      }));
    }
    for (const { line, row } of addresses) {
      const [customer] = await this.db.select({ id: customers.id }).from(customers).where(eq(customers.id, row.customer_id));
      if (!customer) {
        this.problem('addresses.csv', line, `customer_id: no customer "${row.customer_id}" in customers.csv or the shop`);
        continue;
      }
      const wanted = {
        customerId: row.customer_id, streetAddress: row.street_address, city: row.city, region: row.state ?? null,
        postalCode: row.postal_code, countryCode: row.country,
      };
      const [existing] = await this.db.select().from(customerAddresses).where(eq(customerAddresses.id, row.id)).for('update');
      this.count('addresses.csv', await this.upsertPlain(existing, wanted, {
        insert: () => this.db.insert(customerAddresses).values({ id: row.id, ...wanted }),
        update: (changes) => this.db.update(customerAddresses).set({ ...changes, updatedAt: this.now }).where(eq(customerAddresses.id, row.id)),
      }));
    }
  }

  /** Rows no tool changes, so nothing to audit: insert, update what differs, or leave alone. */
  private async upsertPlain<T extends Record<string, unknown>>(
    existing: Record<string, unknown> | undefined,
    wanted: T,
    write: { insert(): PromiseLike<unknown>; update(changes: Partial<T>): PromiseLike<unknown> },
  ): Promise<Outcome> {
    if (!existing) {
      await write.insert();
      return 'created';
    }
    const changes = changedValues(existing, wanted);
    if (Object.keys(changes).length === 0) return 'unchanged';
    await write.update(changes);
    return 'updated';
  }
}
