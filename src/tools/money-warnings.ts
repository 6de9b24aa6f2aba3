import { kroner } from '../schema/common.ts';
import type { Warning } from '../schema/warning.ts';

/** One krone. A price or fixed discount below it is almost always kroner sent where øre were meant. */
const ONE_KRONE = 100;

/**
 * `priceDkk: 1499` meant as kroner makes a 14,99 kr product. Such a write is legal (a price need only be > 0)
 * and succeeds, but the answer says what it did and what the caller probably meant.
 */
export function belowOneKrone(field: string, oere: number | undefined): Warning[] {
  if (oere === undefined || oere >= ONE_KRONE) return [];
  return [{
    code: 'amount_below_one_krone',
    message: `${field} is in øre (1/100 DKK): ${oere} øre is ${kroner(oere)} kr. If you meant ${oere} kr, send ${oere * 100}.`,
  }];
}
