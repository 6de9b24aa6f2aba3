/** Money and dates as the console shows them: the shop currency's minor units, the shop's time zone. */
const numberFormats = new Map<string, Intl.NumberFormat>();

function currencyFormat(currency: string): Intl.NumberFormat {
  let format = numberFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-GB', { style: 'currency', currency });
    numberFormats.set(currency, format);
  }
  return format;
}

export function formatMoney(minor: number, currency: string): string {
  const format = currencyFormat(currency);
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

export function formatDate(value: string | Date | null | undefined, timeZone: string): string {
  if (value === null || value === undefined) return '—';
  const date = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** The start of a calendar day (YYYY-MM-DD) in the shop's time zone, as an instant. */
export function startOfDay(day: string, timeZone: string): Date {
  const guess = new Date(`${day}T00:00:00Z`);
  const shown = new Date(guess.toLocaleString('en-US', { timeZone }));
  const utc = new Date(guess.toLocaleString('en-US', { timeZone: 'UTC' }));
  return new Date(guess.getTime() - (shown.getTime() - utc.getTime()));
}

/** Today's date (YYYY-MM-DD) in the shop's time zone. */
export function today(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
