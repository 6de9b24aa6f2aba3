import type { FastifyPluginAsync } from 'fastify';
import { entityTag, sendTagged } from '../edge/etag.ts';
import type { AppDeps } from '../deps.ts';

/** The identity both tools/list answers and the server card carry. */
export const SERVER_INFO = { name: 'butik', title: 'Butik', version: '1.0.0' } as const;

/** What the server offers, in initialize, server/discover and the card: the tools, and the MCP Apps views as resources. */
export const SERVER_CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false } };

/** The protocol revisions /api/mcp serves: the initialize era and the sessionless one (docs/behaviour.md#transport). */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

/** Where the MCP endpoints live: the one open to anonymous callers and the connector URL. */
type CardPaths = { mcpPath: string; connectorPath: string };

/**
 * The server card of docs/behaviour.md#discovery: the SEP-2127 card (`$schema`, `name`, `version`, `description`, `remotes`) merged
 * with the SEP-1649 fields (`serverInfo`, `transport`, `capabilities`, `authentication`) that
 * earlier clients read. Authentication is optional: anonymous callers get the public tools.
 */
export function buildServerCard(baseUrl: string, paths: CardPaths): Record<string, unknown> {
  const endpoint = `${baseUrl}${paths.mcpPath}`;
  // Bearer carries an API key or an OAuth 2.1 access token; the RFC 9728 metadata names the server.
  const authenticationOf = (path: string, required: boolean) => ({
    required,
    schemes: ['bearer', 'oauth2'],
    protectedResourceMetadata: `${baseUrl}/.well-known/oauth-protected-resource${path}`,
  });
  const authentication = authenticationOf(paths.mcpPath, false);
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: 'dk.butik/butik',
    version: SERVER_INFO.version,
    title: SERVER_INFO.title,
    description: 'Shop and content tools: catalog, carts, orders, discounts, CMS pages and service offerings.',
    websiteUrl: `${baseUrl}/docs`,
    remotes: [{
      type: 'streamable-http',
      url: endpoint,
      supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      headers: [{
        name: 'Authorization',
        description: 'Optional API key. Without it only the five public catalog and page tools are listed.',
        isRequired: false,
        isSecret: true,
        value: 'Bearer {api_key}',
        variables: { api_key: { description: 'A Butik API key (bk_…) issued by the shop operator.', isRequired: false, isSecret: true } },
      }],
      authentication,
    }, {
      // The connector URL: the same tools, but every request must be signed in, so a host that only starts
      // OAuth on a 401 (a web chat connector) does.
      type: 'streamable-http',
      url: `${baseUrl}${paths.connectorPath}`,
      supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      authentication: authenticationOf(paths.connectorPath, true),
    }],
    serverInfo: { ...SERVER_INFO },
    transport: { type: 'streamable-http', endpoint },
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS[SUPPORTED_PROTOCOL_VERSIONS.length - 1],
    capabilities: SERVER_CAPABILITIES,
    authentication,
  };
}

type CachedCard = { baseUrl: string; body: string; etag: string };

/** The same card at the three addresses of docs/behaviour.md#discovery, cacheable and readable cross-origin. */
export const serverCardRoutes: FastifyPluginAsync<{ deps: AppDeps } & CardPaths> = async (app, { deps, mcpPath, connectorPath }) => {
  let cached: CachedCard | undefined;
  const card = (baseUrl: string): CachedCard => {
    if (cached?.baseUrl !== baseUrl) {
      const body = JSON.stringify(buildServerCard(baseUrl, { mcpPath, connectorPath }));
      cached = { baseUrl, body, etag: entityTag(body) };
    }
    return cached;
  };
  for (const path of ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json', `${mcpPath}/server-card`]) {
    app.get(path, async (request, reply) => {
      const { body, etag } = card(deps.baseUrl);
      reply.headers({
        'access-control-allow-origin': '*',
        'cache-control': 'public, max-age=3600',
        'content-type': 'application/json; charset=utf-8',
      });
      return sendTagged(request, reply, body, etag);
    });
  }
};
