import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { hashSecret } from '../access/api-keys.ts';
import { Scope, TOOL_SCOPES } from '../access/scopes.ts';
import { consentPolicy, renderConsentPage } from './consent-page.ts';
import type { ConsentView } from './consent-page.ts';
import { MCP_RESOURCE_PATHS, OAUTH_PREFIX, OWNER_ACCOUNT, mcpResource, requestedResource } from './provider.ts';
import type { McpResourcePath } from './provider.ts';
import type { Services } from '../services.ts';
import type { OAuthServer } from './server.ts';

const HTML = 'text/html; charset=utf-8';

/** RFC 9728 metadata of an MCP endpoint; its address is what that endpoint's 401s advertise in WWW-Authenticate. */
export function resourceMetadataUrl(baseUrl: string, path: McpResourcePath = '/api/mcp'): string {
  return `${baseUrl}/.well-known/oauth-protected-resource${path}`;
}

/** Hands a request to oidc-provider (Koa): Fastify lets go of the reply, the provider answers on the raw one. */
async function delegate(oauth: OAuthServer, request: FastifyRequest, reply: FastifyReply, url?: string): Promise<void> {
  const provider = await oauth.provider();
  reply.hijack();
  // Fastify read the body as text already (json-body.ts); oidc-provider parses it from req.body then.
  Object.assign(request.raw, { body: typeof request.body === 'string' ? request.body : undefined });
  if (url) request.raw.url = url;
  await provider.callback()(request.raw, reply.raw);
}

function sendHtml(reply: FastifyReply, status: number, body: string, redirectUri?: string): FastifyReply {
  return reply.code(status).header('content-type', HTML).header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff').header('content-security-policy', consentPolicy(redirectUri)).send(body);
}

type OAuthRouteOptions = { services: Services; oauth: OAuthServer; masterKey: string };

export const oauthRoutes: FastifyPluginAsync<OAuthRouteOptions> = async (app, { services, oauth, masterKey }) => {
  const masterHash = Buffer.from(hashSecret(masterKey), 'hex');
  const resourceMetadata = (path: McpResourcePath) => async () => {
    const baseUrl = services.baseUrl;
    return {
      resource: mcpResource(baseUrl, path),
      authorization_servers: [baseUrl],
      scopes_supported: [...TOOL_SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'Butik MCP',
      resource_documentation: `${baseUrl}/docs`,
    };
  };
  app.get('/.well-known/oauth-protected-resource', resourceMetadata('/api/mcp'));
  for (const path of MCP_RESOURCE_PATHS) app.get(`/.well-known/oauth-protected-resource${path}`, resourceMetadata(path));
  // RFC 8414 and OpenID discovery name the same document; oidc-provider serves it under the OpenID name.
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    app.get(path, (request, reply) => delegate(oauth, request, reply, '/.well-known/openid-configuration'));
  }
  app.all(`${OAUTH_PREFIX}/*`, (request, reply) => delegate(oauth, request, reply));

  async function consentView(request: FastifyRequest, reply: FastifyReply, error?: string): Promise<ConsentView> {
    const provider = await oauth.provider();
    const details = await provider.interactionDetails(request.raw, reply.raw);
    const clientId = String(details.params.client_id ?? '');
    const client = await provider.Client.find(clientId);
    const requested = String(details.params.scope ?? '').split(' ').flatMap((scope) => {
      const parsed = Scope.safeParse(scope);
      return parsed.success ? [parsed.data] : [];
    });
    return {
      uid: details.uid,
      clientName: client?.clientName ?? clientId,
      clientUri: client?.clientUri,
      redirectUri: String(details.params.redirect_uri ?? ''),
      requested,
      ...(error ? { error } : {}),
    };
  }

  app.get<{ Params: { uid: string } }>(`${OAUTH_PREFIX}/consent/:uid`, async (request, reply) => {
    const view = await consentView(request, reply).catch(() => undefined);
    if (!view || view.uid !== request.params.uid) return sendHtml(reply, 400, expiredPage());
    return sendHtml(reply, 200, renderConsentPage(view), view.redirectUri);
  });

  app.post<{ Params: { uid: string } }>(`${OAUTH_PREFIX}/consent/:uid`, async (request, reply) => {
    // CSRF: the form posts only from this origin (the interaction cookie is SameSite=Lax as well).
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== new URL(services.baseUrl).origin) return sendHtml(reply, 403, expiredPage());
    const view = await consentView(request, reply).catch(() => undefined);
    if (!view || view.uid !== request.params.uid) return sendHtml(reply, 400, expiredPage());
    const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
    const provider = await oauth.provider();
    if (form.get('decision') !== 'approve') {
      reply.hijack();
      await provider.interactionFinished(request.raw, reply.raw,
        { error: 'access_denied', error_description: 'The shop owner denied the request.' });
      return reply;
    }
    const given = Buffer.from(hashSecret(form.get('masterKey') ?? ''), 'hex');
    if (!timingSafeEqual(given, masterHash)) return sendHtml(reply, 401, renderConsentPage({ ...view, error: 'Wrong master key.' }), view.redirectUri);
    const chosen = form.getAll('scope').flatMap((scope) => {
      const parsed = Scope.safeParse(scope);
      return parsed.success ? [parsed.data] : [];
    });
    const grant = new provider.Grant({ accountId: OWNER_ACCOUNT, clientId: String((await provider.interactionDetails(request.raw, reply.raw)).params.client_id) });
    // The endpoint the client asked for (the connector URL or /api/mcp) is the audience of its token.
    const resource = requestedResource(services.baseUrl, (await provider.interactionDetails(request.raw, reply.raw)).params.resource);
    grant.addResourceScope(resource, chosen.join(' '));
    // Requested but unticked scopes are refused explicitly, so the token carries fewer scopes instead of the
    // provider asking for consent again.
    const refused = view.requested.filter((scope) => !chosen.includes(scope));
    if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(' '));
    // The same names are OpenID-level scopes to the provider as well (provider.ts), so they are granted there too.
    // openid and offline_access (asked for by clients that want refresh tokens) come with any approval.
    const requestedRaw = String((await provider.interactionDetails(request.raw, reply.raw)).params.scope ?? '').split(' ');
    const protocolScopes = requestedRaw.filter((scope) => scope === 'openid' || scope === 'offline_access');
    grant.addOIDCScope([...protocolScopes, ...chosen].join(' '));
    if (refused.length > 0) grant.rejectOIDCScope(refused.join(' '));
    const grantId = await grant.save();
    reply.hijack();
    await provider.interactionFinished(request.raw, reply.raw,
      { login: { accountId: OWNER_ACCOUNT }, consent: { grantId } }, { mergeWithLastSubmission: false });
    return reply;
  });
};

function expiredPage(): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Request expired</title></head><body><main>'
    + '<h1>This authorization request has expired</h1><p>Start connecting again from the application.</p></main></body></html>';
}
