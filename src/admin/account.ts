import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SignInLimiter } from '../access/sign-in-limit.ts';
import { StaffPassword, changeOwnPassword } from '../access/staff.ts';
import { endStaffSessions } from '../access/staff-sessions.ts';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import type { AppDeps } from '../deps.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from './document.ts';
import { field } from './fields.ts';
import type { SignedIn } from './signed-in.ts';
import { t } from './strings.ts';

type AccountBody = { current?: string; next?: string; confirm?: string };
type Errors = { current?: string; next?: string; confirm?: string };

function accountPage(reply: FastifyReply, who: SignedIn, options: { top?: Html; errors?: Errors; status?: number } = {}) {
  const errors = options.errors ?? {};
  return sendAdminPage(reply, {
    title: t.account.title, current: 'account', viewer: who.viewer,
    main: html`<h1>${t.account.title}</h1>${options.top ?? ''}
<form method="post" action="/admin/account" class="panel">${csrfField(who.viewer)}<h2>${t.account.change}</h2>
<input type="hidden" name="username" value="${who.viewer.email}" autocomplete="username">
${field({ name: 'current', label: t.account.current, type: 'password', error: errors.current, required: true })}
${field({ name: 'next', label: t.account.next, type: 'password', error: errors.next, required: true })}
${field({ name: 'confirm', label: t.account.confirm, type: 'password', error: errors.confirm, required: true })}
<button type="submit">${t.account.button}</button></form>`,
  }, options.status ?? 200);
}

/**
 * Each signed-in person's own account: changing their password. A wrong current password counts against the
 * person like a failed sign-in, so a borrowed session cannot be used to guess it. Success ends every other
 * session of theirs and gives this browser a new session id (whoever held a copy of the old one is out).
 */
export function accountPages(app: FastifyInstance, deps: AppDeps, limiter: SignInLimiter): void {
  const { db } = deps.runtime;

  app.get<{ Querystring: { changed?: string } }>('/admin/account', async (request, reply) => accountPage(reply, request.staff, request.query.changed ? { top: noticeBox(t.account.changed) } : {}));

  app.post<{ Body: AccountBody }>('/admin/account', async (request, reply) => {
    const who = request.staff;
    const current = String(request.body.current ?? '');
    const next = String(request.body.next ?? '');
    const checked = StaffPassword.safeParse(next);
    if (!checked.success) return accountPage(reply, who, { errors: { next: checked.error.issues[0]?.message ?? 'Choose another password.' }, status: 422 });
    if (next !== String(request.body.confirm ?? '')) return accountPage(reply, who, { errors: { confirm: t.account.mismatch }, status: 422 });
    const turn = await limiter.take(who.viewer.email, request.ip);
    if (!turn.admitted) {
      reply.header('retry-after', String(turn.retryAfter));
      return accountPage(reply, who, { top: problemBox(t.signIn.limited), status: 429 });
    }
    const changed = await changeOwnPassword(db, who.actor.staffId, current, next);
    if (!changed) {
      request.log.warn({ staffId: who.actor.staffId, ip: request.ip }, 'admin password change refused: wrong current password');
      return accountPage(reply, who, { errors: { current: t.account.wrong }, status: 422 });
    }
    await turn.succeeded();
    await endStaffSessions(db, changed.id);
    await request.session.regenerate();
    request.session.staffId = changed.id;
    request.log.info({ staffId: changed.id }, 'admin changed their own password');
    return reply.redirect('/admin/account?changed=1', 303);
  });
}
