/** The start of the calendar day `now` falls on in the shop's time zone, as an instant: where a daily budget restarts. */
export function startOfShopDay(now: Date, timeZone: string): Date {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  const guess = new Date(`${day}T00:00:00Z`);
  const shown = new Date(guess.toLocaleString('en-US', { timeZone }));
  const utc = new Date(guess.toLocaleString('en-US', { timeZone: 'UTC' }));
  return new Date(guess.getTime() - (shown.getTime() - utc.getTime()));
}
