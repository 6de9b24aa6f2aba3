import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope } from '../../access/actor.ts';
import { html, link } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { callTool, formKey, idempotencyKeyOf, readTool, readVersioned, refusalOf } from '../call.ts';
import type { Refusal } from '../call.ts';
import { actByTool, confirmRoute } from '../confirm.ts';
import { conflictBox, isConflict, latestChanges } from '../conflict.ts';
import type { Conflict } from '../conflict.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { checkbox, field, filled, lines, select, textArea, wholeNumber } from '../fields.ts';
import { formatDate } from '../format.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';
import { changedOnly, keptOriginal, keptVersion, postedOriginal, postedVersion, versionFields } from '../versioned-form.ts';

type Summary = { slug: string; title: string; priceString: string | null; status: string; showInNav: boolean; navOrder: number; publicUrl: string; updatedAt: string };
type Service = Summary & { id: string; body: string; shortDescription: string | null; heroImage: string | null; features: string[] };
type Form = Record<string, string>;

const DONE: Record<string, string> = { created: t.services.created, saved: t.services.saved, deleted: t.services.deleted, unchanged: t.unchanged };
const STATUSES = [{ value: 'published', label: t.pages.published }, { value: 'draft', label: t.pages.draft }];

/**
 * The form as typed, turned into the fields services.create and services.update take. A field left empty is
 * left out: the tool keeps what is there (update) or its default (create), as it has no way to clear one.
 */
function serviceFields(body: Form): Record<string, unknown> {
  const optional = ['shortDescription', 'priceString', 'heroImage'].flatMap((name) => (filled(body, name) ? [[name, filled(body, name)]] : []));
  const navOrder = wholeNumber(filled(body, 'navOrder'));
  return {
    title: body.title?.trim() ?? '',
    body: body.body ?? '',
    features: lines(body.features),
    showInNav: body.showInNav === 'on',
    status: body.status ?? 'published',
    ...(navOrder !== undefined ? { navOrder } : {}),
    ...Object.fromEntries(optional),
  };
}

function formOf(service: Service): Form {
  return {
    title: service.title, body: service.body, shortDescription: service.shortDescription ?? '', priceString: service.priceString ?? '',
    heroImage: service.heroImage ?? '', features: service.features.join('\n'), showInNav: service.showInNav ? 'on' : '',
    navOrder: String(service.navOrder), status: service.status,
  };
}

const LABELS: Record<string, string> = {
  title: t.services.serviceTitle, shortDescription: t.services.shortDescription, priceString: t.services.priceString, heroImage: t.services.heroImage,
  body: t.services.body, features: t.services.features, navOrder: t.services.navOrder, status: t.services.status, showInNav: t.services.showInNav,
};

/** A field's saved value as the conflict form shows it beside the person's. */
function shownValue(name: string, rendered: Form): string {
  if (name === 'showInNav') return rendered.showInNav === 'on' ? t.discounts.yes : t.discounts.no;
  if (name === 'features') return (rendered.features ?? '').split('\n').join(', ');
  return rendered[name] ?? '';
}

type Editing = { version: string; rendered: Form; notes: Map<string, string> };

function serviceForm(who: SignedIn, options: { action: string; values: Form; refusal?: Refusal; creating: boolean; editing?: Editing }): Html {
  const err = (name: string) => options.refusal?.fields.get(name) ?? options.refusal?.fields.get(`patch.${name}`);
  const note = (name: string) => options.editing?.notes.get(name);
  const featureError = [...(options.refusal?.fields ?? [])].find(([path]) => /(^|\.)features/.test(path))?.[1];
  const v = options.values;
  const s = t.services;
  return html`<form method="post" action="${options.action}" class="panel">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">${options.editing ? versionFields(options.editing.version, options.editing.rendered) : ''}
${field({ name: 'title', label: s.serviceTitle, value: v.title, error: err('title'), note: note('title'), required: true })}
${options.creating ? field({ name: 'slug', label: s.slug, value: v.slug, error: err('slug') }) : ''}
${field({ name: 'shortDescription', label: s.shortDescription, value: v.shortDescription, error: err('shortDescription'), note: note('shortDescription') })}
${field({ name: 'priceString', label: s.priceString, value: v.priceString, error: err('priceString'), note: note('priceString') })}
${field({ name: 'heroImage', label: s.heroImage, type: 'url', value: v.heroImage, error: err('heroImage'), note: note('heroImage') })}
${textArea({ name: 'body', label: s.body, value: v.body, error: err('body'), note: note('body'), required: true })}
${textArea({ name: 'features', label: s.features, value: v.features, error: featureError, note: note('features') })}
${field({ name: 'navOrder', label: s.navOrder, type: 'number', value: v.navOrder, error: err('navOrder'), note: note('navOrder') })}
${select({ name: 'status', label: s.status, value: v.status, error: err('status'), note: note('status'), options: STATUSES })}
${checkbox({ name: 'showInNav', label: s.showInNav, checked: v.showInNav === 'on' })}
<button type="submit">${t.save}</button></form>`;
}

