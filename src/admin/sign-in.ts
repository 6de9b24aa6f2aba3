import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkSignIn, hasOwner, recordSignIn } from '../access/staff.ts';
import { endStaffSessions } from '../access/staff-sessions.ts';
import type { SignInLimiter } from '../access/sign-in-limit.ts';
import { html } from '../edge/html/template.ts';
import { isForeignPost } from '../edge/origin.ts';
import type { AppDeps } from '../deps.ts';
import { noticeBox, problemBox, sendAdminPage } from './document.ts';
import { draftField, draftOf, parseDraft } from './drafts.ts';
import type { Draft } from './drafts.ts';
import { t } from './strings.ts';

type SignInBody = { email?: string; password?: string; draft?: string };

function signInPage(options: { email?: string; message?: ReturnType<typeof html>; draft?: Draft | undefined }) {
  return {
    title: t.signIn.title,
    main: html`<div class="signin panel"><h1>${t.signIn.title}</h1>${options.message ?? ''}
<form method="post" action="/admin/login">${draftField(options.draft)}
<div class="field"><label for="email">${t.signIn.email}</label><input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}"></div>
<div class="field"><label for="password">${t.signIn.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit">${t.signIn.button}</button>
</form></div>`,
  };
}

/** What a shop without an owner shows where the sign-in form is: how the first owner comes to be. */
function noOwnerBox() {
  return html`<div class="notice" role="status"><p><strong>${t.signIn.noOwner}</strong></p><p>${t.signIn.noOwnerHow}</p></div>`;
}

/**
 * Sign-in and sign-out. The sign-in form carries no CSRF token: keeping no session for anonymous visitors means a
 * flood of page views stores nothing. A post another site's page makes (login CSRF) is refused by the browser's
 * Origin and Sec-Fetch-Site headers instead. Everything after sign-in carries a token.
 */
export function signInRoutes(app: FastifyInstance, deps: AppDeps, limiter: SignInLimiter): void {
  const { db } = deps.runtime;

  app.get('/admin', async (_request, reply) => reply.redirect('/admin/login', 303));
  app.get('/admin/', async (_request, reply) => reply.redirect('/admin/login', 303));

  app.get<{ Querystring: { signedOut?: string } }>('/admin/login', async (request, reply) => {
    if (request.session.staffId) return reply.redirect('/admin/overview', 303);
    if (!await hasOwner(db)) return sendAdminPage(reply, signInPage({ message: noOwnerBox() }));
    return sendAdminPage(reply, signInPage({ ...(request.query.signedOut ? { message: noticeBox(t.signIn.signedOut) } : {}) }));
  });

  app.post<{ Body: SignInBody }>('/admin/login', async (request, reply) => {
    const email = String(request.body?.email ?? '').slice(0, 254);
    const password = String(request.body?.password ?? '');
    const draft = parseDraft(request.body?.draft);
    // Login CSRF: a page of another site must not sign this browser in to an account of its choosing.
    if (isForeignPost(request.headers, deps.baseUrl)) {
      request.log.warn({ origin: request.headers.origin, site: request.headers['sec-fetch-site'] }, 'admin sign-in refused: posted from another site');
      return sendAdminPage(reply, { title: t.csrf.title, main: problemBox(t.csrf.detail, t.csrf.resolution) }, 403);
    }
    const turn = await limiter.take(email, request.ip);
    if (!turn.admitted) {
      request.log.warn({ email, ip: request.ip }, 'admin sign-in refused: too many failures');
      reply.header('retry-after', String(turn.retryAfter));
      return sendAdminPage(reply, signInPage({ email, draft, message: problemBox(t.signIn.limited) }), 429);
    }
    const member = await checkSignIn(db, email, password);
    if (!member) {
      request.log.warn({ email, ip: request.ip }, 'admin sign-in failed');
      return sendAdminPage(reply, signInPage({ email, draft, message: problemBox(t.signIn.failed) }), 401);
    }
    await turn.succeeded();
    await recordSignIn(db, member.id, deps.runtime.clock());
    // A new session id at sign-in: an id planted or seen before it is worth nothing after.
    await request.session.regenerate();
    request.session.staffId = member.id;
    request.log.info({ staffId: member.id, role: member.role }, 'admin sign-in');
    if (!draft) return reply.redirect('/admin/overview', 303);
    request.session.draft = draft;
    return reply.redirect(draft.path, 303);
  });

}

/**
 * A hook of the signed-in scope (signed-in.ts): a form post whose session has ended is answered with the sign-in
 * form carrying what was typed, and after sign-in the form comes back with it (drafts.ts). A post another site's
 * page made keeps nothing, so no one can fill a person's form for them.
 */
export function signInKeepingDraft(deps: AppDeps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (request.method !== 'POST' || request.session.staffId || isForeignPost(request.headers, deps.baseUrl)) return undefined;
    const draft = draftOf(request);
    if (!draft) return undefined;
    await sendAdminPage(reply, signInPage({ draft, message: noticeBox(t.signIn.draftKept) }), 401);
    return reply;
  };
}

/** Sign-out, of this session or of every session of the person: a route of the signed-in scope. */
export function signOutRoute(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Querystring: { everywhere?: string } }>('/admin/logout', async (request, reply) => {
    if (request.query.everywhere) await endStaffSessions(deps.runtime.db, request.staff.actor.staffId);
    await request.session.destroy();
    return reply.redirect('/admin/login?signedOut=1', 303);
  });
}
