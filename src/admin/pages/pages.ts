import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope } from '../../access/actor.ts';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import type { Layout } from '../../schema/layout.ts';
import { findPage } from '../../shop/content.ts';
import { callTool, formKey, idempotencyKeyOf, readTool, readVersioned, refusalOf } from '../call.ts';
import { isConflict } from '../conflict.ts';
import type { Refusal } from '../call.ts';
import { actByTool, confirmRoute } from '../confirm.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { field, select, textArea } from '../fields.ts';
import { formatDate } from '../format.ts';
import { layoutEditor } from '../layout-editor.ts';
import { applyOp, layoutInput, parseOp, sectionsFromForm, sectionsFromLayout } from '../layout-form.ts';
import type { FormNode } from '../layout-form.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';
import { changedOnly, keptOriginal, originalField, postedOriginal, postedVersion, versionFields } from '../versioned-form.ts';

type Summary = { slug: string; title: string; status: string; updatedAt: string };
type Form = Record<string, string>;

const DONE: Record<string, string> = {
  created: t.pages.created, saved: t.pages.saved, deleted: t.pages.deleted, layout: t.pages.layoutSaved, cleared: t.pages.layoutCleared, unchanged: t.unchanged,
};
const STATUSES = [{ value: 'published', label: t.pages.published }, { value: 'draft', label: t.pages.draft }];

export const pagePath = (slug: string, rest = ''): string => `/admin/pages/${encodeURIComponent(slug)}${rest}`;

function detailsForm(who: SignedIn, options: { action: string; values: Form; refusal?: Refusal | undefined; creating: boolean; rendered?: Form }): Html {
  const err = (name: string) => options.refusal?.fields.get(name);
  const v = options.values;
  return html`<form method="post" action="${options.action}" class="panel">${options.creating ? '' : html`<h2>${t.pages.details}</h2>`}${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">${options.rendered ? originalField(options.rendered) : ''}
${options.creating ? field({ name: 'slug', label: t.pages.slug, value: v.slug, error: err('slug'), required: true }) : ''}
${field({ name: 'title', label: t.pages.pageTitle, value: v.title, error: err('title'), required: true })}
${textArea({ name: 'body', label: t.pages.body, value: v.body, error: err('body'), required: true })}
${select({ name: 'status', label: t.pages.status, value: v.status, error: err('status'), options: STATUSES })}
<button type="submit">${t.save}</button></form>`;
}

/** A layout in the editor as the text a save compares: the input pages.set_layout would get. */
function layoutText(sections: readonly FormNode[]): string {
  return JSON.stringify(layoutInput(sections)).replaceAll('\\r\\n', '\\n');
}

function upsertInput(slug: string, body: Form): Record<string, unknown> {
  return { slug, title: body.title?.trim() ?? '', body: body.body ?? '', status: body.status ?? '' };
}

