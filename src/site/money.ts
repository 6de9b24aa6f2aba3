import { formatMinorUnits, minorUnitDigits } from '../domain/money-format.ts';

/** An amount in minor units as a Danish shopper reads it: 1.299,00 kr., 35,00 US$. */
export function formatPrice(minor: number, currency: string): string {
  return formatMinorUnits(minor, currency, 'da-DK');
}

/** An amount in minor units as schema.org wants a price: major units, a dot, the currency's decimals ("35.00"). */
export function decimalPrice(minor: number, currency: string): string {
  const digits = minorUnitDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}
