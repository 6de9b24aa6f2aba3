import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import type { AppDeps } from '../deps.ts';
import { callTool, formKey, idempotencyKeyOf, refusalOf } from './call.ts';
import { csrfField, problemBox, sendAdminPage } from './document.ts';
import type { NavItem } from './document.ts';
import type { SignedIn } from './signed-in.ts';
import { t } from './strings.ts';

type Params = Record<string, string>;
type Form = Record<string, string>;

/** What the confirmation page says: the thing by name, what will happen in plain words, the button, the way back. */
export type Question = { title: string; subject: Html; lead: string; button: string; back: string };

export type Confirmation<P extends Params> = {
  /** One path for both: GET asks, POST (with the form's CSRF token) does it. */
  path: string;
  current: NavItem;
  /** The page's words; undefined when the thing is not there (a 404 page). */
  ask(request: FastifyRequest<{ Params: P }>, who: SignedIn): Promise<Question | undefined>;
  act(request: FastifyRequest<{ Params: P; Body: Form }>, reply: FastifyReply, who: SignedIn): Promise<FastifyReply>;
};

/**
 * An irreversible or sales-stopping action as a page pair that works without JavaScript: the GET page says what
 * will happen, and only its form's POST does it. Links elsewhere in the console lead to the page, never to the act.
 */
export function confirmRoute<P extends Params>(app: FastifyInstance, confirmation: Confirmation<P>): void {
  app.get<{ Params: P }>(confirmation.path, async (request, reply) => {
    const { viewer } = request.staff;
    const question = await confirmation.ask(request, request.staff);
    if (!question) return sendAdminPage(reply, { title: t.notFound, current: confirmation.current, viewer, main: problemBox(t.notFound) }, 404);
    const action = request.url.split('?')[0] ?? '';
    return sendAdminPage(reply, {
      title: question.title, current: confirmation.current, viewer,
      main: html`<h1>${question.title}</h1><p>${question.subject}</p><p>${question.lead}</p>
<form method="post" action="${action}">${csrfField(viewer)}<input type="hidden" name="_idem" value="${formKey()}"><button class="danger" type="submit">${question.button}</button> <a href="${question.back}">${t.cancel}</a></form>`,
    });
  });

  app.post<{ Params: P; Body: Form }>(confirmation.path, async (request, reply) => confirmation.act(request, reply, request.staff));
}

/**
 * The usual act: one tool call as the person, then to `done`'s page; a refusal is shown with what to do.
 * The confirmation page is the person's "yes", so a tool's own confirm flag may be set in `input`.
 */
export function actByTool<P extends Params>(deps: AppDeps, current: NavItem, name: string, input: (params: P) => Record<string, unknown>, done: (result: unknown, params: P) => string): Confirmation<P>['act'] {
  return async (request, reply, who) => {
    const params = request.params as P;
    const outcome = await callTool(deps, request, who.actor, name, input(params), idempotencyKeyOf(request.body));
    if (outcome.ok) return reply.redirect(done(outcome.result, params), 303);
    const refusal = refusalOf(outcome.problem);
    return sendAdminPage(reply, { title: t.refused, current, viewer: who.viewer, main: problemBox(refusal.detail, refusal.resolution) }, outcome.status);
  };
}
