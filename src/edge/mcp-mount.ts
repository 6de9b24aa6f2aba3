import type { AuthInfo, McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BODY_LIMIT } from '../config.ts';
import { assertJsonDepth } from './json-body.ts';
import { lazy } from './lazy.ts';
import { corsHeaders, isAllowedOrigin, preflightHeaders } from './origin.ts';

type HeaderMap = Record<string, string>;

/** A request the mount turns away before the SDK sees it; each face answers it in its own error format. */
export type McpRefusal = {
  kind: 'origin_not_allowed' | 'invalid_json' | 'method_not_allowed';
  message: string;
};

/** An admitted request: who calls (for the server factory), and the headers every answer carries. */
export type McpAdmission<C> = {
  context: C;
  headers: HeaderMap;
  /** What the SDK hands its handlers as AuthInfo; never the token itself. */
  clientId: string;
  scopes: string[];
};

export type McpMount<C> = {
  path: string;
  /** Names the endpoint in the log line of a request the SDK rejected or failed. */
  label: string;
  /** Rate limits and authentication; undefined once the face has answered a refusal itself. */
  admit(request: FastifyRequest, reply: FastifyReply, cors: HeaderMap): Promise<McpAdmission<C> | undefined>;
  /** A look at the parsed JSON-RPC message before the SDK serves it; true when it has answered the request. */
  screen?(message: unknown, admission: McpAdmission<C>, reply: FastifyReply): boolean;
  /**
   * Loads the factory of a fresh server per request (a stateless transport serves one message and is done):
   * called once, on the first request the SDK serves, so that an idle shop never loads the SDK.
   */
  loadServer(): Promise<(context: C) => McpServer>;
  refuse(reply: FastifyReply, refusal: McpRefusal, headers: HeaderMap): FastifyReply;
  baseUrl(): string;
  allowedOrigins: readonly string[];
};

/**
 * Serves one MCP endpoint with the SDK's web-standard handler, statelessly: POST only (GET and DELETE have
 * no session to act on), a foreign Origin refused, rate limits and authentication before the body is read,
 * the body parsed once and handed to the SDK. The SDK serves both protocol eras: 2026-07-28 requests on its
 * modern path and initialize-era requests through its stateless fallback, each with a fresh server.
 */
export function mountMcp<C>(app: FastifyInstance, mount: McpMount<C>): void {
  // The admitted caller travels to the factory on the AuthInfo object the handler passes through.
  const callers = new WeakMap<AuthInfo, C>();
  let loaded: ReturnType<typeof createMcpHandler> | undefined;
  const handler = lazy(async () => {
    const [sdk, server] = await Promise.all([import('@modelcontextprotocol/server'), mount.loadServer()]);
    loaded = sdk.createMcpHandler((ctx) => {
      const context = ctx.authInfo === undefined ? undefined : callers.get(ctx.authInfo);
      if (context === undefined) throw new Error(`${mount.label} request reached the server factory without an admitted caller`);
      return server(context);
    }, {
      legacy: 'stateless',
      maxRequestBodySize: BODY_LIMIT,
      onerror: (error) => app.log.warn({ err: error }, `${mount.label} request rejected or failed`),
    });
    return loaded;
  });
  app.addHook('onClose', async () => { await loaded?.close(); });

  /** The CORS headers to add (none without an Origin), or undefined once a foreign Origin has been refused. */
  const checkOrigin = (request: FastifyRequest, reply: FastifyReply): HeaderMap | undefined => {
    const { origin } = request.headers;
    if (origin === undefined) return {};
    if (isAllowedOrigin(origin, mount.baseUrl(), mount.allowedOrigins)) return corsHeaders(origin);
    mount.refuse(reply, {
      kind: 'origin_not_allowed',
      message: `Origin ${JSON.stringify(origin)} may not call ${mount.path}; only the service's own origin and BUTIK_ALLOWED_ORIGINS may.`,
    }, {});
    return undefined;
  };

  app.post(mount.path, async (request, reply) => {
    const cors = checkOrigin(request, reply);
    if (cors === undefined) return reply;
    const admission = await mount.admit(request, reply, cors);
    if (admission === undefined) return reply;
    const text = typeof request.body === 'string' ? request.body : undefined;
    try {
      if (text !== undefined) assertJsonDepth(text);
    } catch (error) {
      const message = error instanceof Error ? error.message : 'The request body nests too deep.';
      return mount.refuse(reply, { kind: 'invalid_json', message }, admission.headers);
    }
    const parsedBody = parseJson(text);
    if (parsedBody !== undefined && mount.screen?.(parsedBody, admission, reply)) return reply;

    const authInfo: AuthInfo = { token: '', clientId: admission.clientId, scopes: admission.scopes };
    callers.set(authInfo, admission.context);
    const response = await (await handler()).fetch(toWebRequest(request, mount.baseUrl(), parsedBody === undefined ? text : undefined), {
      authInfo,
      ...(parsedBody === undefined ? {} : { parsedBody }),
    });
    // The SDK marks streams no-cache; tool answers may hold private data, so nothing may store them.
    response.headers.set('cache-control', 'no-store, no-transform');
    if (response.body === null || opensStream(parsedBody)) return reply.headers(admission.headers).send(response);
    // Every other answer is one message and its stream ends with it: read whole, it goes out in one write
    // instead of a chunk per event and a closing chunk, each a system call, with the same bytes.
    const body = Buffer.from(await response.arrayBuffer());
    reply.code(response.status);
    for (const [name, value] of response.headers) reply.header(name, value);
    return reply.headers(admission.headers).send(body);
  });

  app.route({
    method: ['GET', 'DELETE'],
    url: mount.path,
    handler: (request, reply) => {
      const cors = checkOrigin(request, reply);
      if (cors === undefined) return reply;
      reply.header('allow', 'POST');
      return mount.refuse(reply, {
        kind: 'method_not_allowed',
        message: `${request.method} ${mount.path} is not supported: the endpoint is stateless; POST each JSON-RPC message.`,
      }, cors);
    },
  });

  app.options(mount.path, (request, reply) => {
    const cors = checkOrigin(request, reply);
    if (cors === undefined) return reply;
    const { origin } = request.headers;
    return reply.code(204).headers(origin === undefined ? { allow: 'POST' } : preflightHeaders(origin)).send();
  });
}

/**
 * The body parsed once here: handed over as `parsedBody`, it spares the SDK a clone and a second read of the
 * body stream per request. Undefined when it is not JSON, so the SDK reads the text and answers its own parse error.
 */
function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Whether the message asks for a stream that stays open (a subscription), which must be relayed as it comes. */
function opensStream(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'subscriptions/listen';
}

/**
 * The web Request the SDK serves, every header with all its values. It carries the body only when the SDK
 * must read it itself, and no abort signal: every answer is one message, written and done, and an
 * AbortController per request costs a DOMException with a stack whenever the reply closes.
 */
function toWebRequest(request: FastifyRequest, baseUrl: string, body: string | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return new Request(new URL(request.url, baseUrl), { method: request.method, headers, body: body ?? null });
}
