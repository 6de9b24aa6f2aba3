import { isDeepStrictEqual } from 'node:util';
import { asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { preparedStatement } from '../db/prepared.ts';
import { cachedRead, markConfigWritten } from '../db/read-cache.ts';
import { promotions, shippingRates } from '../db/schema.ts';
import type { ShippingBook } from '../domain/pricing.ts';
import { readSettings } from './settings.ts';

/**
 * What shipping costs in this shop: read for the cart tools, cart.checkout and the UCP checkout alike, and written by
 * the shipping.* tools.
 */

export type ShippingRateRow = typeof shippingRates.$inferSelect;
export type PromotionRow = typeof promotions.$inferSelect;

/**
 * Every rate and every free-shipping promotion, kept in memory beside the shop settings (db/read-cache.ts says how it
 * never goes stale): every cart answer and checkout prices shipping from them, and reading them was two statements
 * of each. A shop has a few rows of each (one per country and service level at most), so the whole tables are held.
 */
const allRates = preparedStatement((db) => db.select().from(shippingRates).prepare('shop_all_rates'));
const promotionsOfType = preparedStatement((db) => db.select().from(promotions)
  .where(eq(promotions.type, sql.placeholder('type'))).prepare('shop_promotions_of_type'));
const shippingTables = cachedRead(async (db) => ({
  rates: await allRates(db).execute(),
  promotions: await promotionsOfType(db).execute({ type: 'free_shipping' }),
}));

/**
 * The flat settings, rates and promotions that price shipping to any country (ShippingBook takes the shop's rates
 * whole; other countries' are ignored by the pricing rule).
 */
export async function shippingBook(db: Queryable): Promise<ShippingBook> {
  const [settings, tables] = [await readSettings(db), await shippingTables(db)];
  return { terms: settings, rates: tables.rates, promotions: tables.promotions };
}

/** Every rate and free-shipping promotion, for the owner's list: rates by country (`default` last) and level, promotions by id. */
export async function allShipping(db: Queryable): Promise<{ rates: ShippingRateRow[]; promotions: PromotionRow[] }> {
  const rates = await db.select().from(shippingRates)
    .orderBy(sql`${shippingRates.countryCode} = 'default'`, asc(shippingRates.countryCode), asc(shippingRates.serviceLevel), asc(shippingRates.id));
  const offers = await db.select().from(promotions).orderBy(asc(promotions.id));
  return { rates, promotions: offers };
}

/** A write's rows before and after; `changed` false when the row already held what was asked, and nothing was written. */
type Change<Row> = { before: Row | null; after: Row; changed: boolean };

/** Creates or replaces a rate by id, the row locked from read to write; an unchanged rate is not written. */
export async function writeRate(
  db: Queryable,
  rate: Pick<ShippingRateRow, 'id' | 'title' | 'serviceLevel' | 'countryCode' | 'price'>,
  now: Date,
): Promise<Change<ShippingRateRow>> {
  markConfigWritten(db);
  const [before] = await db.select().from(shippingRates).where(eq(shippingRates.id, rate.id)).for('update');
  if (before && sameFields(before, rate)) return { before, after: before, changed: false };
  const [after] = before
    ? await db.update(shippingRates).set({ ...rate, updatedAt: now }).where(eq(shippingRates.id, rate.id)).returning()
    : await db.insert(shippingRates).values({ ...rate, createdAt: now, updatedAt: now }).returning();
  if (!after) throw new Error('shipping rate write returned no row');
  return { before: before ?? null, after, changed: true };
}

/** Creates or replaces a free-shipping promotion by id; an unchanged one is not written. */
export async function writePromotion(
  db: Queryable,
  promotion: Pick<PromotionRow, 'id' | 'description' | 'minSubtotal' | 'eligibleSkus'>,
  now: Date,
): Promise<Change<PromotionRow>> {
  markConfigWritten(db);
  const [before] = await db.select().from(promotions).where(eq(promotions.id, promotion.id)).for('update');
  if (before && before.type === 'free_shipping' && sameFields(before, promotion)) return { before, after: before, changed: false };
  const values = { ...promotion, type: 'free_shipping' as const };
  const [after] = before
    ? await db.update(promotions).set({ ...values, updatedAt: now }).where(eq(promotions.id, promotion.id)).returning()
    : await db.insert(promotions).values({ ...values, createdAt: now, updatedAt: now }).returning();
  if (!after) throw new Error('promotion write returned no row');
  return { before: before ?? null, after, changed: true };
}

/** Deletes a rate; before is null when there was none. */
export async function removeRate(db: Queryable, id: string): Promise<ShippingRateRow | null> {
  markConfigWritten(db);
  const [before] = await db.delete(shippingRates).where(eq(shippingRates.id, id)).returning();
  return before ?? null;
}

/** Deletes a promotion; null when there was none. */
export async function removePromotion(db: Queryable, id: string): Promise<PromotionRow | null> {
  markConfigWritten(db);
  const [before] = await db.delete(promotions).where(eq(promotions.id, id)).returning();
  return before ?? null;
}

function sameFields(row: Record<string, unknown>, wanted: Record<string, unknown>): boolean {
  return Object.entries(wanted).every(([key, value]) => isDeepStrictEqual(row[key], value));
}
