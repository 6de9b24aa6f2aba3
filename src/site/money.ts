const formats = new Map<string, Intl.NumberFormat>();

/** Danish notation for the shop currency; Intl knows each currency's minor unit (2 for DKK and USD, 0 for JPY). */
function formatFor(currency: string): Intl.NumberFormat {
  let format = formats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('da-DK', { style: 'currency', currency });
    formats.set(currency, format);
  }
  return format;
}

function minorDigits(currency: string): number {
  return formatFor(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/** An amount in minor units as a Danish shopper reads it: 1.299,00 kr., 35,00 US$. */
export function formatPrice(minor: number, currency: string): string {
  return formatFor(currency).format(minor / 10 ** minorDigits(currency));
}

/** An amount in minor units as schema.org wants a price: major units, a dot, the currency's decimals ("35.00"). */
export function decimalPrice(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}