/** Service offerings: the list of services.list, create, edit every field but the slug, delete after a confirmation. */
export function servicePages(app: FastifyInstance, deps: AppDeps): void {
  const { timeZone } = deps.config.admin;
  const path = (slug: string, rest = '') => `/admin/services/${encodeURIComponent(slug)}${rest}`;

  app.get<{ Querystring: { done?: string } }>('/admin/services', async (request, reply) => {
    const who = request.staff;
    const services = await readTool<Summary[]>(deps, request, who.actor, 'services.list', {});
    const done = DONE[request.query.done ?? ''];
    const s = t.services;
    return sendAdminPage(reply, {
      title: s.title, current: 'services', viewer: who.viewer,
      main: html`<h1>${s.title}</h1>${done ? noticeBox(done) : ''}
${hasScope(who.actor, 'pages:write') ? html`<p><a class="button secondary" href="/admin/services/new">${s.newService}</a></p>` : ''}
${services.length === 0 ? html`<p>${t.none}</p>` : html`<table class="stack"><thead><tr><th scope="col">${s.serviceTitle}</th><th scope="col">${s.slugShown}</th><th scope="col">${s.priceString}</th><th scope="col">${s.status}</th><th scope="col" class="num">${s.order}</th><th scope="col">${t.pages.updated}</th></tr></thead><tbody>
${services.map((service) => html`<tr><td data-label="${s.serviceTitle}"><a href="${path(service.slug)}">${service.title}</a></td><td data-label="${s.slugShown}">${service.slug}</td><td data-label="${s.priceString}">${service.priceString ?? '—'}</td><td data-label="${s.status}">${service.status}</td><td data-label="${s.order}" class="num">${service.navOrder}</td><td data-label="${t.pages.updated}">${formatDate(service.updatedAt, timeZone)}</td></tr>`)}
</tbody></table>`}`,
    });
  });

  const newPage = (reply: FastifyReply, who: SignedIn, values: Form, { refusal, notice }: { refusal?: Refusal; notice?: string } = {}) => sendAdminPage(reply, {
    title: t.services.newService, current: 'services', viewer: who.viewer,
    main: html`<h1>${t.services.newService}</h1>${notice ? noticeBox(notice) : ''}${refusal ? problemBox(refusal.detail, refusal.resolution) : ''}${serviceForm(who, { action: '/admin/services/new', values, creating: true, ...(refusal ? { refusal } : {}) })}`,
  }, refusal ? 422 : 200);

  app.get('/admin/services/new', async (request, reply) => {
    const draft = takeDraft(request);
    return newPage(reply, request.staff, draft?.fields ?? { status: 'published' }, draft ? { notice: t.signIn.draftRestored } : {});
  });

  app.post<{ Body: Form }>('/admin/services/new', keepsDraft(), async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    const slug = filled(body, 'slug');
    const outcome = await callTool(deps, request, who.actor, 'services.create', { ...serviceFields(body), ...(slug ? { slug } : {}) }, idempotencyKeyOf(body));
    if (outcome.ok) return reply.redirect(`${path((outcome.result as { slug: string }).slug)}?done=created`, 303);
    return newPage(reply, who, body, { refusal: refusalOf(outcome.problem) });
  });

  const editPage = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, slug: string, options: { values?: Form; refusal?: Refusal; notice?: string; conflict?: boolean } = {}) => {
    const { record: service, version } = await readVersioned<Service>(deps, request, who.actor, 'services.get', { slug });
    const canWrite = hasScope(who.actor, 'pages:write');
    const rendered = formOf(service);
    // After a refusal, or restored after sign-in, the form keeps the baseline the person typed against; after a
    // conflict it is the service as it is now, so saving again is a deliberate choice to overwrite.
    const baseline = options.conflict ? undefined : options.values;
    const conflict = options.conflict ? await conflictWith(request, who, service, options.values ?? rendered) : undefined;
    const notes = new Map((conflict?.fields ?? []).map(({ name }) => [name, t.conflict.now(shownValue(name, rendered))]));
    return sendAdminPage(reply, {
      title: service.title, current: 'services', viewer: who.viewer,
      main: html`<h1>${service.title}</h1>${options.notice ? noticeBox(options.notice) : ''}${conflict ? conflictBox(conflict, timeZone) : ''}${options.refusal ? problemBox(options.refusal.detail, options.refusal.resolution) : ''}
<p>${t.services.slugShown}: ${service.slug} · ${link(service.publicUrl, service.publicUrl)}</p>
${canWrite ? html`${serviceForm(who, { action: path(service.slug), values: options.values ?? rendered, creating: false, editing: { version: keptVersion(baseline, version), rendered: keptOriginal(baseline, rendered), notes }, ...(options.refusal ? { refusal: options.refusal } : {}) })}
<p><a class="button secondary" href="${path(service.slug, '/delete')}">${t.services.delete}</a></p>`
    : html`<dl class="panel">${Object.entries(rendered).map(([name, value]) => html`<dt>${name}</dt><dd>${value || '—'}</dd>`)}</dl>`}`,
    }, conflict ? 409 : options.refusal ? 422 : 200);
  };

  /** The fields where what the person sent differs from the service as it is now, and who changed it lately. */
  const conflictWith = async (request: FastifyRequest, who: SignedIn, service: Service, typed: Form): Promise<Conflict> => {
    const differing = Object.keys(changedOnly(serviceFields(typed), serviceFields(formOf(service))));
    return {
      fields: Object.keys(LABELS).filter((name) => differing.includes(name)).map((name) => ({ name, label: LABELS[name] ?? name })),
      latest: await latestChanges(deps, request, who.actor, service.id),
    };
  };

  app.get<{ Params: { slug: string }; Querystring: { done?: string } }>('/admin/services/:slug', async (request, reply) => {
    const who = request.staff;
    const draft = takeDraft(request);
    if (draft) return editPage(request, reply, who, request.params.slug, { values: draft.fields, notice: t.signIn.draftRestored });
    const notice = DONE[request.query.done ?? ''];
    return editPage(request, reply, who, request.params.slug, notice ? { notice } : {});
  });

  app.post<{ Params: { slug: string }; Body: Form }>('/admin/services/:slug', keepsDraft(), async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    const original = postedOriginal(body);
    // Only what the person changed goes in the patch: a field they left alone never overwrites someone else's change.
    const patch = changedOnly(serviceFields(body), original && serviceFields(original));
    if (Object.keys(patch).length === 0) return reply.redirect(`${path(request.params.slug)}?done=unchanged`, 303);
    const outcome = await callTool(deps, request, who.actor, 'services.update', { slug: request.params.slug, patch }, idempotencyKeyOf(body), { ifMatch: postedVersion(body) });
    if (outcome.ok) return reply.redirect(`${path(request.params.slug)}?done=saved`, 303);
    if (isConflict(outcome)) return editPage(request, reply, who, request.params.slug, { values: body, conflict: true });
    return editPage(request, reply, who, request.params.slug, { values: body, refusal: refusalOf(outcome.problem) });
  });

  confirmRoute<{ slug: string }>(app, {
    path: '/admin/services/:slug/delete', current: 'services',
    ask: async (request, who) => {
      const service = await readTool<Service>(deps, request, who.actor, 'services.get', { slug: request.params.slug });
      return { title: t.services.deleteTitle, subject: html`<strong>${service.title}</strong> (${service.slug})`, lead: t.services.deleteLead, button: t.services.deleteButton, back: path(service.slug) };
    },
    act: actByTool(deps, 'services', 'services.delete', ({ slug }) => ({ slug, confirm: true }), () => '/admin/services?done=deleted'),
  });
}
