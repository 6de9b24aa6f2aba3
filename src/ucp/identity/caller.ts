import { actorName, hasScope } from '../../access/actor.ts';
import type { Actor } from '../../access/actor.ts';
import { readCredentials } from '../../access/authenticate.ts';
import type { Gate } from '../../access/admit.ts';
import { UCP_SCOPE } from '../../access/scopes.ts';
import type { Scope } from '../../access/scopes.ts';
import { PROBLEMS } from '../../errors/problems.ts';
import { UcpError } from '../core/errors.ts';
import { withLinkedBuyer } from './linked-buyer.ts';
import { trustedPlatform } from './trusted-platforms.ts';
import type { PlatformTrust } from './trusted-platforms.ts';
import type { BuyerLinking, LinkedBuyer } from './linked-buyer.ts';
import type { Db } from '../../db/client.ts';

/**
 * Who is buying. Open mode (BUTIK_UCP_AUTH=open): an anonymous platform, and a session or order id is the
 * capability to use it. Key mode: an API key with scope ucp:checkout, and what a key creates is that key's.
 */
export type UcpCaller = {
  actor: Actor;
  keyId: string | null;
  mode: 'open' | 'key';
  /** The buyer whose linked account's token came with the request (linked-buyer.ts); absent for a guest. */
  buyer?: LinkedBuyer;
  /** The profile URL of a platform the owner trusts, when the request proved it comes from it (trusted-platforms.ts). */
  trustedPlatform?: string;
};

type CredentialHeaders = { 'x-api-key'?: string | string[]; authorization?: string; 'ucp-agent'?: string | string[] };

export function openCaller(ip: string): UcpCaller {
  return { actor: { kind: 'anonymous', ip }, keyId: null, mode: 'open' };
}

/**
 * Key mode's admission: X-API-Key or Authorization: Bearer, a live key, and the scope. Every guess is counted
 * under the preauth policy per IP before the key is looked up, as on the tool routes, so keys cannot be tried
 * without limit; a key that proves valid gives its point back.
 */
export async function keyCaller(gate: Gate, ip: string, headers: CredentialHeaders): Promise<UcpCaller> {
  const apiKey = headers['x-api-key'];
  const credentials = readCredentials(headers.authorization);
  const token = typeof apiKey === 'string' && apiKey.trim() !== '' ? apiKey.trim() : credentials.kind === 'bearer' ? credentials.token : '';
  if (token === '') {
    throw new UcpError(401, 'UNAUTHORIZED', `This shop's checkout needs an API key with scope ${UCP_SCOPE}: send X-API-Key or Authorization: Bearer.`);
  }
  const preauth = await gate.limiter.consume('preauth', ip);
  if (preauth.exceeded) {
    throw new UcpError(429, 'RATE_LIMITED', `Too many attempts with unknown keys; retry in ${preauth.resetSeconds} seconds.`, { retryAfter: preauth.resetSeconds });
  }
  const authenticated = await gate.authenticator.authenticate(token);
  if (authenticated.ok === false && authenticated.paused) throw new UcpError(403, 'AGENT_PAUSED', `${authenticated.detail} ${PROBLEMS.agent_paused.resolution}`);
  if (!authenticated.ok) throw new UcpError(401, 'UNAUTHORIZED', authenticated.detail);
  await gate.limiter.reward('preauth', ip, preauth);
  const { actor } = authenticated;
  if (!hasScope(actor, UCP_SCOPE)) throw new UcpError(403, 'FORBIDDEN', `The key ${actorName(actor)} lacks scope ${UCP_SCOPE}.`);
  return { actor, keyId: actor.kind === 'key' ? actor.keyId : null, mode: 'key' };
}

/**
 * Whether the caller may use what `ownerKeyId` created: anyone in open mode; in key mode the creating key, the
 * master key, and (for orders) a key holding `orScope`. Anything else is answered as not found.
 */
export function mayUse(caller: UcpCaller, ownerKeyId: string | null, orScope?: Scope): boolean {
  if (caller.mode === 'open' || caller.actor.kind === 'master') return true;
  if (ownerKeyId !== null && ownerKeyId === caller.keyId) return true;
  return orScope !== undefined && hasScope(caller.actor, orScope);
}

/** The name orders and audit entries give the buyer: the key's name, or the platform's profile. */
export function callerName(caller: UcpCaller, profile: string): string {
  return caller.mode === 'key' ? actorName(caller.actor) : profile || 'ucp';
}

/**
 * The admission the configured mode makes of one request, then the linked buyer when a buyer's token came with it,
 * and the trusted platform when the request proved it comes from one (`signedBy`: the profile whose key signed it).
 */
export function callerAdmission(mode: 'open' | 'key', gate: Gate, trust: PlatformTrust, linked?: { linking: BuyerLinking; db: Db }) {
  return async (ip: string, headers: CredentialHeaders, signedBy: string | undefined): Promise<UcpCaller> => {
    const admitted = mode === 'open' ? openCaller(ip) : await keyCaller(gate, ip, headers);
    const platform = trustedPlatform(trust, headers['ucp-agent'], signedBy);
    const caller = platform === undefined ? admitted : { ...admitted, trustedPlatform: platform };
    return linked ? withLinkedBuyer(caller, { ...linked, gate, ip, headers }) : caller;
  };
}
