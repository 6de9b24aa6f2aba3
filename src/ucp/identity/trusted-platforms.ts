import { parseAgent } from '../core/agent-header.ts';

/**
 * BUTIK_UCP_TRUSTED_PLATFORMS (docs/ucp.md#what-a-linked-buyer-is-offered): the platforms the owner trusts to have
 * verified their buyers' e-mails. An e-mail in a request proves nothing by itself, since anyone can type it; what
 * makes it worth believing is a platform that vouches for it, so the request's claim to come from that platform
 * must be proven: by an RFC 9421 signature made with a key of the platform's profile (verify-request.ts). Test
 * mode, with test data and no real buyers, also believes an unsigned UCP-Agent naming the profile.
 */
export type PlatformTrust = { platforms: readonly string[]; unsignedClaims: boolean };

/** The profile URL UCP-Agent names, written as the URL parser writes it (as the configuration keeps them). */
function namedProfile(header: string | string[] | undefined): string | undefined {
  try {
    return new URL(parseAgent(header).profile).href;
  } catch {
    return undefined;
  }
}

/** The trusted platform a request proved it comes from, or undefined. */
export function trustedPlatform(trust: PlatformTrust, agentHeader: string | string[] | undefined, signedBy: string | undefined): string | undefined {
  if (trust.platforms.length === 0) return undefined;
  const claimed = signedBy ?? (trust.unsignedClaims ? namedProfile(agentHeader) : undefined);
  return claimed !== undefined && trust.platforms.includes(claimed) ? claimed : undefined;
}
