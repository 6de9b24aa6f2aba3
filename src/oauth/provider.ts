import { randomUUID } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';
import type { Configuration } from 'oidc-provider';
import type { Db } from '../db/client.ts';
import { TOOL_SCOPES, UCP_BUYER_SCOPES } from '../access/scopes.ts';
import { adapterFor } from './adapter.ts';
import { linkPath, linksBuyer } from './buyer-link.ts';
import { renderEndedPage } from './consent-page.ts';
import { UCP_RESOURCE_PATH, resourceUrl, resourceUrls } from './resources.ts';
import { OAUTH_PREFIX } from './names.ts';
import { loadSecrets } from './secrets.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;

/**
 * The authorization server of the MCP authorization spec: authorization code + PKCE S256 only, public clients
 * named by a client metadata document URL or registered dynamically (RFC 7591), resource indicators binding every access token to one MCP endpoint, rotating
 * refresh tokens and revocation (RFC 7009). The owner logs in and consents on Butik's own page (interactions).
 * With UCP on, the same server links buyers' accounts (UCP identity linking): tokens for the UCP resource, with
 * UCP's scopes, granted by a buyer who signs in on Butik's link page (buyer-routes.ts).
 */
export async function createProvider(options: {
  db: Db; baseUrl: string; trustProxy: boolean; ucp: boolean; loopbackClientDocuments: boolean;
}): Promise<Provider> {
  const secrets = await loadSecrets(options.db);
  const resources = resourceUrls(options.baseUrl);
  const ucpResource = options.ucp ? resourceUrl(options.baseUrl, UCP_RESOURCE_PATH) : undefined;
  const ucpScopes = options.ucp ? UCP_BUYER_SCOPES : [];
  const configuration: Configuration = {
    // Client ID Metadata Documents are resolved in the adapter, through the shop's one outbound fetcher, not by
    // oidc-provider's own feature (https only, its own fetch): docs/behaviour.md#client-id-metadata-documents.
    adapter: adapterFor(options.db, { loopbackClientDocuments: options.loopbackClientDocuments }),
    discovery: { client_id_metadata_document_supported: true },
    jwks: { keys: [secrets.signingKey] },
    cookies: { keys: secrets.cookieKeys },
    // The shop's scopes are resource scopes of /api/mcp (getResourceServerInfo below); they are listed here too
    // because MCP clients put them into their registration's `scope`, which is checked against this list.
    scopes: ['openid', 'offline_access', ...TOOL_SCOPES, ...ucpScopes],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    features: {
      devInteractions: { enabled: false },
      // No registration access token: clients cannot read or change their registration later (RFC 7592 is
      // off), so it would be one more stored secret with no use.
      // oidc-provider's own client ids may begin with '-', which `butik oauth revoke CLIENT_ID` would read as an
      // option; a UUID never does.
      registration: { enabled: true, issueRegistrationAccessToken: false, idFactory: () => randomUUID() },
      // MCP clients never sign the owner out; without it, there is no logout page to frame or to forge.
      rpInitiatedLogout: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets the anonymous-friendly MCP endpoint's, or UCP's when it asks for
        // UCP scopes (a UCP platform names no resource).
        defaultResource: (ctx) => (ucpResource && linksBuyer(ctx.oidc.params ?? {}, options.baseUrl, options.ucp)
          ? ucpResource : resourceUrl(options.baseUrl, '/api/mcp')),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator === ucpResource) {
            return { scope: ucpScopes.join(' '), audience: indicator, accessTokenFormat: 'opaque', accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS };
          }
          if (!resources.includes(indicator)) throw new errors.InvalidTarget(`the resources here are ${[...resources, ...(ucpResource ? [ucpResource] : [])].join(', ')}`);
          return { scope: TOOL_SCOPES.join(' '), audience: indicator, accessTokenFormat: 'opaque', accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS };
        },
      },
    },
    routes: {
      authorization: `${OAUTH_PREFIX}/authorize`,
      token: `${OAUTH_PREFIX}/token`,
      registration: `${OAUTH_PREFIX}/register`,
      revocation: `${OAUTH_PREFIX}/revoke`,
      jwks: `${OAUTH_PREFIX}/jwks`,
      end_session: `${OAUTH_PREFIX}/logout`,
      userinfo: `${OAUTH_PREFIX}/userinfo`,
      introspection: `${OAUTH_PREFIX}/introspect`,
      pushed_authorization_request: `${OAUTH_PREFIX}/par`,
      backchannel_authentication: `${OAUTH_PREFIX}/backchannel`,
      code_verification: `${OAUTH_PREFIX}/device`,
      device_authorization: `${OAUTH_PREFIX}/device/auth`,
      challenge: `${OAUTH_PREFIX}/challenge`,
    },
    // A buyer links an account on the link page; everything else is the owner's consent.
    interactions: {
      url: (_ctx, interaction) => (linksBuyer(interaction.params, options.baseUrl, options.ucp)
        ? linkPath(interaction.uid) : `${OAUTH_PREFIX}/consent/${interaction.uid}`),
    },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    // The provider's own error page, in the shop's look and under its headers (routes.ts): no inline style.
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = renderEndedPage('This authorization cannot go on',
        `${out.error}${out.error_description ? `: ${out.error_description}` : ''}. Start connecting again from the application.`);
    },
    // Rotating refresh tokens for public clients (OAuth 2.1 §4.3.1): every use returns a new one.
    rotateRefreshToken: true,
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
      Grant: 30 * 24 * 3600,
      RefreshToken: 30 * 24 * 3600,
    },
  };
  const provider = new Provider(options.baseUrl, configuration);
  provider.proxy = options.trustProxy;
  return provider;
}
