/**
 * Money typed into the console's refund form, in the shop currency's main unit as a Dane writes it: "1249",
 * "1249,50" or "1.249,50" (a point groups thousands, a comma starts the decimals). Answers minor units, or
 * undefined for text that is not such an amount.
 */
export function parseAmount(text: string, currency: string): number | undefined {
  const digits = fractionDigits(currency);
  const typed = text.trim().replace(/\s+/g, '');
  const decimals = digits > 0 ? `(?:,(\\d{1,${digits}}))?` : '';
  const match = new RegExp(`^(\\d{1,3}(?:\\.\\d{3})+|\\d+)${decimals}$`).exec(typed);
  if (!match) return undefined;
  const whole = Number(match[1]!.replaceAll('.', ''));
  const fraction = Number((match[2] ?? '').padEnd(digits, '0') || '0');
  const minor = whole * 10 ** digits + fraction;
  return Number.isSafeInteger(minor) ? minor : undefined;
}

/** Minor units as the refund form shows them back, in the form parseAmount reads: 124950 → "1249,50". */
export function amountText(minor: number, currency: string): string {
  const digits = fractionDigits(currency);
  if (digits === 0) return String(minor);
  const unit = 10 ** digits;
  return `${Math.floor(minor / unit)},${String(minor % unit).padStart(digits, '0')}`;
}

/** How many decimals the currency has (DKK 2, JPY 0), as Intl knows it. */
function fractionDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}
