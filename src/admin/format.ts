import { formatMinorUnits } from '../domain/money-format.ts';

/** Money and dates as the console shows them: the shop currency's minor units, the shop's time zone. */
export function formatMoney(minor: number, currency: string): string {
  return formatMinorUnits(minor, currency, 'en-GB');
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

/** A wall-clock time (YYYY-MM-DDTHH:MM, as a datetime-local field sends it) in the shop's time zone, as an instant. */
export function localInstant(local: string, timeZone: string): Date {
  const guess = new Date(`${local}:00Z`);
  const shown = new Date(guess.toLocaleString('en-US', { timeZone }));
  const utc = new Date(guess.toLocaleString('en-US', { timeZone: 'UTC' }));
  return new Date(guess.getTime() - (shown.getTime() - utc.getTime()));
}

/** Today's date (YYYY-MM-DD) in the shop's time zone. */
export function today(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** A calendar day in the shop's time zone, without a time. */
export function formatDay(value: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium' }).format(value);
}
