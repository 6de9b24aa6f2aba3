/** Intl formats are costly to build and pages show many prices: one per locale and currency, kept. */
const formats = new Map<string, Intl.NumberFormat>();

function currencyFormat(locale: string, currency: string): Intl.NumberFormat {
  const key = `${locale} ${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    formats.set(key, format);
  }
  return format;
}

/** How many decimals the currency's minor unit has: Intl knows each (2 for DKK and USD, 0 for JPY). */
export function minorUnitDigits(currency: string): number {
  return currencyFormat('en', currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/** An amount in minor units as a reader of `locale` reads it: "1.299,00 kr." (da-DK), "DKK 1,299.00" (en-GB). */
export function formatMinorUnits(minor: number, currency: string, locale: string): string {
  return currencyFormat(locale, currency).format(minor / 10 ** minorUnitDigits(currency));
}
