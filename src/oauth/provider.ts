import Provider, { errors } from 'oidc-provider';
import type { Configuration } from 'oidc-provider';
import type { Db } from '../db/client.ts';
import { TOOL_SCOPES } from '../access/scopes.ts';
import { adapterFor } from './adapter.ts';
import { loadSecrets } from './secrets.ts';

/** Where oidc-provider's endpoints live; the issuer itself is BASE_URL so its metadata sits at the root. */
export const OAUTH_PREFIX = '/oauth';
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/**
 * The protected resources (RFC 8707) of the MCP endpoints: /api/mcp, open to anonymous callers too, and the
 * connector URL /api/mcp/connect, which always asks for sign-in. A token is minted for one of them.
 */
export const MCP_RESOURCE_PATHS = ['/api/mcp', '/api/mcp/connect'] as const;
export type McpResourcePath = (typeof MCP_RESOURCE_PATHS)[number];

export function mcpResource(baseUrl: string, path: McpResourcePath = '/api/mcp'): string {
  return `${baseUrl}${path}`;
}

/** The resource a grant is for: the one the client asked for when it is ours, else the default. */
export function requestedResource(baseUrl: string, asked: unknown): string {
  const resources = MCP_RESOURCE_PATHS.map((path) => mcpResource(baseUrl, path));
  return typeof asked === 'string' && resources.includes(asked) ? asked : mcpResource(baseUrl);
}

export const OWNER_ACCOUNT = 'owner';

/**
 * The authorization server of the MCP authorization spec: authorization code + PKCE S256 only, public clients
 * registered dynamically (RFC 7591), resource indicators binding every access token to one MCP endpoint, rotating
 * refresh tokens and revocation (RFC 7009). The owner logs in and consents on Butik's own page (interactions).
 */
export async function createProvider(options: { db: Db; baseUrl: string; trustProxy: boolean }): Promise<Provider> {
  const secrets = await loadSecrets(options.db);
  const resource = mcpResource(options.baseUrl);
  const resources = MCP_RESOURCE_PATHS.map((path) => mcpResource(options.baseUrl, path));
  const configuration: Configuration = {
    adapter: adapterFor(options.db),
    jwks: { keys: [secrets.signingKey] },
    cookies: { keys: secrets.cookieKeys },
    // The shop's scopes are resource scopes of /api/mcp (getResourceServerInfo below); they are listed here too
    // because MCP clients put them into their registration's `scope`, which is checked against this list.
    scopes: ['openid', 'offline_access', ...TOOL_SCOPES],
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
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (!resources.includes(indicator)) throw new errors.InvalidTarget(`the resources here are ${resources.join(' and ')}`);
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
    interactions: { url: (_ctx, interaction) => `${OAUTH_PREFIX}/consent/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
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