/** CMS pages: the list of pages.list, create, edit title, body, status and layout, preview, delete after a confirmation. */
export function pagePages(app: FastifyInstance, deps: AppDeps): void {
  const { timeZone } = deps.config.admin;

  app.get<{ Querystring: { done?: string } }>('/admin/pages', async (request, reply) => {
    const who = request.staff;
    const pages = await readTool<Summary[]>(deps, request, who.actor, 'pages.list', {});
    const done = DONE[request.query.done ?? ''];
    const p = t.pages;
    return sendAdminPage(reply, {
      title: p.title, current: 'pages', viewer: who.viewer,
      main: html`<h1>${p.title}</h1>${done ? noticeBox(done) : ''}
${hasScope(who.actor, 'pages:write') ? html`<p><a class="button secondary" href="/admin/pages/new">${p.newPage}</a></p>` : ''}
${pages.length === 0 ? html`<p>${t.none}</p>` : html`<table class="stack"><thead><tr><th scope="col">${p.pageTitle}</th><th scope="col">${p.slug}</th><th scope="col">${p.status}</th><th scope="col">${p.updated}</th><th scope="col">${p.preview}</th></tr></thead><tbody>
${pages.map((page) => html`<tr><td data-label="${p.pageTitle}"><a href="${pagePath(page.slug)}">${page.title}</a></td><td data-label="${p.slug}">${page.slug}</td><td data-label="${p.status}">${page.status}</td><td data-label="${p.updated}">${formatDate(page.updatedAt, timeZone)}</td><td data-label="${p.preview}"><a href="${pagePath(page.slug, '/preview')}">${p.preview}<span class="skip-link"> ${page.title}</span></a></td></tr>`)}
</tbody></table>`}`,
    });
  });

  const newPage = (reply: FastifyReply, who: SignedIn, values: Form, { refusal, notice }: { refusal?: Refusal; notice?: string } = {}) => sendAdminPage(reply, {
    title: t.pages.newPage, current: 'pages', viewer: who.viewer,
    main: html`<h1>${t.pages.newPage}</h1>${notice ? noticeBox(notice) : ''}${refusal ? problemBox(refusal.detail, refusal.resolution) : ''}${detailsForm(who, { action: '/admin/pages/new', values, creating: true, refusal })}`,
  }, refusal ? 422 : 200);

  app.get('/admin/pages/new', async (request, reply) => {
    const draft = takeDraft(request);
    return newPage(reply, request.staff, draft?.fields ?? { status: 'draft' }, draft ? { notice: t.signIn.draftRestored } : {});
  });

  app.post<{ Body: Form }>('/admin/pages/new', keepsDraft(), async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    const slug = body.slug?.trim() ?? '';
    // pages.upsert would quietly overwrite a page that has this slug; a person creating a page means a new one.
    const existing = (await readTool<Summary[]>(deps, request, who.actor, 'pages.list', {})).find((page) => page.slug === slug);
    if (existing) {
      return newPage(reply, who, body, { refusal: { detail: t.pages.slugTaken(slug), resolution: t.pages.slugTakenResolution, fields: new Map([['slug', t.pages.slugTaken(slug)]]) } });
    }
    const outcome = await callTool(deps, request, who.actor, 'pages.upsert', upsertInput(slug, body), idempotencyKeyOf(body));
    if (outcome.ok) return reply.redirect(`${pagePath((outcome.result as { slug: string }).slug)}?done=created`, 303);
    return newPage(reply, who, body, { refusal: refusalOf(outcome.problem) });
  });

  /** layoutVersion: the token the layout being edited was read with, kept while sections are added or moved unsaved. */
  type EditOptions = { values?: Form; refusal?: Refusal; notice?: string; sections?: FormNode[]; layoutRefusal?: Refusal; unsaved?: boolean; layoutVersion?: string | undefined; layoutWas?: string | undefined };

  const editPage = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, slug: string, options: EditOptions = {}) => {
    // The tool is the scope check and the 404; the row itself (its body) the page reads from shop/.
    const { record: layout, version } = await readVersioned<Layout | null>(deps, request, who.actor, 'pages.get_layout', { slug });
    const page = await findPage(deps.runtime.db, slug);
    const canWrite = hasScope(who.actor, 'pages:write');
    const rendered = { title: page.title, body: page.body, status: page.status };
    const values = options.values ?? rendered;
    const sections = options.sections ?? sectionsFromLayout(layout?.sections ?? []);
    const refusal = options.refusal ?? options.layoutRefusal;
    const p = t.pages;
    return sendAdminPage(reply, {
      title: page.title, current: 'pages', viewer: who.viewer,
      main: html`<h1>${page.title}</h1>${options.notice ? noticeBox(options.notice) : ''}${refusal ? problemBox(refusal.detail, refusal.resolution) : ''}
<p>${p.slug}: ${page.slug} · ${p.status}: ${page.status} · ${p.layout}: ${layout ? `${layout.sections.length} ${p.hasLayout}` : '—'}</p>
<p><a class="button secondary" href="${pagePath(page.slug, '/preview')}">${p.preview}</a> ${p.previewLead}</p>
${canWrite ? html`${detailsForm(who, { action: pagePath(page.slug), values, creating: false, refusal: options.refusal, rendered: keptOriginal(options.values, rendered) })}
${layoutEditor(who.viewer, { action: pagePath(page.slug, '/layout'), sections, unsaved: options.unsaved ?? false, stored: layout !== null,
  hidden: versionFields(options.layoutVersion ?? version, { layout: options.layoutWas ?? layoutText(sections) }), ...(options.layoutRefusal ? { refusal: options.layoutRefusal } : {}) })}
<p><a class="button secondary" href="${pagePath(page.slug, '/delete')}">${p.delete}</a></p>`
    : html`<dl class="panel"><dt>${p.pageTitle}</dt><dd>${page.title}</dd><dt>${p.status}</dt><dd>${page.status}</dd><dt>${p.body}</dt><dd>${page.body}</dd></dl>`}`,
    }, refusal ? 422 : 200);
  };

  app.get<{ Params: { slug: string }; Querystring: { done?: string } }>('/admin/pages/:slug', async (request, reply) => {
    const who = request.staff;
    const draft = takeDraft(request);
    const { slug } = request.params;
    if (draft?.action === pagePath(slug, '/layout')) {
      // The editor as it was posted, with the version and layout it was opened with: saving still finds a change made meanwhile.
      const { fields } = draft;
      return editPage(request, reply, who, slug, { sections: sectionsFromForm(fields), unsaved: true, layoutVersion: postedVersion(fields), layoutWas: postedOriginal(fields)?.layout, notice: t.signIn.draftRestored });
    }
    if (draft) return editPage(request, reply, who, slug, { values: draft.fields, notice: t.signIn.draftRestored });
    const notice = DONE[request.query.done ?? ''];
    return editPage(request, reply, who, slug, notice ? { notice } : {});
  });

  app.post<{ Params: { slug: string }; Body: Form }>('/admin/pages/:slug', keepsDraft(), async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    const original = postedOriginal(body);
    const input = upsertInput(request.params.slug, body);
    if (original && Object.keys(changedOnly(input, upsertInput(request.params.slug, original))).length === 0) {
      return reply.redirect(`${pagePath(request.params.slug)}?done=unchanged`, 303);
    }
    const outcome = await callTool(deps, request, who.actor, 'pages.upsert', input, idempotencyKeyOf(body));
    if (outcome.ok) return reply.redirect(`${pagePath(request.params.slug)}?done=saved`, 303);
    return editPage(request, reply, who, request.params.slug, { values: body, refusal: refusalOf(outcome.problem) });
  });

  app.post<{ Params: { slug: string }; Body: Form }>('/admin/pages/:slug/layout', keepsDraft('/admin/pages/:slug'), async (request, reply) => {
    const who = request.staff;
    const { slug } = request.params;
    const body = request.body;
    const op = parseOp(body);
    const sections = sectionsFromForm(body);
    const version = postedVersion(body);
    // The layout the editor was opened with, carried unchanged while sections are added or moved.
    const layoutWas = postedOriginal(body)?.layout;
    if (op && op.kind !== 'save' && op.kind !== 'clear') {
      return editPage(request, reply, who, slug, { sections: applyOp(sections, op), unsaved: true, layoutVersion: version, layoutWas });
    }
    if (op?.kind !== 'clear' && layoutWas === layoutText(sections)) return reply.redirect(`${pagePath(slug)}?done=unchanged#layout-title`, 303);
    const layout = op?.kind === 'clear' ? null : layoutInput(sections);
    const outcome = await callTool(deps, request, who.actor, 'pages.set_layout', { slug, layout }, idempotencyKeyOf(body), { ifMatch: version });
    if (outcome.ok) return reply.redirect(`${pagePath(slug)}?done=${layout ? 'layout' : 'cleared'}#layout-title`, 303);
    // On a conflict the editor keeps the person's sections with the fresh token: saving again replaces the page's layout.
    if (isConflict(outcome)) return editPage(request, reply, who, slug, { sections, unsaved: true, layoutRefusal: { detail: t.conflict.title, resolution: t.conflict.layout, fields: new Map<string, string>() } });
    // Any other refusal keeps the token and layout the editor was opened with, so a change made meanwhile is still found.
    return editPage(request, reply, who, slug, { sections, unsaved: true, layoutRefusal: refusalOf(outcome.problem), layoutVersion: version, layoutWas });
  });

  confirmRoute<{ slug: string }>(app, {
    path: '/admin/pages/:slug/delete', current: 'pages',
    ask: async (request, who) => {
      await readTool(deps, request, who.actor, 'pages.get_layout', { slug: request.params.slug });
      const page = await findPage(deps.runtime.db, request.params.slug);
      return { title: t.pages.deleteTitle, subject: html`<strong>${page.title}</strong> (${page.slug}, ${page.status})`, lead: t.pages.deleteLead, button: t.pages.deleteButton, back: pagePath(page.slug) };
    },
    act: actByTool(deps, 'pages', 'pages.delete', ({ slug }) => ({ slug, confirm: true }), () => '/admin/pages?done=deleted'),
  });
}
