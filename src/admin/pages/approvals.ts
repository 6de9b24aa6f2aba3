import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { ConsoleRefusal, refusalOf, runOwnerCommand } from '../call.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { formatDate } from '../format.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';

/** An approval as the owner command `approvals.list` shows it to a person. */
type Shown = {
  id: string; status: string; reason: string; tool: string; agent: string; createdAt: string; expiresAt: string;
  arguments: Record<string, unknown>; before: Record<string, unknown> | null;
  decidedBy?: string; note?: string; result?: unknown; problem?: { code: string; detail: string };
};

const a = t.approvals;
const DONE: Record<string, string> = { approved: a.approved, denied: a.denied };

/** The values a call writes, by field: a products.update's patch, or the arguments themselves. */
function written(args: Record<string, unknown>): Record<string, unknown> {
  const patch = args.patch;
  return typeof patch === 'object' && patch !== null && !Array.isArray(patch) ? patch as Record<string, unknown> : args;
}

const shownValue = (value: unknown): string => (value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Before and after, field by field: the target as it was when the call was held beside what the arguments would
 * write. A call that creates a record shows only the after column.
 */
function preview(entry: Shown): Html {
  const after = written(entry.arguments);
  const fields = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(after)])].filter((field) => field !== 'confirm');
  return html`<table class="stack"><caption>${a.preview}${entry.before === null ? html` ${a.created}` : ''}</caption>
<thead><tr><th scope="col">${a.field}</th><th scope="col">${a.now}</th><th scope="col">${a.after}</th></tr></thead><tbody>
${fields.map((field) => {
    const changes = field in after;
    return html`<tr><th scope="row" data-label="${a.field}">${field}</th><td data-label="${a.now}">${shownValue(entry.before?.[field])}</td><td data-label="${a.after}">${changes ? html`<strong>${shownValue(after[field])}</strong>` : shownValue(entry.before?.[field])}</td></tr>`;
  })}</tbody></table>`;
}

/**
 * /admin/approvals: the calls a policy held, pending first. Staff see them; owners and managers decide, through
 * the owner commands the CLI runs (`butik approvals approve|deny`), as themselves on the admin channel.
 */
