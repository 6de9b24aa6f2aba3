import { z } from 'zod';
import { settings } from '../db/schema.ts';
import { Email, NonNegativeInt } from '../schema/common.ts';
import type { ToolContext } from './context.ts';

/** The shop settings and their defaults (CONTRACT §9: shippingDkk 4900, freeShippingThresholdDkk 50000). */
export const SettingsShape = z.strictObject({
  storeName: z.string().min(1).max(200).meta({ description: 'Shop name shown on the public pages.' }),
  contactEmail: Email.nullable().meta({ description: 'Public contact e-mail, or null.' }),
  shippingDkk: NonNegativeInt.meta({ description: 'Shipping price in øre incl. VAT.' }),
  freeShippingThresholdDkk: NonNegativeInt.meta({
    description: 'Orders whose subtotal minus discount reaches this many øre ship free.',
  }),
});
export type Settings = z.infer<typeof SettingsShape>;

export const DEFAULT_SETTINGS: Settings = {
  storeName: 'Butik',
  contactEmail: null,
  shippingDkk: 4900,
  freeShippingThresholdDkk: 50000,
};

/** Stored values over the defaults; a stored value that no longer fits the shape falls back to its default. */
export async function readSettings(db: ToolContext['db']): Promise<Settings> {
  const rows = await db.select().from(settings);
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    const field = SettingsShape.shape[row.key as keyof Settings] as z.ZodType | undefined;
    if (field?.safeParse(row.value).success) merged[row.key] = row.value;
  }
  return SettingsShape.parse(merged);
}
