/**
 * The console's stock field is a change, not a figure: "+3" adds three, "-1" (or "−1") takes one away, "12"
 * sets the stock to 12. An addition runs as products.adjust_stock on the stock as it is when saved, so a sale
 * made while the form was open is not overwritten; a figure goes through products.update with the version the
 * form was drawn from, so it is refused if anything changed meanwhile.
 */
export type StockChange = { by: number } | { setTo: number };

export type StockChangeParse = { ok: true; change: StockChange | undefined } | { ok: false };

const MAX = 1_000_000;

export function parseStockChange(text: string | undefined): StockChangeParse {
  const typed = (text ?? '').trim().replace(/\s+/g, '');
  if (typed === '') return { ok: true, change: undefined };
  const relative = /^([+\-−–])(\d{1,7})$/.exec(typed);
  if (relative) {
    const amount = Number(relative[2]);
    if (amount === 0 || amount > MAX) return { ok: false };
    return { ok: true, change: { by: relative[1] === '+' ? amount : -amount } };
  }
  if (/^\d{1,7}$/.test(typed) && Number(typed) <= MAX) return { ok: true, change: { setTo: Number(typed) } };
  return { ok: false };
}
