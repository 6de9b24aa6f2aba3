import { eq, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { preparedStatement } from '../db/prepared.ts';
import { promotions, shippingRates } from '../db/schema.ts';
import type { ShippingBook } from '../domain/pricing.ts';
import { readSettings } from './settings.ts';

/** What shipping costs in this shop, read for the cart tools, cart.checkout and the UCP checkout alike. */

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
