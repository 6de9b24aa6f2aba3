import fastifyFormbody from '@fastify/formbody';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { checkBuyerSignIn, createBuyer } from '../access/buyers.ts';
import { MIN_PASSWORD_LENGTH } from '../access/passwords.ts';
import { isUcpBuyerScope } from '../access/scopes.ts';
import type { UcpBuyerScope } from '../access/scopes.ts';
import { signInLimiter } from '../access/sign-in-limit.ts';
import { OAUTH_CSRF, isCsrfRefusal, registerFormCsrf } from '../edge/form-csrf.ts';
import { sendHtml } from '../edge/html/respond.ts';
import type { AppDeps } from '../deps.ts';
import { buyerAccount, linkPath, linksBuyer } from './buyer-link.ts';
import { buyerPolicy, renderBuyerMessage, renderLinkPage, renderSignUpPage } from './buyer-pages.ts';
import type { LinkView } from './buyer-pages.ts';
import { UCP_RESOURCE_PATH, resourceUrl } from './resources.ts';
import type { OAuthServer } from './server.ts';

const ENDED = ['Forespørgslen er udløbet', 'Start forbindelsen forfra hos indkøbsassistenten.'] as const;
/** oidc-provider's interaction ids: what a `link` field may carry back to the link page. */
const INTERACTION_ID = /^[A-Za-z0-9_-]{1,64}$/;
const FORM_LIMIT = 16 * 1024;

type LinkForm = { _csrf?: string; decision?: string; email?: string; password?: string; scope?: string | string[] };
type SignUpForm = { _csrf?: string; email?: string; password?: string; link?: string };

/** A buyer's page is never stored: each holds a live interaction or a CSRF token. */
function send(reply: FastifyReply, status: number, body: string, redirectUri?: string): FastifyReply {
  return sendHtml(reply, { status, body, policy: buyerPolicy(redirectUri), cacheControl: 'no-store' });
}

const listOf = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * A buyer's side of UCP identity linking (docs/ucp.md#identity-linking), only while UCP is on: the sign-up page,
 * and the link page where the buyer signs in and consents to what the platform asked for. Forms carry a CSRF
 * token (edge/form-csrf.ts, its secret in a signed cookie), and failed sign-ins are limited per account and
 * per address as the console's are. Every request already counts under the anonymous rate limit (routes.ts).
 */
