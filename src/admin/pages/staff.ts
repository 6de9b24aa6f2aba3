import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STAFF_ROLES } from '../../access/staff-roles.ts';
import type { StaffMember } from '../../access/staff.ts';
import type { Invitation, PendingInvitation } from '../../access/staff-invitations.ts';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { ConsoleRefusal, refusalOf, runOwnerCommand } from '../call.ts';
import type { Refusal } from '../call.ts';
import { confirmRoute } from '../confirm.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { field, select } from '../fields.ts';
import { formatDate } from '../format.ts';
import { ownersOnly } from '../signed-in.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';

type Form = Record<string, string | undefined>;

const withdrawPath = (id: string) => `/admin/staff/invitations/${encodeURIComponent(id)}/withdraw`;

const ROLE_OPTIONS = STAFF_ROLES.map((role) => ({ value: role, label: t.staff.roles[role] }));

/**
 * Staff, for owners: who may sign in to the console and with which role, and the invitations still waiting.
 * Every change is an owner command (commands/staff.ts), the same one `butik staff` runs, so the CLI and this
 * page share their checks (the last owner stays) and their audit entries.
 */
export function staffPages(app: FastifyInstance, deps: AppDeps): void {
  const { timeZone } = deps.config.admin;

  app.addHook('preHandler', ownersOnly(t.staff.title, t.staff.ownerOnly));

  const people = async (request: FastifyRequest, who: SignedIn): Promise<StaffMember[]> => {
    const listed = await runOwnerCommand(deps, request, who.actor, 'staff.list', {});
    if (!listed.ok) throw new ConsoleRefusal(refusalOf(listed.problem));
    return listed.result as StaffMember[];
  };

  const waiting = async (request: FastifyRequest, who: SignedIn): Promise<PendingInvitation[]> => {
    const listed = await runOwnerCommand(deps, request, who.actor, 'staff.invitations', {});
    if (!listed.ok) throw new ConsoleRefusal(refusalOf(listed.problem));
    return listed.result as PendingInvitation[];
  };

  const invitationsView = (invitations: PendingInvitation[]): Html => html`<section class="panel" aria-labelledby="pending"><h2 id="pending">${t.staff.pending}</h2><p>${t.staff.pendingLead}</p>
${invitations.length === 0 ? html`<p>${t.staff.noPending}</p>` : html`<table class="stack"><thead><tr><th scope="col">${t.staff.email}</th><th scope="col">${t.staff.role}</th><th scope="col">${t.staff.invitedBy}</th><th scope="col">${t.staff.expires}</th><th scope="col"><span class="skip-link">Actions</span></th></tr></thead><tbody>
${invitations.map((invitation) => html`<tr><td data-label="${t.staff.email}">${invitation.email}</td><td data-label="${t.staff.role}">${invitation.role}</td>
<td data-label="${t.staff.invitedBy}">${invitation.invitedBy ?? t.staff.notRecorded}</td><td data-label="${t.staff.expires}">${formatDate(invitation.expiresAt, timeZone)}</td>
<td><a class="button danger" href="${withdrawPath(invitation.id)}">${t.staff.withdraw}<span class="skip-link"> the invitation for ${invitation.email}</span></a></td></tr>`)}
</tbody></table>`}</section>`;

  const page = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, options: { top?: Html; typed?: Form; refusal?: Refusal; status?: number } = {}) => {
    const [members, invitations] = await Promise.all([people(request, who), waiting(request, who)]);
    return sendAdminPage(reply, {
      title: t.staff.title, current: 'staff', viewer: who.viewer,
      main: html`<h1>${t.staff.title}</h1>${options.top ?? ''}
<table class="stack"><thead><tr><th scope="col">${t.staff.email}</th><th scope="col">${t.staff.role}</th><th scope="col">${t.staff.lastSignIn}</th><th scope="col"><span class="skip-link">Actions</span></th></tr></thead><tbody>
${members.map((member) => html`<tr><td data-label="${t.staff.email}">${member.email}${member.id === who.actor.staffId ? html` ${t.staff.you}` : ''}</td>
<td data-label="${t.staff.role}"><form class="inline" method="post" action="/admin/staff/${member.id}/role">${csrfField(who.viewer)}<label class="skip-link" for="role-${member.id}">${t.staff.role} of ${member.email}</label><select id="role-${member.id}" name="role">${STAFF_ROLES.map((role) => html`<option value="${role}"${role === member.role ? html` selected` : ''}>${role}</option>`)}</select>
<button class="secondary" type="submit">${t.staff.changeRole}<span class="skip-link"> of ${member.email}</span></button></form></td>
<td data-label="${t.staff.lastSignIn}">${member.lastSignInAt ? formatDate(member.lastSignInAt, timeZone) : t.staff.never}</td>
<td><a class="button danger" href="/admin/staff/${member.id}/remove">${t.staff.remove}<span class="skip-link"> ${member.email}</span></a></td></tr>`)}
</tbody></table>
${invitationsView(invitations)}
<form method="post" action="/admin/staff/invite" class="panel">${csrfField(who.viewer)}<h2>${t.staff.invite}</h2><p>${t.staff.inviteLead}</p>
${field({ name: 'email', label: t.staff.email, type: 'email', value: options.typed?.email, error: options.refusal?.fields.get('email'), required: true })}
${select({ name: 'role', label: t.staff.role, value: options.typed?.role ?? 'viewer', options: ROLE_OPTIONS, error: options.refusal?.fields.get('role') })}
<button type="submit">${t.staff.inviteButton}</button></form>`,
    }, options.status ?? 200);
  };

  const shownOnce = (invitation: Invitation) => html`<div class="notice" role="status"><p>${t.staff.shownOnce}</p>${invitation.replacedEarlier ? html`<p>${t.staff.replaced}</p>` : ''}
<p><label for="invitation-link">${t.staff.link} (${invitation.email}, ${invitation.role})</label><input id="invitation-link" class="secret" readonly value="${invitation.link}" size="60"></p></div>`;

  const memberOf = async (request: FastifyRequest, who: SignedIn, id: string): Promise<StaffMember> => {
    const member = (await people(request, who)).find((candidate) => candidate.id === id);
    if (!member) throw new ConsoleRefusal({ detail: 'No such person works at the shop (any more).', resolution: 'Go back to Staff and choose a person from the list.', fields: new Map() });
    return member;
  };

  app.get('/admin/staff', async (request, reply) => {
    const draft = takeDraft(request);
    return page(request, reply, request.staff, draft ? { typed: draft.fields, top: noticeBox(t.signIn.draftRestored) } : {});
  });

  app.post<{ Body: Form }>('/admin/staff/invite', keepsDraft('/admin/staff'), async (request, reply) => {
    const who = request.staff;
    const typed = { email: String(request.body.email ?? ''), role: String(request.body.role ?? '') };
    const outcome = await runOwnerCommand(deps, request, who.actor, 'staff.invite', typed);
    if (!outcome.ok) {
      const refusal = refusalOf(outcome.problem);
      return page(request, reply, who, { top: problemBox(refusal.detail, refusal.resolution), typed, refusal, status: outcome.problem.status });
    }
    return page(request, reply, who, { top: shownOnce(outcome.result as Invitation) });
  });

  app.post<{ Params: { id: string }; Body: Form }>('/admin/staff/:id/role', async (request, reply) => {
    const who = request.staff;
    const member = await memberOf(request, who, request.params.id);
    const outcome = await runOwnerCommand(deps, request, who.actor, 'staff.set-role', { email: member.email, role: String(request.body.role ?? '') });
    if (!outcome.ok) {
      const refusal = refusalOf(outcome.problem);
      return page(request, reply, who, { top: problemBox(refusal.detail, refusal.resolution), status: outcome.problem.status });
    }
    const changed = outcome.result as StaffMember;
    // Demoting oneself ends one's own right to this page: the overview is where such a person goes on.
    if (changed.id === who.actor.staffId && changed.role !== 'owner') return reply.redirect('/admin/overview', 303);
    return page(request, reply, who, { top: noticeBox(t.staff.roleChanged(changed.email, changed.role)) });
  });

  confirmRoute<{ id: string }>(app, {
    path: '/admin/staff/invitations/:id/withdraw', current: 'staff',
    ask: async (request, who) => {
      const invitation = (await waiting(request, who)).find((candidate) => candidate.id === request.params.id);
      return invitation && {
        title: t.staff.withdrawTitle, subject: html`<strong>${invitation.email}</strong> (${invitation.role}), ${t.staff.expires.toLowerCase()} ${formatDate(invitation.expiresAt, timeZone)}`,
        lead: t.staff.withdrawLead, button: t.staff.withdrawButton, back: '/admin/staff',
      };
    },
    act: async (request, reply, who) => {
      const outcome = await runOwnerCommand(deps, request, who.actor, 'staff.cancel-invitation', { id: request.params.id });
      if (!outcome.ok) {
        const refusal = refusalOf(outcome.problem);
        return page(request, reply, who, { top: problemBox(refusal.detail, refusal.resolution), status: outcome.problem.status });
      }
      return page(request, reply, who, { top: noticeBox(t.staff.withdrawn((outcome.result as PendingInvitation).email)) });
    },
  });

  confirmRoute<{ id: string }>(app, {
    path: '/admin/staff/:id/remove', current: 'staff',
    ask: async (request, who) => {
      const member = (await people(request, who)).find((candidate) => candidate.id === request.params.id);
      return member && { title: t.staff.removeTitle, subject: html`<strong>${member.email}</strong> (${member.role})`, lead: t.staff.removeLead(member.email), button: t.staff.removeButton, back: '/admin/staff' };
    },
    act: async (request, reply, who) => {
      const member = await memberOf(request, who, request.params.id);
      const outcome = await runOwnerCommand(deps, request, who.actor, 'staff.remove', { email: member.email });
      if (!outcome.ok) {
        const refusal = refusalOf(outcome.problem);
        return page(request, reply, who, { top: problemBox(refusal.detail, refusal.resolution), status: outcome.problem.status });
      }
      if (member.id === who.actor.staffId) return reply.redirect('/admin/login', 303);
      return page(request, reply, who, { top: noticeBox(t.staff.removed(member.email)) });
    },
  });
}
