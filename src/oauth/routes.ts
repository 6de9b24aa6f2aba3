import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders } from '../access/rate-limit.ts';
import { TOOL_SCOPES, UCP_BUYER_SCOPES } from '../access/scopes.ts';
import { NUL_REFUSAL, bodyHasNul } from '../edge/nul-bytes.ts';
import { sendProblem } from '../edge/problem-reply.ts';
import { ToolError } from '../errors/tool-error.ts';
import { sweepExpiredRecords } from './adapter.ts';
import { renderEndedPage } from './consent-page.ts';
import { buyerRoutes } from './buyer-routes.ts';
import { consentRoutes } from './consent-routes.ts';
import { OAUTH_PREFIX } from './names.ts';
import { REGISTRATION_BODY_LIMIT, checkRegistration } from './registration.ts';
import { PROTECTED_RESOURCE_PATHS, UCP_RESOURCE_PATH, resourceUrl } from './resources.ts';
import type { ResourcePath } from './resources.ts';
import type { AppDeps } from '../deps.ts';
import type { OAuthServer } from './server.ts';

/**
 * The headers of the site's pages, for every answer oidc-provider writes itself (its error page and JSON):
 * no script but the provider's own hashed inline one, nothing framed, nothing sniffed.
 */
const PROVIDER_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; "
    + "form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Expired records are swept at most this often per instance, piggybacked on registrations. */
const SWEEP_INTERVAL_MS = 60_000;

/** Hands a request to oidc-provider (Koa): Fastify lets go of the reply, the provider answers on the raw one. */
async function delegate(oauth: OAuthServer, request: FastifyRequest, reply: FastifyReply, url?: string): Promise<void> {
  const provider = await oauth.provider();
  reply.hijack();
  for (const [name, value] of Object.entries({ ...PROVIDER_HEADERS, ...reply.getHeaders() })) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
  // Fastify read the body as text already (json-body.ts); oidc-provider parses it from req.body then.
  Object.assign(request.raw, { body: typeof request.body === 'string' ? request.body : undefined });
  if (url) request.raw.url = url;
  await provider.callback()(request.raw, reply.raw);
}

/** OAuth errors are JSON of their own (RFC 6749, RFC 7591), not problem+json: clients read `error`. */
function oauthJsonError(reply: FastifyReply, status: number, body: { error: string; error_description: string }): FastifyReply {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(body);
}

/**
 * Only the query response mode: form_post would answer with a page whose form posts to the client, which the
 * provider pages' form-action forbids, and no MCP client asks for it.
 */
function responseModeOf(request: FastifyRequest): string | null {
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  const form = request.method === 'POST' && typeof request.body === 'string' ? new URLSearchParams(request.body) : undefined;
  return query.get('response_mode') ?? form?.get('response_mode') ?? null;
}

type OAuthRouteOptions = { deps: AppDeps; oauth: OAuthServer; masterKey: string };

export const oauthRoutes: FastifyPluginAsync<OAuthRouteOptions> = async (app, { deps, oauth, masterKey }) => {
  const resourceMetadata = (path: ResourcePath) => () => {
    const baseUrl = deps.baseUrl;
    return {
      resource: resourceUrl(baseUrl, path),
      authorization_servers: [baseUrl],
      scopes_supported: [...TOOL_SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'Butik MCP',
      resource_documentation: `${baseUrl}/docs`,
    };
  };
  app.get('/.well-known/oauth-protected-resource', resourceMetadata('/api/mcp'));
  for (const path of PROTECTED_RESOURCE_PATHS) app.get(`/.well-known/oauth-protected-resource${path}`, resourceMetadata(path));
  if (deps.config.ucp.mode !== 'off') {
    // The resource identity linking's tokens are for: what UCP's 401 and 403 challenges point to.
    app.get(`/.well-known/oauth-protected-resource${UCP_RESOURCE_PATH}`, () => ({
      resource: resourceUrl(deps.baseUrl, UCP_RESOURCE_PATH),
      authorization_servers: [deps.baseUrl],
      scopes_supported: [...UCP_BUYER_SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'Butik UCP',
      resource_documentation: `${deps.baseUrl}/docs`,
    }));
  }
  // RFC 8414 and OpenID discovery name the same document; oidc-provider serves it under the OpenID name.
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    app.get(path, (request, reply) => delegate(oauth, request, reply, '/.well-known/openid-configuration'));
  }

  // Registration, authorization, tokens and consent are open to anyone: each request counts under the
  // anonymous policy of its IP (the consent's master key additionally under preauth, consent-routes.ts).
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(`${OAUTH_PREFIX}/`)) return;
    const state = await deps.gate.limiter.consume('anon', request.ip);
    const headers = rateLimitHeaders([state], deps.config.rateWindowSeconds);
    if (state.exceeded) {
      return sendProblem(reply, new ToolError('rate_limited', `Rate limit "anon" of ${state.quota} requests per window exceeded; `
        + `retry in ${headers['retry-after'] ?? '1'} s.`, { retryAfter: Number(headers['retry-after'] ?? 1) }), deps.baseUrl, headers);
    }
    reply.headers(headers);
  });

  // oidc-provider reads the raw form or JSON body itself; a NUL in it would reach its storage and fail there as a 500.
  app.addHook('preHandler', async (request, reply) => {
    if (!request.url.startsWith(`${OAUTH_PREFIX}/`) || typeof request.body !== 'string' || !bodyHasNul(request.body)) return;
    request.log.warn({ url: request.url.slice(0, 200) }, 'OAuth request refused: NUL byte in the body');
    return oauthJsonError(reply, 400, { error: 'invalid_request', error_description: NUL_REFUSAL });
  });

  let lastSweep = 0;
  app.post(`${OAUTH_PREFIX}/register`, {
    bodyLimit: REGISTRATION_BODY_LIMIT,
    errorHandler: (error, _request, reply) => {
      if (error.statusCode !== 413) throw error;
      return oauthJsonError(reply, 413, {
        error: 'invalid_client_metadata', error_description: `The registration is larger than ${REGISTRATION_BODY_LIMIT} bytes.`,
      });
    },
  }, async (request, reply) => {
    const refused = checkRegistration(typeof request.body === 'string' ? request.body : '');
    if (refused) return oauthJsonError(reply, 400, refused);
    const now = Date.now();
    if (now - lastSweep > SWEEP_INTERVAL_MS) {
      lastSweep = now;
      await sweepExpiredRecords(deps.runtime.db, new Date(now))
        .catch((error: unknown) => request.log.warn({ err: error }, 'OAuth record sweep failed'));
    }
    return delegate(oauth, request, reply);
  });

  app.route({
    method: ['GET', 'POST'],
    url: `${OAUTH_PREFIX}/authorize`,
    handler: (request, reply) => {
      const mode = responseModeOf(request);
      if (mode !== null && mode !== 'query') {
        return reply.code(400).headers(PROVIDER_HEADERS).header('content-type', 'text/html; charset=utf-8')
          .send(renderEndedPage('This authorization cannot go on', 'Only response_mode=query is supported here.'));
      }
      return delegate(oauth, request, reply);
    },
  });

  app.all(`${OAUTH_PREFIX}/*`, (request, reply) => delegate(oauth, request, reply));
  await app.register(consentRoutes, { deps, oauth, masterKey });
  if (deps.config.ucp.mode !== 'off') await app.register(buyerRoutes, { deps, oauth, masterKey });
};
