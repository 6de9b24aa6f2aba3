import type { FastifyInstance } from 'fastify';
import type { SignInLimiter } from '../access/sign-in-limit.ts';
import { StaffEmail, StaffPassword } from '../access/staff.ts';
import { SETUP_PATH, completeSetup, setupTokenIsOpen } from '../access/staff-setup.ts';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { AppDeps } from '../deps.ts';
import { problemBox, sendAdminPage } from './document.ts';
import type { AdminView } from './document.ts';
import { field } from './fields.ts';
import { t } from './strings.ts';

type SetupBody = { token?: string; email?: string; password?: string };

/** The failures of a wrong link count against the address like failed sign-ins, under one shared name. */
const LIMIT_KEY = 'first-owner-setup';

function setupPage(token: string, options: { email?: string; errors?: { email?: string; password?: string }; message?: Html } = {}): AdminView {
  return {
    title: t.setup.title,
    main: html`<div class="signin panel"><h1>${t.setup.title}</h1><p>${t.setup.lead}</p>${options.message ?? ''}
<form method="post" action="${SETUP_PATH}">
<input type="hidden" name="token" value="${token}">
${field({ name: 'email', label: t.setup.email, type: 'email', value: options.email, error: options.errors?.email, required: true })}
${field({ name: 'password', label: t.setup.password, type: 'password', error: options.errors?.password, required: true })}
<button type="submit">${t.setup.button}</button>
</form></div>`,
  };
}

/** Checked before the link is used, so a typo keeps it and shows next to the field. */
function fieldErrors(email: string, password: string): { email?: string; password?: string } {
  const emailCheck = StaffEmail.safeParse(email);
  const passwordCheck = StaffPassword.safeParse(password);
  return {
    ...(emailCheck.success ? {} : { email: 'Enter an e-mail address such as owner@example.com.' }),
    ...(passwordCheck.success ? {} : { password: passwordCheck.error.issues[0]?.message ?? 'Choose another password.' }),
  };
}

const closedPage: AdminView = { title: t.setup.title, main: problemBox(t.setup.closed, t.setup.closedResolution) };
const limitedPage: AdminView = { title: t.setup.title, main: problemBox(t.signIn.limited) };

/**
 * The one-time link `npm start` prints while the shop has no owner: a form that creates the first owner and
 * signs them in. Like the sign-in form it carries no CSRF token, since there is no session yet; the token in
 * the link is what a forged post cannot know.
 */
export function setupRoutes(app: FastifyInstance, deps: AppDeps, limiter: SignInLimiter): void {
  const { db, clock } = deps.runtime;

  app.get<{ Querystring: { token?: string } }>(SETUP_PATH, async (request, reply) => {
    const token = String(request.query.token ?? '');
    const turn = await limiter.take(LIMIT_KEY, request.ip);
    if (!turn.admitted) return sendAdminPage(reply, limitedPage, 429);
    if (!token || !await setupTokenIsOpen(db, token, clock())) return sendAdminPage(reply, closedPage, 404);
    await turn.succeeded();
    return sendAdminPage(reply, setupPage(token));
  });

  app.post<{ Body: SetupBody }>(SETUP_PATH, async (request, reply) => {
    const token = String(request.body?.token ?? '');
    const email = String(request.body?.email ?? '').slice(0, 254);
    const password = String(request.body?.password ?? '');
    // A typo in a field is answered before the link is tried, so it costs no attempt.
    const errors = fieldErrors(email, password);
    if (errors.email || errors.password) return sendAdminPage(reply, setupPage(token, { email, errors }), 422);
    const turn = await limiter.take(LIMIT_KEY, request.ip);
    if (!turn.admitted) return sendAdminPage(reply, limitedPage, 429);
    try {
      const owner = await completeSetup(db, { token, email, password, now: clock() });
      await turn.succeeded();
      await request.session.regenerate();
      request.session.staffId = owner.id;
      request.log.info({ staffId: owner.id }, 'first owner created from the setup link');
      return await reply.redirect('/admin/overview', 303);
    } catch (error) {
      if (error instanceof ToolError && error.code === 'already_exists') {
        // The link was right; only the e-mail is taken.
        await turn.succeeded();
        return sendAdminPage(reply, setupPage(token, { email, errors: { email: error.message } }), 409);
      }
      if (error instanceof ToolError) return sendAdminPage(reply, closedPage, 404);
      throw error;
    }
  });
}
