import type Provider from 'oidc-provider';
import { OAUTH_KEY_PREFIX } from '../access/actor.ts';
import type { Actor } from '../access/actor.ts';
import { Scope, isUcpBuyerScope } from '../access/scopes.ts';
import type { UcpBuyerScope } from '../access/scopes.ts';
import type { Db } from '../db/client.ts';
import { lazy } from '../edge/lazy.ts';
import { buyerIdOf } from './buyer-link.ts';

export type TokenCheck =
  | { ok: true; actor: Actor }
  | { ok: false; detail: string };

/** A linked buyer's token: whose account, which UCP scopes, and the platform (client) it was issued to. */
export type BuyerTokenCheck =
  | { ok: true; buyerId: string; scopes: ReadonlySet<UcpBuyerScope>; clientId: string }
  | { ok: false; detail: string };

export type OAuthServer = {
  /** Built on first use: the issuer is BASE_URL, known only once the server listens. */
  provider(): Promise<Provider>;
  /**
   * Checks an access token presented to the protected resource `audience`; undefined when the token is no OAuth
   * access token at all (then it may still be an API key).
   */
  verify(token: string, audience: string): Promise<TokenCheck | undefined>;
  /** Checks a buyer's token from identity linking, presented to the UCP resource `audience`. */
  verifyBuyer(token: string, audience: string): Promise<BuyerTokenCheck>;
};

/** oidc-provider's opaque access tokens: 43 base64url characters (256 bits). */
const OPAQUE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function createOAuthServer(options: {
  db: Db; baseUrl: () => string; trustProxy: boolean; ucp: boolean; loopbackClientDocuments: boolean;
}): OAuthServer {
  // oidc-provider and Koa under it are the biggest library here: loaded on the first request that needs them.
  const provider = lazy(async () => {
    const { createProvider } = await import('./provider.ts');
    return createProvider({ ...options, baseUrl: options.baseUrl() });
  });
  return {
    provider,
    async verify(token, audience) {
      if (!OPAQUE_TOKEN.test(token)) return undefined;
      const { AccessToken, Client } = await provider();
      // find() answers nothing for an unknown, expired, or revoked token (revocation deletes the row).
      const found = await AccessToken.find(token);
      if (!found) return { ok: false, detail: 'The OAuth access token is not known, has expired or was revoked.' };
      // RFC 8707: a token minted for another resource must not be accepted here.
      if (found.aud !== audience) {
        return { ok: false, detail: 'The OAuth access token was issued for another resource.' };
      }
      // A client named by a metadata document is refused while its document is (unreachable, changed): no 500.
      const client = found.clientId ? await Client.find(found.clientId).catch(() => undefined) : undefined;
      if (!client) return { ok: false, detail: 'The OAuth client of this token no longer exists, or its client metadata document is refused.' };
      // A buyer's grant never acts as the owner's, whatever its audience.
      if (buyerIdOf(found.accountId) !== undefined) return { ok: false, detail: 'The OAuth access token is a buyer\'s, for UCP only.' };
      const scopes = new Set((found.scope ?? '').split(' ').flatMap((scope) => {
        const parsed = Scope.safeParse(scope);
        return parsed.success ? [parsed.data] : [];
      }));
      // An OAuth grant acts as an API key with the granted scopes: same rate-limit policy, keyed by grant; the
      // audit actor names the client.
      const name = `oauth:${client.clientName ?? client.clientId}`;
      return { ok: true, actor: { kind: 'key', keyId: `${OAUTH_KEY_PREFIX}${found.grantId ?? found.jti}`, name, scopes, clientId: client.clientId } };
    },
    async verifyBuyer(token, audience) {
      const refused = { ok: false, detail: 'The access token is not known, has expired, was revoked, or is not a linked buyer\'s token for UCP.' } as const;
      if (!OPAQUE_TOKEN.test(token)) return refused;
      const { AccessToken, Client } = await provider();
      const found = await AccessToken.find(token);
      const buyerId = buyerIdOf(found?.accountId);
      // RFC 8707: only a token granted for the UCP resource, and by a buyer (an MCP connector's is the owner's).
      if (!found || found.aud !== audience || buyerId === undefined || !found.clientId) return refused;
      if (!await Client.find(found.clientId).catch(() => undefined)) return refused;
      const scopes = new Set((found.scope ?? '').split(' ').filter(isUcpBuyerScope));
      return { ok: true, buyerId, scopes, clientId: found.clientId };
    },
  };
}
