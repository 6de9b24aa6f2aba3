import { minorUnitDigits } from '../domain/money-format.ts';
import type { Refusal } from './call.ts';

/**
 * The one place where the console turns an amount a person types (in the shop currency's major unit: kroner)
 * into the minor units the tools take (øre), and back. People write "1249", "1249,50", "1.249,00" or "1,249.00":
 * the digits are read as text, never through a float, so 1249,95 kr is exactly 124995 øre.
 */
export type MoneyParse = { ok: true; minor: number } | { ok: false; error: string };

/** Spaces people put between thousands: a plain, a no-break and a narrow no-break space. */
const GROUP_SPACE = /[ \u00a0\u202f]/g;
const DIGITS = /^\d+$/;
/** Digits grouped in threes by one separator: "1.249.000" or "1,249". */
const GROUPED = (separator: string) => new RegExp(`^\\d{1,3}(?:${separator === '.' ? '\\.' : separator}\\d{3})+$`);

function refused(error: string): MoneyParse {
  return { ok: false, error };
}

/** Whole units and their decimals from text with at most one decimal separator; undefined when they do not fit. */
function split(text: string, exponent: number): { whole: string; decimals: string } | 'ambiguous' | undefined {
  const dot = text.lastIndexOf('.');
  const comma = text.lastIndexOf(',');
  if (dot === -1 && comma === -1) return DIGITS.test(text) ? { whole: text, decimals: '' } : undefined;
  if (dot !== -1 && comma !== -1) {
    // Both marks: the last one is the decimal mark, the other groups thousands ("1.249,00", "1,249.00").
    const decimalAt = Math.max(dot, comma);
    const grouping = decimalAt === dot ? ',' : '.';
    const whole = text.slice(0, decimalAt);
    const decimals = text.slice(decimalAt + 1);
    if (!GROUPED(grouping).test(whole) || !DIGITS.test(decimals)) return undefined;
    return { whole: whole.replaceAll(grouping, ''), decimals };
  }
  const mark = dot === -1 ? ',' : '.';
  const parts = text.split(mark);
  if (parts.length > 2) return GROUPED(mark).test(text) ? { whole: parts.join(''), decimals: '' } : undefined;
  const [whole = '', decimals = ''] = parts;
  if (!DIGITS.test(whole) || !DIGITS.test(decimals)) return undefined;
  // "1.249" is 1249 kr to a Dane and 1,249 kr to an English reader: neither guess is safe. Without decimals
  // in the currency (yen), three digits after the mark can only be thousands.
  if (decimals.length === 3 && /^[1-9]\d{0,2}$/.test(whole)) return exponent === 0 ? { whole: `${whole}${decimals}`, decimals: '' } : 'ambiguous';
  return { whole, decimals };
}

/** Typed text in the currency's major unit (kroner) as minor units (øre), or a refusal in plain words. */
export function parseMoneyInput(typed: string, currency: string): MoneyParse {
  const exponent = minorUnitDigits(currency);
  const text = typed.trim().replace(GROUP_SPACE, (space, at: number, all: string) => (/\d/.test(all[at - 1] ?? '') && /^\d{3}(?!\d)/.test(all.slice(at + 1)) ? '' : space));
  if (text === '') return refused(`Type an amount in ${currency}.`);
  if (text.startsWith('-')) return refused(`Type an amount of 0 or more ${currency}.`);
  const parts = split(text, exponent);
  if (parts === 'ambiguous') {
    return refused(`"${typed.trim()}" could be read two ways. Type it without a thousands separator, or with its decimals (e.g. 1249 or 1.249,00).`);
  }
  if (parts === undefined) return refused(`"${typed.trim()}" is not an amount. Type it in ${currency}, e.g. 1249 or 1249.00.`);
  if (parts.decimals.length > exponent) {
    return refused(exponent === 0 ? `${currency} has no decimals: type a whole amount.` : `${currency} has ${exponent} decimals: type at most ${exponent} after the decimal mark.`);
  }
  const minor = Number(`${parts.whole}${parts.decimals.padEnd(exponent, '0')}`);
  if (!Number.isSafeInteger(minor)) return refused(`${typed.trim()} ${currency} is more than the shop can store.`);
  return { ok: true, minor };
}

/** Minor units as the text an amount field starts with: 124900 øre → "1249.00"; 1249 yen → "1249". */
export function formatMoneyInput(minor: number, currency: string): string {
  const exponent = minorUnitDigits(currency);
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const sign = minor < 0 ? '-' : '';
  return exponent === 0 ? `${sign}${whole}` : `${sign}${whole}.${digits.slice(-exponent)}`;
}

export type FormAmounts<N extends string> = { ok: true; amounts: Partial<Record<N, number>> } | { ok: false; refusal: Refusal };

/**
 * The amount fields of a form, each read in the shop currency. An empty field is left out (the tool says if it
 * was needed); text that is no amount is refused here, by field, before any tool is called.
 */
export function readAmounts<N extends string>(body: Record<string, string | undefined>, names: readonly N[], currency: string): FormAmounts<N> {
  const amounts: Partial<Record<N, number>> = {};
  const fields = new Map<string, string>();
  for (const name of names) {
    const typed = body[name]?.trim();
    if (!typed) continue;
    const parsed = parseMoneyInput(typed, currency);
    if (parsed.ok) amounts[name] = parsed.minor;
    else fields.set(name, parsed.error);
  }
  if (fields.size === 0) return { ok: true, amounts };
  return {
    ok: false,
    refusal: { detail: 'An amount could not be read.', resolution: `Type amounts in ${currency}, e.g. 1249 or 1249,00, and send the form again.`, fields },
  };
}
