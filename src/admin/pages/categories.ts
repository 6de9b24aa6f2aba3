import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope } from '../../access/actor.ts';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { callTool, formKey, idempotencyKeyOf, readTool, refusalOf } from '../call.ts';
import type { Refusal } from '../call.ts';
import { actByTool, confirmRoute } from '../confirm.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { field, filled, textArea } from '../fields.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';
import { changedOnly, originalField, postedOriginal } from '../versioned-form.ts';

const PAGE_SIZE = 50;

type Category = { id: string; slug: string; name: string; description: string | null; productCount: number };
type Form = Record<string, string>;
type ListQuery = { page?: string; done?: string; edit?: string };

const DONE: Record<string, string> = { saved: t.categories.saved, deleted: t.categories.deleted, unchanged: t.unchanged };

/** The form as typed, turned into categories.upsert's input. */
function upsertInput(body: Form): Record<string, unknown> {
  const description = filled(body, 'description');
  return { slug: body.slug?.trim() ?? '', name: body.name?.trim() ?? '', ...(description ? { description } : {}) };
}

/** rendered: the category the form was opened to edit, if any, kept through a refusal or a sign-in; a save that changes none of it writes nothing. */
function categoryForm(who: SignedIn, values: Form, refusal?: Refusal, rendered?: Form): Html {
  const err = (name: string) => refusal?.fields.get(name);
  return html`<form method="post" action="/admin/categories" class="panel">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">${rendered ? originalField(rendered) : ''}
<h2>${t.categories.form}</h2><p>${t.categories.formLead}</p>
${field({ name: 'slug', label: t.categories.slug, value: values.slug, error: err('slug'), required: true })}
${field({ name: 'name', label: t.categories.name, value: values.name, error: err('name'), required: true })}
${textArea({ name: 'description', label: t.categories.description, value: values.description, error: err('description') })}
<button type="submit">${t.save}</button></form>`;
}

/** Categories: the list of categories.list (paged here, as the tool returns them all), upsert and delete. */
export function categoryPages(app: FastifyInstance, deps: AppDeps): void {
  const listPage = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, query: ListQuery,
    options: { values?: Form; refusal?: Refusal; notice?: string } = {}) => {
    const all = await readTool<Category[]>(deps, request, who.actor, 'categories.list', { includeEmpty: true });
    const page = Math.max(1, Number.parseInt(query.page ?? '1', 10) || 1);
    const shown = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    const editing = all.find((category) => category.slug === query.edit);
    const rendered = editing ? { slug: editing.slug, name: editing.name, description: editing.description ?? '' } : undefined;
    const values = options.values ?? rendered ?? {};
    const canWrite = hasScope(who.actor, 'categories:write');
    const done = options.notice ?? DONE[query.done ?? ''];
    return sendAdminPage(reply, {
      title: t.categories.title, current: 'categories', viewer: who.viewer,
      main: html`<h1>${t.categories.title}</h1>${done ? noticeBox(done) : ''}${options.refusal ? problemBox(options.refusal.detail, options.refusal.resolution) : ''}
${shown.length === 0 ? html`<p>${t.none}</p>` : html`<table class="stack"><thead><tr><th scope="col">${t.categories.name}</th><th scope="col">${t.categories.slug}</th><th scope="col" class="num">${t.categories.products}</th>${canWrite ? html`<th scope="col">${t.categories.actions}</th>` : ''}</tr></thead><tbody>
${shown.map((category) => html`<tr><td data-label="${t.categories.name}">${category.name}</td><td data-label="${t.categories.slug}">${category.slug}</td><td data-label="${t.categories.products}" class="num">${category.productCount}</td>${canWrite ? html`<td data-label="${t.categories.actions}"><a href="/admin/categories?edit=${category.slug}#field-name">${t.products.edit}<span class="skip-link"> ${category.name}</span></a> · <a href="/admin/categories/${category.slug}/delete">${t.products.delete}<span class="skip-link"> ${category.name}</span></a></td>` : ''}</tr>`)}
</tbody></table>`}
<nav class="pager" aria-label="Pages">${page > 1 ? html`<a href="/admin/categories?page=${page - 1}">${t.previous}</a>` : ''}${all.length > page * PAGE_SIZE ? html`<a href="/admin/categories?page=${page + 1}">${t.next}</a>` : ''}</nav>
${canWrite ? categoryForm(who, values, options.refusal, options.values ? postedOriginal(options.values) : rendered) : ''}`,
    }, options.refusal ? 422 : 200);
  };

  app.get<{ Querystring: ListQuery }>('/admin/categories', async (request, reply) => {
    const draft = takeDraft(request);
    return listPage(request, reply, request.staff, request.query, draft ? { values: draft.fields, notice: t.signIn.draftRestored } : {});
  });

  app.post<{ Body: Form }>('/admin/categories', keepsDraft(), async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    const input = upsertInput(body);
    const original = postedOriginal(body);
    if (original && Object.keys(changedOnly(input, upsertInput(original))).length === 0) return reply.redirect('/admin/categories?done=unchanged', 303);
    const outcome = await callTool(deps, request, who.actor, 'categories.upsert', input, idempotencyKeyOf(body));
    if (outcome.ok) return reply.redirect('/admin/categories?done=saved', 303);
    return listPage(request, reply, who, {}, { values: body, refusal: refusalOf(outcome.problem) });
  });

  confirmRoute<{ slug: string }>(app, {
    path: '/admin/categories/:slug/delete', current: 'categories',
    ask: async (request, who) => {
      const category = (await readTool<Category[]>(deps, request, who.actor, 'categories.list', { includeEmpty: true }))
        .find((candidate) => candidate.slug === request.params.slug);
      return category && {
        title: t.categories.deleteTitle, subject: html`<strong>${category.name}</strong> (${category.slug}) · ${t.categories.products}: ${category.productCount}`,
        lead: t.categories.deleteLead, button: t.categories.deleteButton, back: '/admin/categories',
      };
    },
    act: actByTool(deps, 'categories', 'categories.delete', ({ slug }) => ({ slug, confirm: true }), () => '/admin/categories?done=deleted'),
  });
}