export const buyerRoutes: FastifyPluginAsync<{ deps: AppDeps; oauth: OAuthServer; masterKey: string }> = async (app, { deps, oauth, masterKey }) => {
  const { db } = deps.runtime;
  await registerFormCsrf(app, { cookie: OAUTH_CSRF, masterKey, secure: deps.baseUrl.startsWith('https://') });
  await app.register(fastifyFormbody, { bodyLimit: FORM_LIMIT });
  const limiter = signInLimiter({ redisUrl: deps.config.redisUrl, prefix: `${deps.config.redisPrefix}:buyer`, log: app.log });
  app.addHook('onClose', async () => limiter.close());

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isCsrfRefusal(error)) {
      request.log.warn({ code: error.code }, 'buyer form refused: CSRF');
      return send(reply, 403, renderBuyerMessage('Formularen er forældet', 'Gå tilbage, genindlæs siden og prøv igen.'));
    }
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: { message: error.message, code: error.code } }, 'buyer page failed');
    return send(reply, status, renderBuyerMessage('Noget gik galt', 'Prøv igen om lidt.'));
  });

  /** The linking interaction behind `uid`, when it is one, with what the link page shows. */
  async function linking(request: FastifyRequest, reply: FastifyReply, uid: string) {
    const provider = await oauth.provider();
    const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
    if (!details || details.uid !== uid || !linksBuyer(details.params, deps.baseUrl, true)) return undefined;
    const client = await provider.Client.find(String(details.params.client_id ?? ''));
    if (!client) return undefined;
    const requested = [...new Set(String(details.params.scope ?? '').split(' ').filter(isUcpBuyerScope))];
    const view: Omit<LinkView, 'csrfToken'> = {
      uid, clientName: client.clientName ?? client.clientId, redirectUri: String(details.params.redirect_uri ?? ''), requested,
    };
    return { provider, details, view };
  }

  app.get<{ Params: { uid: string }; Querystring: { created?: string } }>('/oauth/link/:uid', async (request, reply) => {
    const state = await linking(request, reply, request.params.uid);
    if (!state) return send(reply, 400, renderBuyerMessage(...ENDED));
    const created = request.query.created ? { notice: { text: 'Din konto er oprettet. Log ind for at forbinde den.', problem: false } } : {};
    return send(reply, 200, renderLinkPage({ ...state.view, ...created, csrfToken: reply.generateCsrf() }), state.view.redirectUri);
  });

  app.post<{ Params: { uid: string }; Body: LinkForm }>('/oauth/link/:uid', { preHandler: app.csrfProtection }, async (request, reply) => {
    const state = await linking(request, reply, request.params.uid);
    if (!state) return send(reply, 400, renderBuyerMessage(...ENDED));
    const { provider, details, view } = state;
    if (request.body?.decision !== 'approve') {
      reply.hijack();
      await provider.interactionFinished(request.raw, reply.raw, { error: 'access_denied', error_description: 'The buyer declined to link the account.' });
      return reply;
    }
    const email = String(request.body.email ?? '').slice(0, 254);
    const again = (status: number, text: string) =>
      send(reply, status, renderLinkPage({ ...view, email, notice: { text, problem: true }, csrfToken: reply.generateCsrf() }), view.redirectUri);
    const turn = await limiter.take(email, request.ip);
    if (!turn.admitted) {
      request.log.warn({ ip: request.ip }, 'buyer sign-in refused: too many failures');
      reply.header('retry-after', String(turn.retryAfter));
      return again(429, `For mange forsøg. Prøv igen om ${Math.ceil(turn.retryAfter / 60)} minutter.`);
    }
    const buyer = await checkBuyerSignIn(db, email, String(request.body.password ?? ''));
    if (!buyer) {
      request.log.warn({ ip: request.ip }, 'buyer sign-in failed');
      return again(401, 'Forkert e-mail eller adgangskode.');
    }
    await turn.succeeded();
    const chosen = listOf(request.body.scope).filter((scope): scope is UcpBuyerScope => view.requested.includes(scope as UcpBuyerScope));
    if (chosen.length === 0) return again(400, 'Sæt flueben ved mindst én ting, eller afvis forespørgslen.');

    const resource = resourceUrl(deps.baseUrl, UCP_RESOURCE_PATH);
    const accountId = buyerAccount(buyer.id);
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addResourceScope(resource, chosen.join(' '));
    // Unticked scopes are refused explicitly, so the token carries fewer scopes instead of consent being asked again.
    const refused = view.requested.filter((scope) => !chosen.includes(scope));
    if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(' '));
    // The UCP scopes are OpenID-level scopes to the provider as well (provider.ts), so they are granted there too.
    const protocolScopes = String(details.params.scope ?? '').split(' ').filter((scope) => scope === 'openid' || scope === 'offline_access');
    grant.addOIDCScope([...protocolScopes, ...chosen].join(' '));
    if (refused.length > 0) grant.rejectOIDCScope(refused.join(' '));
    const grantId = await grant.save();
    request.log.info({ buyerId: buyer.id, clientId: details.params.client_id, grantId }, 'buyer linked an account');
    reply.hijack();
    await provider.interactionFinished(request.raw, reply.raw, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    return reply;
  });

  app.get<{ Querystring: { link?: string } }>('/oauth/sign-up', async (request, reply) => {
    const link = request.query.link && INTERACTION_ID.test(request.query.link) ? request.query.link : undefined;
    return send(reply, 200, renderSignUpPage({ csrfToken: reply.generateCsrf(), ...(link ? { link } : {}) }));
  });

  app.post<{ Body: SignUpForm }>('/oauth/sign-up', { preHandler: app.csrfProtection }, async (request, reply) => {
    const link = request.body?.link && INTERACTION_ID.test(request.body.link) ? request.body.link : undefined;
    const email = String(request.body?.email ?? '').slice(0, 254);
    const created = await createBuyer(db, { email, password: String(request.body?.password ?? '') });
    if (!created.ok) {
      const problem = {
        email: 'Skriv en gyldig e-mailadresse.',
        password: `Adgangskoden skal have mindst ${MIN_PASSWORD_LENGTH} tegn.`,
        taken: 'Der findes allerede en konto med den e-mail. Log ind med den i stedet.',
      }[created.problem];
      return send(reply, created.problem === 'taken' ? 409 : 400, renderSignUpPage({ csrfToken: reply.generateCsrf(), email, problem, ...(link ? { link } : {}) }));
    }
    request.log.info({ buyerId: created.buyer.id }, 'buyer account created');
    if (link) return reply.redirect(`${linkPath(link)}?created=1`, 303);
    return send(reply, 201, renderBuyerMessage('Din konto er oprettet',
      'Når en indkøbsassistent beder om at forbinde din konto med butikken, logger du ind med din e-mail og adgangskode.'));
  });
};
