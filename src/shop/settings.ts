import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { cachedRead, markConfigWritten } from '../db/read-cache.ts';
import { settings } from '../db/schema.ts';
import { Email, NonNegativeInt, money } from '../schema/common.ts';
import type { Queryable } from '../db/client.ts';
import { EMPTY_VOCABULARY, SearchVocabulary } from './search-vocabulary.ts';


/** The highest flat shipping price an operator can set: 10.000,00 kr. Guards against a kroner/øre mix-up. */
export const MAX_SHIPPING_DKK = 1_000_000;

/**
 * The shop settings and their defaults (docs/behaviour.md#pricing-a-cart: shippingDkk 4900, freeShippingThresholdDkk 50000).
 * Stored one row per key in `settings` as {"value": …}; a key without a row has its default.
 */
/** ISO 4217 codes this Node.js knows how to format; every amount in the shop is in the chosen one's minor unit. */
const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const Currency = z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code in capitals, e.g. DKK')
  .refine((code) => KNOWN_CURRENCIES.has(code), 'not an ISO 4217 currency code')
  .meta({ description: 'ISO 4217 currency code, e.g. DKK.', examples: ['DKK'] });

export const SettingsShape = z.strictObject({
  storeName: z.string().trim().min(1).max(200).meta({
    description: 'Shop name shown on the public pages.',
    examples: ['Butik Solbriller'],
  }),
  tagline: z.string().trim().min(1).max(200).nullable().meta({
    description: 'Short public line shown under the shop name, or null for none.',
    examples: ['Solbriller og briller med fri fragt over 500 kr.'],
  }),
  contactEmail: Email.nullable().meta({ description: 'Public contact e-mail, or null.', examples: ['hej@butik.dk'] }),
  companyAddress: z.string().trim().min(1).max(500).nullable().meta({
    description: 'Postal address of the business shown in the public footer (Danish e-commerce rules ask for it), or null.',
    examples: ['Nørregade 1, 1165 København K'],
  }),
  cvrNumber: z.string().regex(/^\d{8}$/, 'a CVR number is exactly 8 digits').nullable().meta({
    description: 'Danish company registration (CVR) number, 8 digits, shown in the public footer, or null.',
    examples: ['12345678'],
  }),
  shippingDkk: money(NonNegativeInt.max(MAX_SHIPPING_DKK), 'the flat shipping price, VAT included, 0..1000000.', 4900)
    .meta({ examples: [4900] }),
  freeShippingThresholdDkk: money(NonNegativeInt, 'orders whose subtotal minus discount reaches this amount ship free; 0 makes every order ship free.', 50000)
    .meta({ examples: [50000] }),
  stackDiscountCodes: z.boolean().meta({
    description: 'false (default): an order takes one discount code, as a cart holds one. true: a UCP checkout may combine '
      + 'several codes, each taken off what the ones before left; a cart still holds one.',
    examples: [false],
  }),
  currency: Currency.meta({
    description: 'The shop currency (ISO 4217), default DKK. Every amount is in its minor unit: øre for DKK, cents for USD. '
      + 'Orders record it; changing it does not convert any stored amount.',
    examples: ['DKK'],
  }),
  searchVocabulary: SearchVocabulary,
});
export type Settings = z.infer<typeof SettingsShape>;
export type SettingKey = keyof Settings;
export type SettingRow = typeof settings.$inferSelect;

export const DEFAULT_SETTINGS: Settings = {
  storeName: 'Butik',
  tagline: null,
  contactEmail: null,
  companyAddress: null,
  cvrNumber: null,
  shippingDkk: 4900,
  freeShippingThresholdDkk: 50000,
  stackDiscountCodes: false,
  currency: 'DKK',
  searchVocabulary: EMPTY_VOCABULARY,
};

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SettingsShape.shape, key);
}

/**
 * How a value sits in `settings.value`: wrapped in an object. A bare JSON string such as "12345678" would come
 * back from Drizzle's jsonb column as the number 12345678 (it JSON-parses strings the driver already parsed),
 * and a bare null would be sent as SQL NULL into the not-null column; {"value": …} has neither problem.
 */
const StoredValue = z.object({ value: z.unknown() });

/**
 * Stored values over the defaults; a stored value that no longer fits the shape falls back to its default. Kept in
 * memory between changes (src/db/read-cache.ts says how it never goes stale).
 */
export const readSettings: (db: Queryable) => Promise<Settings> = cachedRead(loadSettings);

async function loadSettings(db: Queryable): Promise<Settings> {
  const rows = await db.select().from(settings);
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    const stored = StoredValue.safeParse(row.value);
    if (!stored.success || !isSettingKey(row.key)) continue;
    if (SettingsShape.shape[row.key].safeParse(stored.data.value).success) merged[row.key] = stored.data.value;
  }
  return SettingsShape.parse(merged);
}

/**
 * Writes one setting and returns the row before (null: the key had no row, so it held its default) and after,
 * the snapshots audit.revert restores (targetType 'settings', targetId = key).
 */
export async function writeSetting(
  db: Queryable,
  change: { key: SettingKey; value: unknown; now: Date },
): Promise<{ before: SettingRow | null; after: SettingRow }> {
  markConfigWritten(db);
  const [before] = await db.select().from(settings).where(eq(settings.key, change.key)).for('update');
  const value = { value: change.value };
  const [after] = await db.insert(settings)
    .values({ key: change.key, value, updatedAt: change.now })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: change.now } })
    .returning();
  if (!after) throw new Error('settings upsert returned no row');
  return { before: before ?? null, after };
}
