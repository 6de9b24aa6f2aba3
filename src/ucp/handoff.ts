import { findCart, renderCart } from '../commerce/carts.ts';
import type { Db } from '../db/client.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { Agent } from './core/agent-header.ts';
import { findSession } from './checkout/sessions.ts';
import { openCaller } from './identity/caller.ts';
import type { UcpCaller } from './identity/caller.ts';
import type { UcpVersion } from './core/versions.ts';

/** The page reads the checkout in 2026-01-11's shape (handoff/checkout-model.ts), so it asks for that version. */
const PAGE_VERSION: UcpVersion = '2026-01-11';

/** Who acts on the buyer's page (docs/ucp.md#the-buyers-page). */
export type HandoffParty = { caller: UcpCaller; agent: Agent };

/**
 * The person a platform handed a session to acts for that platform: whoever holds the session's page address
 * (its unguessable id) may update and complete it, in key mode too, where the order stays readable by the key
 * that created the session. Calls run under the session's own platform profile, so the order's events still go
 * to that platform's webhook. Throws the operations' not-found error for an unknown id.
 */
export async function handoffParty(db: Db, sessionId: string, ip: string): Promise<HandoffParty> {
  const session = await findSession(db, sessionId, openCaller(ip));
  return { caller: { ...openCaller(ip), keyId: session.keyId }, agent: { profile: session.platform, version: PAGE_VERSION } };
}

/** A session a person starts in the shop itself (the product page's Buy button): no platform stands behind it. */
export function storefrontParty(ip: string): HandoffParty {
  return { caller: openCaller(ip), agent: { profile: '', version: PAGE_VERSION } };
}

/**
 * A new checkout's lines and code from an open Butik cart, the one an agent filled with the cart tools and a chat
 * shows in its cart view (docs/behaviour.md#mcp-apps); undefined for a cart that is unknown, checked out or empty.
 */
export async function checkoutFromButikCart(db: Db, cartId: string): Promise<Record<string, unknown> | undefined> {
  let cart;
  try {
    cart = await findCart(db, cartId);
  } catch (error) {
    if (error instanceof ToolError && error.code === 'not_found') return undefined;
    throw error;
  }
  if (cart.status !== 'open') return undefined;
  const { items, discountCode } = await renderCart(db, cart);
  if (items.length === 0) return undefined;
  return {
    line_items: items.map((item) => ({ item: { id: item.slug }, quantity: item.quantity })),
    ...(discountCode === null ? {} : { discounts: { codes: [discountCode] } }),
  };
}
