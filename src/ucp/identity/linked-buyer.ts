import type { Gate } from '../../access/admit.ts';
import { readCredentials } from '../../access/authenticate.ts';
import { findBuyer } from '../../access/buyers.ts';
import type { UcpBuyerScope } from '../../access/scopes.ts';
import type { Db } from '../../db/client.ts';
import { UcpError } from '../core/errors.ts';

/**
 * UCP identity linking (docs/ucp.md#identity-linking): a buyer who linked their account gave the platform a token
 * for the UCP resource. With it on a request, the platform acts for that buyer; without it nothing changes.
 */
export type LinkedBuyer = { id: string; email: string; scopes: ReadonlySet<UcpBuyerScope>; clientId: string };

/** What the composition hands the UCP face: the authorization server's check of a buyer's token, and its addresses. */
export type BuyerLinking = {
  verify(token: string): Promise<{ ok: true; buyerId: string; scopes: ReadonlySet<UcpBuyerScope>; clientId: string } | { ok: false; detail: string }>;
  /** The authorization server's issuer: the realm of every challenge. */
  issuer(): string;
  /** The RFC 9728 metadata of the UCP resource. */
  resourceMetadata(): string;
};

type Headers = { 'x-api-key'?: string | string[]; authorization?: string };

/** What of a caller (caller.ts) linking reads and sets, so this file needs nothing of caller.ts, which builds on it. */
type Linkable = { mode: 'open' | 'key'; buyer?: LinkedBuyer };

/** RFC 6750 §3 challenge: no error when no token came, `invalid_token` or `insufficient_scope` (with the full scope set) otherwise. */
export function bearerChallenge(linking: BuyerLinking, failure?: { error: 'invalid_token' } | { error: 'insufficient_scope'; scope: string }): string {
  const parts = [`realm="${linking.issuer()}"`];
  if (failure) parts.push(`error="${failure.error}"`);
  if (failure?.error === 'insufficient_scope') parts.push(`scope="${failure.scope}"`);
  parts.push(`resource_metadata="${linking.resourceMetadata()}"`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * The buyer's token on a request: the Bearer credential, except in key mode when the Bearer is the platform's own
 * key (a key mode platform that acts for a buyer sends its key in X-API-Key).
 */
function buyerToken(caller: Linkable, headers: Headers): string | undefined {
  const credentials = readCredentials(headers.authorization);
  if (credentials.kind !== 'bearer' || credentials.token === '') return undefined;
  const apiKey = headers['x-api-key'];
  if (caller.mode === 'key' && !(typeof apiKey === 'string' && apiKey.trim() !== '')) return undefined;
  return credentials.token;
}

/**
 * The caller, acting for the linked buyer when the request carries a buyer's token. A token that does not check
 * out (unknown, expired, revoked, another resource's, a deleted account) is refused with 401 rather than ignored,
 * so a platform never believes it acts for a buyer when it does not. Guesses count under preauth per IP, as keys do.
 */
export async function withLinkedBuyer<Caller extends Linkable>(
  caller: Caller, admission: { linking: BuyerLinking; gate: Gate; db: Db; ip: string; headers: Headers },
): Promise<Caller> {
  const token = buyerToken(caller, admission.headers);
  if (token === undefined) return caller;
  const { gate, ip, linking } = admission;
  const preauth = await gate.limiter.consume('preauth', ip);
  if (preauth.exceeded) {
    throw new UcpError(429, 'RATE_LIMITED', `Too many attempts with unknown tokens; retry in ${preauth.resetSeconds} seconds.`, { retryAfter: preauth.resetSeconds });
  }
  const checked = await linking.verify(token);
  const buyer = checked.ok ? await findBuyer(admission.db, checked.buyerId) : undefined;
  if (!checked.ok || !buyer) {
    throw new UcpError(401, 'IDENTITY_REQUIRED', checked.ok ? 'The linked account no longer exists; link the buyer\'s account again.' : checked.detail,
      { severity: 'requires_buyer_review', challenge: bearerChallenge(linking, { error: 'invalid_token' }) });
  }
  await gate.limiter.reward('preauth', ip, preauth);
  return { ...caller, buyer: { id: buyer.id, email: buyer.email, scopes: checked.scopes, clientId: checked.clientId } };
}

/** The linked buyer the caller acts for under `scope`, or undefined (a guest checkout, or a token without it). */
export function actsFor(caller: Linkable, scope: UcpBuyerScope): LinkedBuyer | undefined {
  return caller.buyer?.scopes.has(scope) ? caller.buyer : undefined;
}
