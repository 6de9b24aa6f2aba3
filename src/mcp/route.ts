import { createMcpHandler } from '@modelcontextprotocol/server';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerId, hasScope } from '../access/actor.ts';
import type { Actor } from '../access/actor.ts';
import { SCOPES } from '../access/scopes.ts';
import { BODY_LIMIT } from '../config.ts';
import { admitRequest } from '../edge/admission.ts';
import { assertJsonDepth } from '../edge/json-body.ts';
import { sendProblem } from '../edge/problem-reply.ts';
import { asToolError } from '../errors/to-problem.ts';
import { ToolError } from '../errors/tool-error.ts';
import { resourceMetadataUrl, resourceUrl } from '../oauth/resources.ts';
import type { RoutePlugin } from '../services.ts';
import { corsHeaders, isAllowedOrigin, preflightHeaders } from './origin.ts';
import { createMcpServer } from './server.ts';
import type { McpCallContext } from './server.ts';
import { serverCardRoutes } from './server-card.ts';
import { buildMcpCatalog } from './tool-catalog.ts';

export const MCP_PATH = '/api/mcp';

/**
 * /api/mcp (CONTRACT §6) and the server card. The SDK's createMcpHandler serves both protocol eras
 * from one endpoint: 2026-07-28 requests (per-request `_meta` envelope, `server/discover`,
 * `Mcp-Method`/`Mcp-Name` header checks) on its modern path, and initialize-era requests through its
 * stateless legacy fallback. Either way it asks the factory below for a fresh server per request.
 */
export const mcpRoutes: RoutePlugin = async (app, { services }) => {
  const catalog = buildMcpCatalog(services.registry);
  // The admitted caller travels to the factory on the AuthInfo object the handler passes through.
  const callers = new WeakMap<AuthInfo, McpCallContext>();
  const handler = createMcpHandler((ctx) => {
    const context = ctx.authInfo === undefined ? undefined : callers.get(ctx.authInfo);
    if (!context) throw new Error('MCP request reached the server factory without an admitted caller');
    return createMcpServer(catalog, context);
  }, {
    legacy: 'stateless',
    maxRequestBodySize: BODY_LIMIT,
    onerror: (error) => app.log.warn({ err: error }, 'MCP request rejected or failed'),
  });
  app.addHook('onClose', () => handler.close());

  app.post(MCP_PATH, async (request, reply) => {
    const cors = checkOrigin(request, reply);
    if (cors === undefined) return reply;
    const admitted = await admitRequest(services, request, reply, {
      headers: cors,
      refusal: (error) => withResourceMetadata(error, services.baseUrl),
      audience: resourceUrl(services.baseUrl, MCP_PATH),
    });
    if (!admitted) return reply;
    const { actor, headers } = admitted;

    try {
      if (typeof request.body === 'string') assertJsonDepth(request.body);
    } catch (error) {
      return sendProblem(reply, asToolError(error), services.baseUrl, headers);
    }

    const authInfo = authInfoFor(actor);
    callers.set(authInfo, { runtime: services.runtime, actor, requestId: request.id, log: request.log });
    const parsedBody = parseJson(request.body);
    const response = await handler.fetch(toWebRequest(request, services.baseUrl, parsedBody === undefined), {
      authInfo,
      ...(parsedBody === undefined ? {} : { parsedBody }),
    });
    // The SDK marks streams no-cache; tool answers may hold private data, so nothing may store them.
    response.headers.set('cache-control', 'no-store, no-transform');
    return reply.headers(headers).send(response);
  });

  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    handler: (request, reply) => {
      const cors = checkOrigin(request, reply);
      if (cors === undefined) return reply;
      // Stateless: there is no session to open a stream on or to delete (CONTRACT §6).
      reply.header('allow', 'POST');
      return sendProblem(reply, new ToolError('method_not_allowed',
        `${request.method} ${MCP_PATH} is not supported: the endpoint is stateless; POST each JSON-RPC message.`), services.baseUrl, cors);
    },
  });

  app.options(MCP_PATH, (request, reply) => {
    const cors = checkOrigin(request, reply);
    if (cors === undefined) return reply;
    const origin = request.headers.origin;
    return reply.code(204).headers(origin === undefined ? { allow: 'POST' } : preflightHeaders(origin)).send();
  });

  await app.register(serverCardRoutes, { services, mcpPath: MCP_PATH });

  /**
   * Answers 403 origin_not_allowed for a foreign Origin and returns undefined; otherwise the CORS
   * headers to add (none without an Origin).
   */
  function checkOrigin(request: FastifyRequest, reply: FastifyReply): Record<string, string> | undefined {
    const { origin } = request.headers;
    if (origin === undefined) return {};
    if (isAllowedOrigin(origin, services.baseUrl, services.config.allowedOrigins)) return corsHeaders(origin);
    sendProblem(reply, new ToolError('origin_not_allowed',
      `Origin ${JSON.stringify(origin)} may not call ${MCP_PATH}; only the service's own origin and BUTIK_ALLOWED_ORIGINS may.`),
    services.baseUrl);
    return undefined;
  }
};

/** The key's secret stays with the gate: handlers see who is calling, never the token. */
function authInfoFor(actor: Actor): AuthInfo {
  return { token: '', clientId: callerId(actor), scopes: SCOPES.filter((scope) => hasScope(actor, scope)) };
}

/**
 * The body the SDK would parse, parsed once here: handed over as `parsedBody`, it spares the SDK a clone
 * and a second read of the body stream per request (issue 15). Undefined when it is not JSON, so the SDK
 * reads the text itself and answers with its own parse error.
 */
function parseJson(body: unknown): unknown {
  if (typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * The web Request the SDK serves. It carries the body only when the SDK must read it itself, and no abort
 * signal: every answer here is one message, written and done, and an AbortController per request costs a
 * DOMException with a stack whenever the reply closes (issue 15).
 */
function toWebRequest(request: FastifyRequest, baseUrl: string, withBody: boolean): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return new Request(new URL(request.url, baseUrl), {
    method: request.method,
    headers,
    body: withBody && typeof request.body === 'string' ? request.body : null,
  });
}

/** MCP authorization: a 401 tells an OAuth client where to discover the authorization server (RFC 9728). */
function withResourceMetadata(error: ToolError, baseUrl: string): ToolError {
  if (error.code !== 'unauthorized') return error;
  return new ToolError(error.code, error.detail, { ...error.extras, resourceMetadata: resourceMetadataUrl(baseUrl) });
}
