import { z } from 'zod';

/** Integers are bounded by 2^53 − 1 on both sides. z.int() is exactly the safe-integer range. */
export const Int = z.int();
export const NonNegativeInt = z.int().min(0);
export const PositiveInt = z.int().min(1);

/**
 * 149900 → "1.499,00": øre as Danish kroner, for the worked examples of money descriptions. The thousands are
 * grouped by hand: the first toLocaleString('da-DK') of a process loads ICU's Danish data, about 17 ms of every
 * start, since the descriptions are built when the schemas load.
 */
export function kroner(oere: number): string {
  const size = Math.abs(oere);
  const whole = String(Math.trunc(size / 100)).replace(/\B(?=(\d{3})+$)/g, '.');
  return `${oere < 0 ? '-' : ''}${whole},${String(size % 100).padStart(2, '0')}`;
}

/** The words every money description starts with. */
export const MONEY_UNIT = 'øre (1/100 DKK)';

/**
 * The API names money fields …Dkk although they hold øre (docs/behaviour.md#money), so every money field says its unit
 * first and shows a worked example; an agent thinking in kroner cannot misread it.
 */
export function money<T extends z.ZodType>(schema: T, what: string, example = 149900): T {
  return schema.meta({ description: `${MONEY_UNIT}: ${what} Example: ${example} = ${kroner(example)} kr.` });
}

/** Integer øre (1/100 DKK), VAT included. */
export const Oere = money(z.int(), 'an amount, 25 % VAT included.');

export const Id = z.string().min(1).max(200).meta({ description: 'Identifier as returned by the service.' });

export const Slug = z
  .string()
  .min(2)
  .max(200)
  .regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and hyphens only')
  .meta({ description: 'URL-safe identifier: lowercase a-z, 0-9 and "-".', examples: ['aviator-classic'] });

/** A slug used to look something up: any non-empty string, so a wrong one is a 404, not a 400. */
export const SlugRef = z.string().min(1).max(200);

/** Timestamps (docs/behaviour.md#conventions): RFC 3339 in UTC, ending in Z, optional fractional seconds. */
export const Timestamp = z.iso.datetime({ offset: false }).meta({
  description: 'RFC 3339 date-time in UTC ending in Z.',
  examples: ['2026-01-31T12:00:00Z'],
});

const HttpsUrl = z.url({ protocol: /^https$/ });
export const Url = z.url({ protocol: /^https?$/ });

/**
 * Characters that end or break an HTML attribute or a CSS url(): a URL that holds one unencoded is refused
 * on write rather than trusted to every place that renders it.
 */
export const URL_BREAKING_CHARACTERS = /[\s<>"'`\\]/;
const IMAGE_URL_RULE = 'without spaces, quotes, backslashes or angle brackets (percent-encode them: a space is %20)';

/** A product image address: absolute http(s), nothing that could end the attribute it is written into. */
export const ImageUrl = Url.max(2000).refine((value) => !URL_BREAKING_CHARACTERS.test(value), {
  message: `must be an absolute http(s) URL ${IMAGE_URL_RULE}`,
});
export const HttpsImageUrl = HttpsUrl.max(2000).refine((value) => !URL_BREAKING_CHARACTERS.test(value), {
  message: `must be an absolute https URL ${IMAGE_URL_RULE}`,
});

export const Email = z.email().max(320);

export const Confirm = z.literal(true).meta({ description: 'Must be true: confirms a destructive action.' });

export function toIso(date: Date): string;
export function toIso(date: Date | null): string | null;
export function toIso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

/** A stored JSON document (a jsonb column) that holds an object: its members by name. */
export const JsonObject = z.record(z.string(), z.unknown());

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A jsonb value as JsonObject.nullable() describes it: the object it holds, or null. */
export function jsonObjectOrNull(value: unknown): Record<string, unknown> | null {
  return isJsonObject(value) ? value : null;
}
