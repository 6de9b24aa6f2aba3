import { createMcpHandler } from '@modelcontextprotocol/server';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerId, hasScope } from '../access/actor.ts';
import type { Actor } from '../access/actor.ts';
import { admit } from '../access/admit.ts';
import { rateLimitHeaders } from '../access/rate-limit.ts';
import { SCOPES } from '../access/scopes.ts';
import { ToolError } from '../errors/tool-error.ts';
import { resourceMetadataUrl } from '../oauth/routes.ts';
import { asToolError } from '../errors/to-problem.ts';
import { assertJsonDepth, BODY_LIMIT } from '../http/json-body.ts';
import { sendProblem } from '../http/problem-reply.ts';
import { corsHeaders, isAllowedOrigin, preflightHeaders } from './origin.ts';
import { createMcpServer } from './server.ts';
import type { McpCallContext } from './server.ts';
import { registerServerCardRoutes } from './server-card.ts';
import { buildMcpCatalog } from './tool-catalog.ts';

export const MCP_PATH = '/api/mcp';

/**
 * /api/mcp (CONTRACT §6) and the server card. The SDK's createMcpHandler serves both protocol eras
 * from one endpoint: 2026-07-28 requests (per-request `_meta` envelope, `server/discover`,
 * `Mcp-Method`/`Mcp-Name` header checks) on its modern path, and initialize-era requests through its
 * stateless legacy fallback. Either way it asks the factory below for a fresh server per request.
 */
export function registerMcpRoutes(app: FastifyInstance): void {
  const catalog = buildMcpCatalog(app.butik.registry);
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
    const { butik } = request.server;
    const admission = await admit(butik.gate, { ip: request.ip, authorization: request.headers.authorization });
    const headers = { ...cors, ...rateLimitHeaders(admission.rate, butik.config.rateWindowSeconds) };
    if (!admission.ok) return sendProblem(request, reply, withResourceMetadata(admission.error, butik.baseUrl), headers);

    try {
      if (typeof request.body === 'string') assertJsonDepth(request.body);
    } catch (error) {
      return sendProblem(request, reply, asToolError(error), headers);
    }

    const authInfo = authInfoFor(admission.actor);
    callers.set(authInfo, { runtime: butik.runtime, actor: admission.actor, requestId: request.id, log: request.log });
    const response = await handler.fetch(toWebRequest(request, reply, butik.baseUrl), { authInfo });
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
      return sendProblem(request, reply, new ToolError('method_not_allowed',
        `${request.method} ${MCP_PATH} is not supported: the endpoint is stateless; POST each JSON-RPC message.`), cors);
    },
  });

  app.options(MCP_PATH, (request, reply) => {
    const cors = checkOrigin(request, reply);
    if (cors === undefined) return reply;
    const origin = request.headers.origin;
    return reply.code(204).headers(origin === undefined ? { allow: 'POST' } : preflightHeaders(origin)).send();
  });

  registerServerCardRoutes(app, MCP_PATH);
}

/**
 * Answers 403 origin_not_allowed for a foreign Origin and returns undefined; otherwise the CORS
 * headers to add (none without an Origin).
 */
function checkOrigin(request: FastifyRequest, reply: FastifyReply): Record<string, string> | undefined {
  const { origin } = request.headers;
  if (origin === undefined) return {};
  const { butik } = request.server;
  if (isAllowedOrigin(origin, butik.baseUrl, butik.config.allowedOrigins)) return corsHeaders(origin);
  sendProblem(request, reply, new ToolError('origin_not_allowed',
    `Origin ${JSON.stringify(origin)} may not call ${MCP_PATH}; only the service's own origin and BUTIK_ALLOWED_ORIGINS may.`));
  return undefined;
}

/** The key's secret stays with the gate: handlers see who is calling, never the token. */
function authInfoFor(actor: Actor): AuthInfo {
  return { token: '', clientId: callerId(actor), scopes: SCOPES.filter((scope) => hasScope(actor, scope)) };
}

function toWebRequest(request: FastifyRequest, reply: FastifyReply, baseUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  // Lets the SDK tear down a streamed answer when the client goes away before it is complete.
  const aborted = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) aborted.abort();
  });
  return new Request(new URL(request.url, baseUrl), {
    method: request.method,
    headers,
    body: typeof request.body === 'string' ? request.body : null,
    signal: aborted.signal,
  });
}

/** MCP authorization: a 401 tells an OAuth client where to discover the authorization server (RFC 9728). */
function withResourceMetadata(error: ToolError, baseUrl: string): ToolError {
  if (error.code !== 'unauthorized') return error;
  return new ToolError(error.code, error.detail, { ...error.extras, resourceMetadata: resourceMetadataUrl(baseUrl) });
}
