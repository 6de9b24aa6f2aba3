import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerId, hasScope, isOAuthGrant } from '../access/actor.ts';
import { SCOPES } from '../access/scopes.ts';
import { admitRequest } from '../edge/admission.ts';
import { lazy } from '../edge/lazy.ts';
import { mountMcp } from '../edge/mcp-mount.ts';
import type { McpAdmission, McpMount } from '../edge/mcp-mount.ts';
import { sendProblem } from '../edge/problem-reply.ts';
import { ToolError } from '../errors/tool-error.ts';
import { resourceMetadataUrl, resourceUrl } from '../oauth/resources.ts';
import type { ResourcePath } from '../oauth/resources.ts';
import type { AppDeps, RoutePlugin } from '../deps.ts';
import type { McpCallContext } from './server.ts';
import { serverCardRoutes } from './server-card.ts';
import { buildMcpCatalog, canSee } from './tool-catalog.ts';
import type { McpCatalog } from './tool-catalog.ts';

export const MCP_PATH = '/api/mcp';
/** The connector URL: the same MCP, but an anonymous request is asked to sign in, so every host starts OAuth. */
export const CONNECTOR_PATH = '/api/mcp/connect';

/**
 * The tools over MCP at two addresses, and the server card. /api/mcp serves anonymous callers
 * the public tools; /api/mcp/connect answers them 401 with the RFC 9728 challenge, and a signed-in caller
 * that lacks a tool's scope 403 insufficient_scope, so a host steps the grant up instead of failing.
 */
export const mcpRoutes: RoutePlugin = async (app, { deps }) => {
  // Built by the first MCP request rather than at every start: it reads every tool's JSON Schemas.
  let built: McpCatalog | undefined;
  const catalog = () => (built ??= buildMcpCatalog(deps.registry));
  const shared: Omit<McpMount<McpCallContext>, 'path' | 'admit'> = {
    label: 'MCP',
    // The SDK and this server on it are loaded by the first MCP request, once for both addresses.
    loadServer: lazy(async () => {
      const { createMcpServer } = await import('./server.ts');
      return (context: McpCallContext) => createMcpServer(catalog(), context);
    }),
    refuse: (reply, refusal, headers) => sendProblem(reply, new ToolError(refusal.kind, refusal.message), deps.baseUrl, headers),
    baseUrl: () => deps.baseUrl,
    allowedOrigins: deps.config.allowedOrigins,
  };
  mountMcp(app, { ...shared, path: MCP_PATH, admit: (request, reply, cors) => admitCaller(deps, request, reply, cors, MCP_PATH) });
  mountMcp(app, {
    ...shared,
    path: CONNECTOR_PATH,
    admit: (request, reply, cors) => admitCaller(deps, request, reply, cors, CONNECTOR_PATH),
    screen: (message, admission, reply) => stepUp(deps, catalog(), message, admission, reply),
  });
  await app.register(serverCardRoutes, { deps, mcpPath: MCP_PATH, connectorPath: CONNECTOR_PATH });
};

async function admitCaller(
  deps: AppDeps, request: FastifyRequest, reply: FastifyReply, cors: Record<string, string>, path: ResourcePath,
): Promise<McpAdmission<McpCallContext> | undefined> {
  const resourceMetadata = resourceMetadataUrl(deps.baseUrl, path);
  // MCP authorization: a 401 tells an OAuth client where to discover the authorization server (RFC 9728).
  const admitted = await admitRequest(deps, request, reply, {
    headers: cors,
    refusal: (error) => (error.code === 'unauthorized' ? new ToolError(error.code, error.detail, { ...error.extras, resourceMetadata }) : error),
    // A token counts only at the endpoint it was granted for.
    audience: resourceUrl(deps.baseUrl, path),
  });
  if (!admitted) return undefined;
  const { actor, headers } = admitted;
  if (path === CONNECTOR_PATH && actor.kind === 'anonymous') {
    sendProblem(reply, new ToolError('unauthorized', `${CONNECTOR_PATH} needs sign-in: authorize through OAuth (the WWW-Authenticate header `
      + `names the resource metadata) or send an API key. ${MCP_PATH} serves the public tools without one.`, { resourceMetadata }),
    deps.baseUrl, headers);
    return undefined;
  }
  return {
    context: {
      runtime: deps.runtime,
      actor,
      requestId: request.id,
      log: request.log,
      // Only a sign-in on the connector can step its grant up (stepUp), so only it is shown what it cannot call yet.
      listsEveryTool: path === CONNECTOR_PATH && isOAuthGrant(actor),
      sellsOverUcp: deps.config.ucp.mode !== 'off',
    },
    headers,
    // Handlers see who is calling, never the token.
    clientId: callerId(actor),
    scopes: SCOPES.filter((scope) => hasScope(actor, scope)),
  };
}

/**
 * The MCP authorization spec's step-up: a tools/call of a tool whose scope the token lacks is answered
 * 403 with `error="insufficient_scope", scope="…"`. The scope list is the token's granted scopes plus the
 * needed one, so a host that asks for exactly that list keeps what it has and adds one scope (the spec's
 * advice; a host that asked for the needed scope alone would lose the others). Every other message goes on
 * to the SDK.
 */
function stepUp(
  deps: AppDeps, catalog: McpCatalog, message: unknown, admission: McpAdmission<McpCallContext>, reply: FastifyReply,
): boolean {
  const name = toolCallName(message);
  const entry = name === undefined ? undefined : catalog.get(name);
  if (entry === undefined || canSee(entry.tool, admission.context.actor)) return false;
  const { scope } = entry.tool;
  const { actor } = admission.context;
  const granted = actor.kind === 'key' || actor.kind === 'staff' ? [...actor.scopes] : [];
  sendProblem(reply, new ToolError('insufficient_scope', `${entry.tool.name} needs scope ${scope}, which this sign-in was not granted.`, {
    scope: [...new Set([...granted, scope])].join(' '), resourceMetadata: resourceMetadataUrl(deps.baseUrl, CONNECTOR_PATH),
  }), deps.baseUrl, admission.headers);
  return true;
}

/** The tool a single JSON-RPC tools/call message names, if that is what the message is. */
function toolCallName(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  if (method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
  return params.name;
}
