import type { UcpCaller } from './caller.ts';
import { actsFor } from './linked-buyer.ts';

/**
 * Whether a linked buyer's token may read an order: it carries dev.ucp.shopping.order:read and the order was placed
 * for that buyer (a linked checkout with dev.ucp.shopping.checkout:manage). Orders are never matched by e-mail: an
 * account's e-mail is not verified, so it would let anyone who signs up with another person's e-mail read theirs.
 */
export function ownsOrder(caller: UcpCaller, orderBuyerId: string | null): boolean {
  const buyer = actsFor(caller, 'dev.ucp.shopping.order:read');
  return buyer !== undefined && orderBuyerId !== null && orderBuyerId === buyer.id;
}
