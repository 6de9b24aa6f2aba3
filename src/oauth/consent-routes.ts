import { timingSafeEqual } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { hashSecret } from '../access/api-keys.ts';
import { OAUTH_CSRF, isCsrfRefusal, registerFormCsrf } from '../edge/form-csrf.ts';
import { sendHtml } from '../edge/html/respond.ts';
import { retryAfterSeconds } from '../access/rate-limit.ts';
import { Scope } from '../access/scopes.ts';
import { linksBuyer } from './buyer-link.ts';
import { MAX_CONSENT_FAILURES, countConsentFailure } from './consent-attempts.ts';
import { consentPolicy, renderConsentPage, renderEndedPage } from './consent-page.ts';
import type { ConsentView } from './consent-page.ts';
import { OAUTH_PREFIX, OWNER_ACCOUNT, isDocumentClientId } from './names.ts';
import { resourceUrl, resourceUrls } from './resources.ts';
import type { AppDeps } from '../deps.ts';
import type { OAuthServer } from './server.ts';

const ENDED = ['This authorization request has expired', 'Start connecting again from the application.'] as const;
const FORM_LIMIT = 16 * 1024;

type ConsentPost = { _csrf?: string; decision?: string; masterKey?: string; scope?: string | string[] };
const listOf = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Consent pages are never stored: each holds a live interaction. */
function sendConsentPage(reply: FastifyReply, status: number, body: string, redirectUri?: string): FastifyReply {
  return sendHtml(reply, { status, body, policy: consentPolicy(redirectUri), cacheControl: 'no-store' });
}

function scopesIn(values: readonly string[]): Scope[] {
  return values.flatMap((scope) => {
    const parsed = Scope.safeParse(scope);
    return parsed.success ? [parsed.data] : [];
  });
}

type ConsentRouteOptions = { deps: AppDeps; oauth: OAuthServer; masterKey: string };

/**
 * The owner's side of an authorization: the consent page, and its answer. The form carries a CSRF token like
 * every other form under /oauth (edge/form-csrf.ts), so a page elsewhere cannot post an approval with or without
 * an Origin header. Approving takes the master key, so every attempt is counted as a guess under the
 * pre-authentication rate limit before the key is compared, and an interaction ends after MAX_CONSENT_FAILURES
 * wrong keys.
 */
export const consentRoutes: FastifyPluginAsync<ConsentRouteOptions> = async (app, { deps, oauth, masterKey }) => {
  const masterHash = Buffer.from(hashSecret(masterKey), 'hex');
  await registerFormCsrf(app, { cookie: OAUTH_CSRF, masterKey, secure: deps.baseUrl.startsWith('https://') });
  await app.register(fastifyFormbody, { bodyLimit: FORM_LIMIT });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isCsrfRefusal(error)) {
      request.log.warn({ code: error.code }, 'consent form refused: CSRF');
      return sendConsentPage(reply, 403, renderEndedPage('This form has expired', 'Go back, reload the page and try again.'));
    }
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: { message: error.message, code: error.code } }, 'consent page failed');
    return sendConsentPage(reply, status, renderEndedPage(...ENDED));
  });

  async function consentState(request: FastifyRequest, reply: FastifyReply) {
    const provider = await oauth.provider();
    const details = await provider.interactionDetails(request.raw, reply.raw);
    // A buyer's link (UCP identity linking) is answered on the link page only, never with the master key.
    if (linksBuyer(details.params, deps.baseUrl, deps.config.ucp.mode !== 'off')) return undefined;
    const client = await provider.Client.find(String(details.params.client_id ?? ''));
    if (!client) return undefined;
    const requestedRaw = String(details.params.scope ?? '').split(' ');
    const documentUrl = isDocumentClientId(client.clientId) ? client.clientId : undefined;
    const view: ConsentView = {
      uid: details.uid,
      clientName: client.clientName ?? client.clientId,
      clientUri: client.clientUri,
      documentUrl,
      documentHost: documentUrl ? new URL(documentUrl).host : undefined,
      logoUri: client.logoUri?.startsWith('https://') ? client.logoUri : undefined,
      redirectUri: String(details.params.redirect_uri ?? ''),
      requested: scopesIn(requestedRaw),
    };
    // The token is for the resource the client named (RFC 8707), else the default MCP endpoint's.
    const named = details.params.resource;
    const resource = typeof named === 'string' ? named : resourceUrl(deps.baseUrl, '/api/mcp');
    if (!resourceUrls(deps.baseUrl).includes(resource)) return undefined;
    return { provider, details, client, view, resource, requestedRaw };
  }

  app.get<{ Params: { uid: string } }>(`${OAUTH_PREFIX}/consent/:uid`, async (request, reply) => {
    const state = await consentState(request, reply).catch(() => undefined);
    if (!state || state.view.uid !== request.params.uid) return sendConsentPage(reply, 400, renderEndedPage(...ENDED));
    return sendConsentPage(reply, 200, renderConsentPage({ ...state.view, csrfToken: reply.generateCsrf() }), state.view.redirectUri);
  });

  app.post<{ Params: { uid: string }; Body: ConsentPost }>(`${OAUTH_PREFIX}/consent/:uid`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const state = await consentState(request, reply).catch(() => undefined);
    if (!state || state.view.uid !== request.params.uid) return sendConsentPage(reply, 400, renderEndedPage(...ENDED));
    const { provider, details, view, resource, requestedRaw } = state;
    const form = request.body;
    // Each page drawn again (a wrong key, too many attempts) carries a fresh token for the next post.
    const again = (error: string) => renderConsentPage({ ...view, error, csrfToken: reply.generateCsrf() });
    if (form.decision !== 'approve') {
      reply.hijack();
      await provider.interactionFinished(request.raw, reply.raw,
        { error: 'access_denied', error_description: 'The shop owner denied the request.' });
      return reply;
    }

    // A master key is a credential like a Bearer token: the guess is counted before it is compared.
    const limiter = deps.gate.limiter;
    const counted = await limiter.consume('preauth', request.ip);
    if (counted.exceeded) {
      const wait = retryAfterSeconds([counted]);
      reply.header('retry-after', String(wait));
      return sendConsentPage(reply, 429, again(`Too many attempts from your address; try again in ${wait} s.`), view.redirectUri);
    }
    const given = Buffer.from(hashSecret(form.masterKey ?? ''), 'hex');
    if (!timingSafeEqual(given, masterHash)) {
      const failures = await countConsentFailure(deps.runtime.db, details.uid, new Date(details.exp * 1000));
      if (failures >= MAX_CONSENT_FAILURES) {
        reply.hijack();
        await provider.interactionFinished(request.raw, reply.raw,
          { error: 'access_denied', error_description: 'The master key was wrong too many times.' });
        return reply;
      }
      const left = MAX_CONSENT_FAILURES - failures;
      return sendConsentPage(reply, 401, again(`Wrong master key. ${left} attempt${left === 1 ? '' : 's'} left.`), view.redirectUri);
    }
    await limiter.reward('preauth', request.ip, counted);

    const chosen = scopesIn(listOf(form.scope));
    const grant = new provider.Grant({ accountId: OWNER_ACCOUNT, clientId: String(details.params.client_id) });
    grant.addResourceScope(resource, chosen.join(' '));
    // Requested but unticked scopes are refused explicitly, so the token carries fewer scopes instead of the
    // provider asking for consent again.
    const refused = view.requested.filter((scope) => !chosen.includes(scope));
    if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(' '));
    // The same names are OpenID-level scopes to the provider as well (provider.ts), so they are granted there too.
    // openid and offline_access (asked for by clients that want refresh tokens) come with any approval.
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
