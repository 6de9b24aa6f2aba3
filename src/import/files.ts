import { z } from 'zod';
import { Email, ImageUrl } from '../schema/common.ts';
import { VocabularyPhrase, VocabularyWord } from '../shop/search-vocabulary.ts';

/**
 * The CSV files `butik import` knows, by name, with one row schema each. The columns are those of the UCP
 * samples' shop data (Universal-Commerce-Protocol/samples, rest/python/test_data), so such a shop loads as is.
 * Cells arrive as text; an empty optional cell means "not given".
 */

const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);
/** A column the file may leave out, or leave empty in a row. */
const optional = <T extends z.ZodType<unknown, string>>(schema: T) =>
  z.string().optional().transform((cell) => (cell?.trim() ? cell.trim() : undefined)).pipe(schema.optional());

/** An amount in minor units of the shop currency (øre, cents): digits only, no separators. */
const minorUnits = z.string().trim()
  .regex(/^\d+$/, 'must be a whole number of minor units (øre, cents), digits only')
  .transform(Number)
  .pipe(z.number().max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`));

const count = z.string().trim().regex(/^\d+$/, 'must be a whole number, digits only').transform(Number)
  .pipe(z.number().max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`));

const countryCode = z.string().trim().toUpperCase()
  .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code such as DK or US');

const sku = text(100);

const eligibleSkus = z.string().optional().transform((value, ctx) => {
  const cell = value?.trim() ?? '';
  if (cell === '') return [];
  try {
    const parsed = z.array(sku).safeParse(JSON.parse(cell));
    if (parsed.success) return parsed.data;
  } catch {
    // reported below with the expected form
  }
  ctx.addIssue({ code: 'custom', message: 'must be a JSON array of product ids, e.g. ["bouquet_roses"]' });
  return z.NEVER;
});

export const ProductRow = z.object({
  id: sku,
  title: text(200).min(2, 'must be at least 2 characters'),
  price: minorUnits.pipe(z.number().min(1, 'must be above 0')),
  image_url: optional(ImageUrl),
  description: optional(text(20_000)),
  category: optional(text(200)),
  stock: optional(count),
  brand: optional(text(200)),
});

export const InventoryRow = z.object({ product_id: sku, quantity: count });

export const DiscountRow = z.object({
  code: text(64).min(3, 'must be at least 3 characters'),
  type: z.enum(['percentage', 'fixed_amount']),
  value: minorUnits.pipe(z.number().min(1, 'must be above 0')),
  description: optional(text(200)),
}).refine((row) => row.type !== 'percentage' || row.value <= 100, {
  message: 'a percentage is 1..100', path: ['value'],
});

export const ShippingRateRow = z.object({
  id: text(100),
  country_code: z.string().trim().transform((cell) => (cell.toLowerCase() === 'default' ? 'default' : cell))
    .pipe(z.union([z.literal('default'), countryCode])),
  service_level: text(50).toLowerCase(),
  price: minorUnits,
  title: text(200),
});

export const PromotionRow = z.object({
  id: text(100),
  type: z.literal('free_shipping', { error: 'only free_shipping promotions are known' }),
  min_subtotal: optional(minorUnits),
  eligible_item_ids: eligibleSkus,
  description: text(500),
}).refine((row) => row.min_subtotal !== undefined || row.eligible_item_ids.length > 0, {
  message: 'give min_subtotal, eligible_item_ids or both', path: ['min_subtotal'],
});

export const CustomerRow = z.object({ id: text(100), name: text(200), email: Email });

export const AddressRow = z.object({
  id: text(100),
  customer_id: text(100),
  street_address: text(500),
  city: text(200),
  state: optional(text(200)),
  postal_code: text(20),
  country: countryCode,
});

/**
 * A word or phrase of the shop's search vocabulary and the catalog words it also matches, separated by ";"
 * ("blue light;blålys;blålysbriller" is three cells); a word with none is one the search ignores.
 */
export const SearchWordRow = z.object({
  word: VocabularyPhrase,
  means: z.string().optional().transform((cell) => (cell ?? '').split(';').map((part) => part.trim()).filter(Boolean))
    .pipe(z.array(VocabularyWord).max(10, 'at most 10 catalog words')),
});

/** In the order they are written: rows may refer to rows of files before them (inventory to products …). */
export const IMPORT_FILES = {
  'products.csv': ProductRow,
  'inventory.csv': InventoryRow,
  'discounts.csv': DiscountRow,
  'shipping_rates.csv': ShippingRateRow,
  'promotions.csv': PromotionRow,
  'customers.csv': CustomerRow,
  'addresses.csv': AddressRow,
  'search_words.csv': SearchWordRow,
} as const;

export type ImportFileName = keyof typeof IMPORT_FILES;
export type ImportRows = { [F in ImportFileName]: Array<{ line: number; row: z.output<(typeof IMPORT_FILES)[F]> }> };

export function isImportFile(name: string): name is ImportFileName {
  return Object.hasOwn(IMPORT_FILES, name);
}