export function approvalPages(app: FastifyInstance, deps: AppDeps): void {
  const { timeZone } = deps.config.admin;

  /** note: what the person typed as their note, when the entry comes back with it (a draft after sign-in). */
  const entryView = (who: SignedIn, entry: Shown, headingLevel: 'h1' | 'h2', note = ''): Html => {
    const heading = html`${entry.tool} <small>${a.agent}: ${entry.agent}</small>`;
    const canDecide = who.actor.role !== 'viewer';
    return html`<section class="panel" aria-labelledby="ap-${entry.id}">
${headingLevel === 'h1' ? html`<h1 id="ap-${entry.id}">${heading}</h1>` : html`<h2 id="ap-${entry.id}"><a href="/admin/approvals/${entry.id}">${heading}</a></h2>`}
<dl class="facts"><div><dt>${a.status}</dt><dd><span class="status status-${entry.status}">${entry.status}</span></dd></div>
<div><dt>${a.reason}</dt><dd>${entry.reason}</dd></div>
<div><dt>${a.held}</dt><dd>${formatDate(entry.createdAt, timeZone)}</dd></div>
${entry.status === 'pending' ? html`<div><dt>${a.expires}</dt><dd>${formatDate(entry.expiresAt, timeZone)}</dd></div>` : ''}
${entry.decidedBy ? html`<div><dt>${a.decided}</dt><dd>${entry.decidedBy}${entry.note ? html` — “${entry.note}”` : ''}</dd></div>` : ''}
${entry.problem ? html`<div><dt>${a.problem}</dt><dd>${entry.problem.detail}</dd></div>` : ''}</dl>
${preview(entry)}
<details><summary>${a.arguments}</summary><pre><code>${JSON.stringify(entry.arguments, null, 2)}</code></pre></details>
${entry.status !== 'pending' ? '' : canDecide ? html`<form method="post" class="decide">${csrfField(who.viewer)}
<label for="note-${entry.id}">${a.note}</label><textarea id="note-${entry.id}" name="note" rows="2" maxlength="1000">${note}</textarea>
<div class="actions"><button type="submit" formaction="/admin/approvals/${entry.id}/approve">${a.approve}<span class="skip-link"> ${entry.tool} (${entry.agent})</span></button>
<button class="danger" type="submit" formaction="/admin/approvals/${entry.id}/deny">${a.deny}<span class="skip-link"> ${entry.tool} (${entry.agent})</span></button></div></form>`
      : html`<p class="meta">${a.viewerOnly}</p>`}
</section>`;
  };

  const listed = async (request: FastifyRequest, who: SignedIn, id?: string): Promise<Shown[]> => {
    const outcome = await runOwnerCommand(deps, request, who.actor, 'approvals.list', id === undefined ? {} : { id });
    if (!outcome.ok && outcome.problem.code === 'not_found') return [];
    if (!outcome.ok) throw new ConsoleRefusal(refusalOf(outcome.problem));
    return outcome.result as Shown[];
  };

  const listPage = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn) => {
    const entries = await listed(request, who);
    const waiting = entries.filter((entry) => entry.status === 'pending').length;
    return sendAdminPage(reply, {
      title: a.title, current: 'approvals', viewer: who.viewer,
      main: html`<h1>${a.title}</h1><p>${a.lead}</p><p class="meta">${a.policies}</p>
${waiting === 0 ? html`<p>${a.noneWaiting}</p>` : ''}
${entries.map((entry) => entryView(who, entry, 'h2'))}`,
    });
  };

  const onePage = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, id: string, notice?: Html, status = 200, note = '') => {
    const [entry] = await listed(request, who, id);
    if (!entry) return sendAdminPage(reply, { title: t.notFound, viewer: who.viewer, current: 'approvals', main: problemBox(t.notFound) }, 404);
    return sendAdminPage(reply, {
      title: `${a.title}: ${entry.tool}`, current: 'approvals', viewer: who.viewer,
      main: html`<p><a href="/admin/approvals">${a.title}</a></p>${notice ?? ''}${entryView(who, entry, 'h1', note)}`,
    }, status);
  };

  app.get('/admin/approvals', async (request, reply) => listPage(request, reply, request.staff));

  app.get<{ Params: { id: string }; Querystring: { done?: string } }>('/admin/approvals/:id', async (request, reply) => {
    const who = request.staff;
    const draft = takeDraft(request);
    if (draft) return onePage(request, reply, who, request.params.id, noticeBox(t.signIn.draftRestored), 200, draft.fields.note);
    const done = DONE[request.query.done ?? ''];
    return onePage(request, reply, who, request.params.id, done ? noticeBox(done) : undefined);
  });

  for (const decision of ['approve', 'deny'] as const) {
    app.post<{ Params: { id: string }; Body: Record<string, string> }>(`/admin/approvals/:id/${decision}`, keepsDraft('/admin/approvals/:id'), async (request, reply) => {
      const who = request.staff;
      const note = request.body?.note?.trim();
      const outcome = await runOwnerCommand(deps, request, who.actor, `approvals.${decision}`, { id: request.params.id, ...(note ? { note } : {}) });
      // A refusal (the target changed, decided meanwhile, a viewer's role) shows on the entry itself, with why.
      if (!outcome.ok) return onePage(request, reply, who, request.params.id, problemBox(outcome.problem.detail, outcome.problem.resolution), outcome.problem.status);
      return reply.redirect(`/admin/approvals/${encodeURIComponent(request.params.id)}?done=${decision === 'approve' ? 'approved' : 'denied'}`, 303);
    });
  }
}
