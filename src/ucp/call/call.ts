import { runIdempotent } from '../../calls/idempotency.ts';
import type { StoredAnswer } from '../../calls/idempotency.ts';
import type { Db } from '../../db/client.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import { ToolError } from '../../errors/tool-error.ts';
import type { Log } from '../../log.ts';
import { isStorableText } from '../../schema/storable-text.ts';
import type { Agent } from '../core/agent-header.ts';
import { UcpError } from '../core/errors.ts';
import type { UcpCaller } from '../identity/caller.ts';

/**
 * One UCP call as both dispatchers run it (operations.ts for checkout and orders, shopping-operations.ts for
 * catalog and cart), whichever binding it came through (REST, MCP, the buyer's page). The bindings import the
 * call from here, not from the dispatchers, so a binding never depends on what it is mounted beside.
 */

export type OperationName =
  | 'create_checkout' | 'get_checkout' | 'update_checkout' | 'complete_checkout' | 'cancel_checkout'
  | 'get_order' | 'update_order' | 'simulate_shipping';
export type ShoppingOperationName =
  | 'search_catalog' | 'lookup_catalog' | 'get_product'
  | 'create_cart' | 'get_cart' | 'update_cart' | 'cancel_cart';

export type Call<Name extends string> = {
  operation: Name;
  /** The checkout session, order or cart the call is about; '' for the calls that name none. */
  id: string;
  agent: Agent;
  caller: UcpCaller;
  body: Record<string, unknown>;
  idempotencyKey: string | undefined;
  log: Log;
};
/** A checkout or order call also carries its request's id: a completion without an Idempotency-Key is keyed by it. */
export type UcpCall = Call<OperationName> & { requestId: string };
export type ShoppingCall = Call<ShoppingOperationName>;

/** The status and JSON text to answer with, and how long to wait when the answer says to retry. */
export type UcpAnswer = StoredAnswer & { retryAfter?: number };
export type RunOperation = (call: UcpCall) => Promise<UcpAnswer>;
export type RunShopping = (call: ShoppingCall) => Promise<UcpAnswer>;

/** A failure's answer: the status and body the dispatcher shaped it into, and its Retry-After when it has one. */
export function failureAnswer(failure: UcpError, shaped: { status: number; body: unknown }): UcpAnswer {
  return {
    status: shaped.status, text: JSON.stringify(shaped.body), ...(failure.options.retryAfter ? { retryAfter: failure.options.retryAfter } : {}),
  };
}

/** Ids are Butik's UUIDs; a longer one, or one the database could not even compare, names nothing. */
const MAX_ID_LENGTH = 200;
export const namesNothing = (id: string) => id.length > MAX_ID_LENGTH || !isStorableText(id);

/** Failures that are not UCP's own, in UCP's words: a broken body, a reused key, an unavailable database, a fault. */
export function asUcpError(error: unknown): UcpError {
  if (error instanceof UcpError) return error;
  if (error instanceof ToolError) {
    switch (error.code) {
      case 'invalid_json':
        return new UcpError(400, 'INVALID_REQUEST', error.message);
      case 'idempotency_key_reused':
        return new UcpError(409, 'IDEMPOTENCY_CONFLICT', 'Idempotency key reused with different parameters');
      case 'idempotency_key_in_use':
        return new UcpError(409, 'IDEMPOTENCY_CONFLICT', error.message, { retryAfter: error.extras.retryAfter });
      default:
        break;
    }
  }
  if (isDatabaseUnavailable(error)) return new UcpError(503, 'SERVICE_UNAVAILABLE', 'The shop is briefly unavailable; retry shortly.', { retryAfter: 2 });
  return new UcpError(500, 'INTERNAL_ERROR', 'An unexpected error occurred; the request may be retried.');
}

/**
 * Runs a call's work once: a write with an Idempotency-Key once per key and platform (a replay answers what the
 * first call did), anything else as it comes. A failure the work did not answer itself is logged when it is the
 * server's own and answered by `failed` in the dispatcher's shape.
 */
export async function runOnce<Name extends string>(
  { db, now }: { db: Db; now: Date },
  call: Call<Name>,
  writes: boolean,
  execute: () => Promise<StoredAnswer>,
  failed: (failure: UcpError) => UcpAnswer,
): Promise<UcpAnswer> {
  try {
    return call.idempotencyKey && writes
      ? await runIdempotent(db, {
        // Keys are scoped per platform: its key in key mode, its profile in open mode.
        caller: call.caller.keyId !== null ? `ucp:key:${call.caller.keyId}` : `ucp:${call.agent.profile}`,
        key: call.idempotencyKey, tool: `ucp.${call.operation}/${call.id}`, body: call.body, now,
      }, execute, (stored) => stored)
      : await execute();
  } catch (error) {
    const failure = asUcpError(error);
    if (failure.status >= 500) call.log.error({ err: error }, 'ucp: request failed');
    return failed(failure);
  }
}
