import { isUcpBuyerScope } from '../access/scopes.ts';
import { UCP_RESOURCE_PATH, resourceUrl } from './resources.ts';

/** The account a buyer's grant is for; the owner's grants are OWNER_ACCOUNT's (provider.ts). */
const BUYER_ACCOUNT_PREFIX = 'buyer:';

export const buyerAccount = (buyerId: string) => `${BUYER_ACCOUNT_PREFIX}${buyerId}`;

/** The buyer id of a grant's account, or undefined when the grant is not a buyer's. */
export function buyerIdOf(accountId: unknown): string | undefined {
  return typeof accountId === 'string' && accountId.startsWith(BUYER_ACCOUNT_PREFIX) ? accountId.slice(BUYER_ACCOUNT_PREFIX.length) : undefined;
}

/** Where a buyer signs in and consents to a link, for the interaction `uid`. */
export const linkPath = (uid: string) => `/oauth/link/${uid}`;

/**
 * Whether an authorization request is identity linking (a buyer's consent) rather than an MCP connector (the
 * owner's): it names the UCP resource, or names none and asks for a UCP scope, as a platform following UCP's
 * flow does (its authorization request carries no `resource`). Only while UCP is on.
 */
export function linksBuyer(params: Record<string, unknown>, baseUrl: string, ucpOn: boolean): boolean {
  if (!ucpOn) return false;
  const resource = params.resource;
  if (resource !== undefined) return resource === resourceUrl(baseUrl, UCP_RESOURCE_PATH);
  return String(params.scope ?? '').split(' ').some(isUcpBuyerScope);
}
