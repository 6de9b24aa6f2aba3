import { isDeepStrictEqual } from 'node:util';
import { asc, eq, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { preparedStatement } from '../db/prepared.ts';
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
 * The rates for a country plus the `default` ones, and one more row when the shop has any rate at all, in one round
 * trip: a country the rates miss ships flat only in a shop without rates, so the read must tell "no rate for you"
 * from "no rates at all" (priceShipping ignores the other country's row).
 */
const ratesForCountry = preparedStatement((db) => db.select().from(shippingRates)
  .where(or(
    eq(shippingRates.countryCode, sql.placeholder('country')),
    eq(shippingRates.countryCode, 'default'),
    eq(shippingRates.id, db.select({ id: shippingRates.id }).from(shippingRates).limit(1)),
  ))
  .prepare('shop_rates_for_country'));

/** The rates a destination may ship at (`default` for a cart without one): see ratesForCountry. */
export async function ratesFor(db: Queryable, countryCode: string): Promise<ShippingRateRow[]> {
  return ratesForCountry(db).execute({ country: countryCode });
}

const promotionsOfType = preparedStatement((db) => db.select().from(promotions)
  .where(eq(promotions.type, sql.placeholder('type'))).prepare('shop_promotions_of_type'));

export async function freeShippingPromotions(db: Queryable): Promise<PromotionRow[]> {
  return promotionsOfType(db).execute({ type: 'free_shipping' });
}

/** The flat settings, rates and promotions that price shipping to `country` (none: the shop's default rule). */
export async function shippingBook(db: Queryable, country: string | undefined): Promise<ShippingBook> {
  const [settings, rates, offers] = [await readSettings(db), await ratesFor(db, country ?? 'default'), await freeShippingPromotions(db)];
  return { terms: settings, rates, promotions: offers };
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
  const [before] = await db.delete(shippingRates).where(eq(shippingRates.id, id)).returning();
  return before ?? null;
}

/** Deletes a promotion; null when there was none. */
export async function removePromotion(db: Queryable, id: string): Promise<PromotionRow | null> {
  const [before] = await db.delete(promotions).where(eq(promotions.id, id)).returning();
  return before ?? null;
}

function sameFields(row: Record<string, unknown>, wanted: Record<string, unknown>): boolean {
  return Object.entries(wanted).every(([key, value]) => isDeepStrictEqual(row[key], value));
}
