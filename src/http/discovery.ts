import { isProblemCode } from '../errors/problems.ts';
import { ToolError } from '../errors/tool-error.ts';
import { renderDocsPage } from './docs-page.ts';
import { REFERENCE_POLICY } from './reference-page.ts';
import { sendHtml } from '../edge/html/respond.ts';
import { buildOpenApi } from './openapi.ts';
import { renderProblemPage } from './problem-page.ts';
import { sendProblem } from '../edge/problem-reply.ts';
import type { RoutePlugin } from '../deps.ts';

const CATALOG_PATH = '/.well-known/api-catalog';
const LINKSET_JSON = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/**
 * RFC 9727 API catalog: the REST API described by its OpenAPI document and this reference, and the
 * MCP endpoint described by its server card. The REST entry comes first; the last one lists both
 * APIs as items of the catalog itself.
 */
export function buildApiCatalog(baseUrl: string): Record<string, unknown> {
  return {
    linkset: [
      {
        anchor: `${baseUrl}/api/v1`,
        'service-desc': [{ href: `${baseUrl}/api/v1/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' }],
        'service-doc': [{ href: `${baseUrl}/docs`, type: 'text/html' }],
        status: [{ href: `${baseUrl}/readyz`, type: 'application/json' }],
      },
      {
        anchor: `${baseUrl}/api/mcp`,
        'service-desc': [{ href: `${baseUrl}/.well-known/mcp/server-card.json`, type: 'application/json' }],
        'service-doc': [{ href: `${baseUrl}/docs#mcp`, type: 'text/html' }],
      },
      {
        anchor: `${baseUrl}${CATALOG_PATH}`,
        item: [{ href: `${baseUrl}/api/v1` }, { href: `${baseUrl}/api/mcp` }],
      },
    ],
  };
}

/** /.well-known/api-catalog, /docs and /problems/<code> (docs/behaviour.md#discovery). */
export const discoveryRoutes: RoutePlugin = async (app, { deps }) => {
  // GET also answers HEAD (Fastify's automatic HEAD routes), so both carry the Link header.
  app.get(CATALOG_PATH, async (request, reply) => {
    const { baseUrl } = deps;
    return reply.headers({
      'content-type': LINKSET_JSON,
      link: `<${baseUrl}${CATALOG_PATH}>; rel="api-catalog"`,
      'access-control-allow-origin': '*',
    }).send(JSON.stringify(buildApiCatalog(baseUrl)));
  });

  let docs: { baseUrl: string; html: string } | undefined;
  app.get('/docs', async (request, reply) => {
    const { registry, baseUrl } = deps;
    if (docs?.baseUrl !== baseUrl) docs = { baseUrl, html: renderDocsPage(buildOpenApi(registry.tools, baseUrl, deps.openApiExtension), baseUrl) };
    return sendHtml(reply, { body: docs.html, policy: REFERENCE_POLICY });
  });

  app.get<{ Params: { code: string } }>('/problems/:code', async (request, reply) => {
    const { code } = request.params;
    if (!isProblemCode(code)) {
      return sendProblem(reply, new ToolError('not_found', `There is no problem code "${code}"; see /docs#errors.`), deps.baseUrl);
    }
    return sendHtml(reply, { body: renderProblemPage(code, deps.baseUrl), policy: REFERENCE_POLICY });
  });
};
