import type { FastifyInstance } from 'fastify';
import type { SignInLimiter } from '../access/sign-in-limit.ts';
import { StaffPassword } from '../access/staff.ts';
import { INVITE_PATH, acceptInvitation, closedDetail, invitationState } from '../access/staff-invitations.ts';
import type { ClosedState } from '../access/staff-invitations.ts';
import { html } from '../edge/html/template.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { AppDeps } from '../deps.ts';
import { problemBox, sendAdminPage } from './document.ts';
import type { AdminView } from './document.ts';
import { field } from './fields.ts';
import { t } from './strings.ts';

type InviteBody = { password?: string; confirm?: string };

/** Wrong links count against the address like failed sign-ins, under one shared name. */
const LIMIT_KEY = 'staff-invitation';

function invitePage(token: string, invited: { email: string; role: string }, errors: { password?: string; confirm?: string } = {}): AdminView {
  return {
    title: t.invite.title,
    main: html`<div class="signin panel"><h1>${t.invite.title}</h1><p>${t.invite.lead(invited.email, invited.role)}</p>
<form method="post" action="${INVITE_PATH}/${token}">
<input type="hidden" name="username" value="${invited.email}" autocomplete="username">
${field({ name: 'password', label: t.invite.password, type: 'password', error: errors.password, required: true })}
${field({ name: 'confirm', label: t.invite.confirm, type: 'password', error: errors.confirm, required: true })}
<button type="submit">${t.invite.button}</button>
</form></div>`,
  };
}

/** A link that opens no form: why, and that a new invitation from the owner is the way on. */
function closedPage(why: ClosedState | ToolError): AdminView {
  const detail = why instanceof ToolError ? why.detail : closedDetail(why);
  return { title: t.invite.closedTitle, main: html`<div class="signin"><h1>${t.invite.closedTitle}</h1>${problemBox(detail, t.invite.closedResolution)}</div>` };
}

const limitedPage: AdminView = { title: t.invite.title, main: problemBox(t.signIn.limited) };

/**
 * The link an owner's invitation makes (access/staff-invitations.ts): the invited person sets their password
 * and is signed in. Like the setup form it carries no CSRF token, since there is no session yet; the token in
 * the link is what a forged post cannot know.
 */
export function inviteRoutes(app: FastifyInstance, deps: AppDeps, limiter: SignInLimiter): void {
  const { db, clock } = deps.runtime;

  app.get<{ Params: { token: string } }>(`${INVITE_PATH}/:token`, async (request, reply) => {
    const turn = await limiter.take(LIMIT_KEY, request.ip);
    if (!turn.admitted) return sendAdminPage(reply, limitedPage, 429);
    const invitation = await invitationState(db, request.params.token, clock());
    if (invitation.state === 'unknown') return sendAdminPage(reply, closedPage(invitation.state), 404);
    await turn.succeeded();
    if (invitation.state !== 'open') return sendAdminPage(reply, closedPage(invitation.state), 410);
    return sendAdminPage(reply, invitePage(request.params.token, invitation));
  });

  app.post<{ Params: { token: string }; Body: InviteBody }>(`${INVITE_PATH}/:token`, async (request, reply) => {
    const { token } = request.params;
    const password = String(request.body?.password ?? '');
    const confirm = String(request.body?.confirm ?? '');
    const turn = await limiter.take(LIMIT_KEY, request.ip);
    if (!turn.admitted) return sendAdminPage(reply, limitedPage, 429);
    const invitation = await invitationState(db, token, clock());
    if (invitation.state === 'unknown') return sendAdminPage(reply, closedPage(invitation.state), 404);
    await turn.succeeded();
    if (invitation.state !== 'open') return sendAdminPage(reply, closedPage(invitation.state), 410);
    // Checked before the link is used, so a short or mistyped password keeps it.
    const checked = StaffPassword.safeParse(password);
    if (!checked.success) return sendAdminPage(reply, invitePage(token, invitation, { password: checked.error.issues[0]?.message ?? 'Choose another password.' }), 422);
    if (password !== confirm) return sendAdminPage(reply, invitePage(token, invitation, { confirm: t.invite.mismatch }), 422);
    try {
      const member = await acceptInvitation(db, { token, password, now: clock() });
      await request.session.regenerate();
      request.session.staffId = member.id;
      request.log.info({ staffId: member.id, role: member.role }, 'invited person joined the console');
      return await reply.redirect('/admin/overview', 303);
    } catch (error) {
      if (error instanceof ToolError) return sendAdminPage(reply, closedPage(error), 410);
      throw error;
    }
  });
}
