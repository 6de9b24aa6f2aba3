import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope } from '../../access/actor.ts';
import { html, safeSrc } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { readSettings } from '../../shop/settings.ts';
import { callTool, formKey, idempotencyKeyOf, readTool, readVersioned, refusalOf } from '../call.ts';
import type { Refusal } from '../call.ts';
import { conflictBox, isConflict, latestChanges } from '../conflict.ts';
import type { Conflict } from '../conflict.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { field, filled, textArea, wholeNumber } from '../fields.ts';
import { formatMoney } from '../format.ts';
import { signedIn } from '../session.ts';
import type { SignedIn } from '../session.ts';
import { t } from '../strings.ts';
import { changedOnly, postedOriginal, postedVersion, versionFields } from '../versioned-form.ts';

const PAGE_SIZE = 24;

type Summary = { slug: string; name: string; priceDkk: number; stock: number; categoryName: string; firstImage: string | null };
type Product = {
  id: string; slug: string; name: string; brand: string | null; description: string; priceDkk: number; stock: number; featured: boolean;
  frameColor: string | null; lensColor: string | null; images: string[]; category: { slug: string };
};
type Form = Record<string, string>;

/** The form as the person typed it, turned into the fields products.create and products.update take. */
function productFields(body: Form): Record<string, unknown> {
  const images = (body.images ?? '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const optional = ['brand', 'frameColor', 'lensColor', 'categorySlug'];
  return {
    name: body.name ?? '',
    description: body.description ?? '',
    priceDkk: wholeNumber(filled(body, 'priceDkk')) ?? '',
    stock: wholeNumber(filled(body, 'stock')) ?? '',
    featured: body.featured === 'on',
    images,
    ...Object.fromEntries(optional.flatMap((name) => (filled(body, name) ? [[name, filled(body, name)]] : []))),
  };
}

/** The edit form's fields but stock, in the tool's terms: what a save compares to find what the person changed. */
function editableFields(form: Form): Record<string, unknown> {
  const { stock: _adjustedApart, ...fields } = productFields(form);
  return fields;
}

const LABELS: Record<string, string> = {
  name: t.products.name, priceDkk: t.products.price, stock: t.products.stockChange, categorySlug: t.products.category, brand: t.products.brand,
  frameColor: t.products.frameColor, lensColor: t.products.lensColor, description: t.products.description, images: t.products.images, featured: t.products.featured,
};

/**
 * The stock field of the edit form: "+3" or "−1" / "-1" adjusts the stock as it is when the change is made
 * (products.adjust_stock), a plain number sets it (products.update, guarded by the version token), empty keeps it.
 * Other text goes to products.update as typed, for the tool to refuse by name.
 */
function stockChange(text: string | undefined): { by: number } | { set: number | string } | undefined {
  const typed = (text ?? '').trim().replace(/^[\u2212\u2013]/, '-');
  if (typed === '') return undefined;
  const adjustment = /^([+-])\s*(\d+)$/.exec(typed);
  if (adjustment) return Number(adjustment[2]) === 0 ? undefined : { by: (adjustment[1] === '-' ? -1 : 1) * Number(adjustment[2]) };
  return { set: wholeNumber(typed) ?? typed };
}

function formOf(product: Product): Form {
  return {
    name: product.name, description: product.description, priceDkk: String(product.priceDkk), stock: String(product.stock),
    brand: product.brand ?? '', frameColor: product.frameColor ?? '', lensColor: product.lensColor ?? '',
    categorySlug: product.category.slug, images: product.images.join('\n'), featured: product.featured ? 'on' : '',
  };
}

type Editing = { version: string; rendered: Form; stockNow: number; notes: Map<string, string> };

/** A field's saved value as the conflict form shows it beside the person's. */
function shownValue(name: string, rendered: Form): string {
  if (name === 'featured') return rendered.featured === 'on' ? t.discounts.yes : t.discounts.no;
  if (name === 'images') return (rendered.images ?? '').split('\n').join(', ');
  return rendered[name] ?? '';
}

function productForm(who: SignedIn, options: { action: string; values: Form; refusal?: Refusal; creating: boolean; editing?: Editing }): Html {
  const err = (name: string) => options.refusal?.fields.get(name) ?? options.refusal?.fields.get(`patch.${name}`);
  const note = (name: string) => options.editing?.notes.get(name);
  const v = options.values;
  const editing = options.editing;
  const images = (v.images ?? '').split(/\r?\n/).map((line) => safeSrc(line.trim())).filter((src): src is string => src !== undefined);
  return html`<form method="post" action="${options.action}" class="panel">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">${editing ? html`<input type="hidden" name="_idemStock" value="${formKey()}">${versionFields(editing.version, editing.rendered)}` : ''}
${options.creating ? field({ name: 'slug', label: t.products.slug, value: v.slug, error: err('slug'), required: true }) : ''}
${field({ name: 'name', label: t.products.name, value: v.name, error: err('name'), note: note('name'), required: true })}
${field({ name: 'priceDkk', label: t.products.price, type: 'number', value: v.priceDkk, error: err('priceDkk'), note: note('priceDkk'), required: true })}
${editing ? field({ name: 'stock', label: t.products.stockChange, value: v.stock, error: err('stock') ?? err('by'), note: t.products.stockNow(editing.stockNow) })
    : field({ name: 'stock', label: t.products.stock, type: 'number', value: v.stock, error: err('stock'), required: true })}
${field({ name: 'categorySlug', label: t.products.category, value: v.categorySlug, error: err('categorySlug') ?? err('categoryId'), note: note('categorySlug'), required: options.creating })}
${field({ name: 'brand', label: t.products.brand, value: v.brand, error: err('brand'), note: note('brand') })}
${field({ name: 'frameColor', label: t.products.frameColor, value: v.frameColor, error: err('frameColor'), note: note('frameColor') })}
${field({ name: 'lensColor', label: t.products.lensColor, value: v.lensColor, error: err('lensColor'), note: note('lensColor') })}
${textArea({ name: 'description', label: t.products.description, value: v.description, error: err('description'), note: note('description'), required: true })}
${textArea({ name: 'images', label: t.products.images, value: v.images, note: note('images'), error: [...(options.refusal?.fields ?? [])].find(([path]) => /(^|\.)images/.test(path))?.[1] })}
${images.length > 0 ? html`<div class="thumbs">${images.map((src, index) => html`<img src="${src}" alt="${v.name ?? ''} image ${index + 1}">`)}</div>` : ''}
<div class="field"><label><input type="checkbox" id="field-featured" name="featured"${v.featured === 'on' ? html` checked` : ''}${note('featured') ? html` aria-describedby="field-featured-note"` : ''}> ${t.products.featured}</label>${note('featured') ? html`<p class="hint" id="field-featured-note">${note('featured')}</p>` : ''}</div>
<button type="submit">${t.save}</button></form>`;
}

export function productPages(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Querystring: { q?: string; page?: string; done?: string } }>('/admin/products', async (request, reply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    const q = request.query.q?.trim();
    const page = Math.max(1, Number.parseInt(request.query.page ?? '1', 10) || 1);
    const outcome = await callTool(deps, request, who.actor, 'products.search', { ...(q ? { q } : {}), limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
    const products = outcome.ok ? outcome.result as Summary[] : [];
    const { currency } = await readSettings(deps.runtime.db);
    const link = (to: number) => `/admin/products?${new URLSearchParams({ ...(q ? { q } : {}), page: String(to) }).toString()}`;
    return sendAdminPage(reply, {
      title: t.products.title, current: 'products', viewer: who.viewer,
      main: html`<h1>${t.products.title}</h1>${request.query.done === 'deleted' ? noticeBox(t.products.deleted) : ''}
${outcome.ok ? '' : problemBox(outcome.problem.detail, outcome.problem.resolution)}
<form class="filters panel" method="get" action="/admin/products"><div><label for="f-q">${t.products.search}</label><input id="f-q" name="q" type="search" value="${q ?? ''}"></div><button type="submit">${t.filter}</button>
${hasScope(who.actor, 'products:write') ? html`<a class="button secondary" href="/admin/products/new">${t.products.newProduct}</a>` : ''}</form>
${products.length === 0 ? html`<p>${t.none}</p>` : html`<table class="stack"><thead><tr><th scope="col">${t.products.name}</th><th scope="col" class="num">${t.products.priceShown}</th><th scope="col" class="num">${t.products.stock}</th><th scope="col">${t.products.category}</th></tr></thead><tbody>
${products.map((product) => html`<tr><td data-label="${t.products.name}"><a href="/admin/products/${product.slug}">${product.name}</a></td><td data-label="${t.products.priceShown}" class="num">${formatMoney(product.priceDkk, currency)}</td><td data-label="${t.products.stock}" class="num">${product.stock}</td><td data-label="${t.products.category}">${product.categoryName}</td></tr>`)}
</tbody></table>`}
<nav class="pager" aria-label="Pages">${page > 1 ? html`<a href="${link(page - 1)}">${t.previous}</a>` : ''}${products.length === PAGE_SIZE ? html`<a href="${link(page + 1)}">${t.next}</a>` : ''}</nav>`,
    });
  });

  type EditOptions = { values?: Form; refusal?: Refusal; notice?: string; conflict?: boolean };

  const editPage = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, slug: string, options: EditOptions = {}) => {
    const { record: product, version } = await readVersioned<Product>(deps, request, who.actor, 'products.get', { slug });
    const canWrite = hasScope(who.actor, 'products:write');
    const rendered = formOf(product);
    const values = options.values ?? { ...rendered, stock: '' };
    const conflict = options.conflict ? await conflictWith(request, who, product, values) : undefined;
    // The stock field always shows the figure saved now, so it needs no second note.
    const notes = new Map((conflict?.fields ?? []).filter(({ name }) => name !== 'stock').map(({ name }) => [name, t.conflict.now(shownValue(name, rendered))]));
    return sendAdminPage(reply, {
      title: product.name, current: 'products', viewer: who.viewer,
      main: html`<h1>${product.name}</h1>${options.notice ? noticeBox(options.notice) : ''}${conflict ? conflictBox(conflict, deps.config.admin.timeZone) : ''}${options.refusal ? problemBox(options.refusal.detail, options.refusal.resolution) : ''}
${canWrite ? html`${productForm(who, { action: `/admin/products/${product.slug}`, values, creating: false, editing: { version, rendered, stockNow: product.stock, notes }, ...(options.refusal ? { refusal: options.refusal } : {}) })}
<p><a class="button secondary" href="/admin/products/${product.slug}/delete">${t.products.delete}</a></p>`
    : html`<dl class="panel">${Object.entries(rendered).map(([name, value]) => html`<dt>${name}</dt><dd>${value || '—'}</dd>`)}</dl>`}`,
    }, options.refusal || conflict ? (conflict ? 409 : 422) : 200);
  };

  /** The fields where what the person sent differs from the product as it is now, and who changed it lately. */
  const conflictWith = async (request: FastifyRequest, who: SignedIn, product: Product, typed: Form): Promise<Conflict> => {
    const now = editableFields(formOf(product));
    const differing = Object.keys(changedOnly(editableFields(typed), now));
    const stock = stockChange(typed.stock);
    if (stock && 'set' in stock && stock.set !== product.stock) differing.push('stock');
    return {
      fields: Object.keys(LABELS).filter((name) => differing.includes(name)).map((name) => ({ name, label: LABELS[name] ?? name })),
      latest: await latestChanges(deps, request, who.actor, product.id),
    };
  };

  app.get('/admin/products/new', async (request, reply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    return sendAdminPage(reply, { title: t.products.newProduct, current: 'products', viewer: who.viewer, main: html`<h1>${t.products.newProduct}</h1>${productForm(who, { action: '/admin/products/new', values: {}, creating: true })}` });
  });

  app.post<{ Body: Form }>('/admin/products/new', { preHandler: app.csrfProtection }, async (request, reply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    const body = request.body;
    const outcome = await callTool(deps, request, who.actor, 'products.create', { slug: body.slug ?? '', ...productFields(body) }, idempotencyKeyOf(body));
    if (outcome.ok) return reply.redirect(`/admin/products/${encodeURIComponent((outcome.result as { slug: string }).slug)}?done=created`, 303);
    const refusal = refusalOf(outcome.problem);
    return sendAdminPage(reply, { title: t.products.newProduct, current: 'products', viewer: who.viewer, main: html`<h1>${t.products.newProduct}</h1>${problemBox(refusal.detail, refusal.resolution)}${productForm(who, { action: '/admin/products/new', values: body, creating: true, refusal })}` }, 422);
  });

  app.get<{ Params: { slug: string }; Querystring: { done?: string } }>('/admin/products/:slug', async (request, reply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    const notice = { created: t.products.created, saved: t.products.saved, unchanged: t.unchanged }[request.query.done ?? ''];
    return editPage(request, reply, who, request.params.slug, notice ? { notice } : {});
  });

  app.post<{ Params: { slug: string }; Body: Form }>('/admin/products/:slug', { preHandler: app.csrfProtection }, async (request, reply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    const { slug } = request.params;
    const body = request.body;
    const original = postedOriginal(body);
    // Only what the person changed goes in the patch: a field they left alone never overwrites someone else's change.
    const patch = changedOnly(editableFields(body), original && editableFields(original));
    const stock = stockChange(body.stock);
    if (stock && 'set' in stock) patch.stock = stock.set;
    if (Object.keys(patch).length === 0 && !stock) return reply.redirect(`/admin/products/${encodeURIComponent(slug)}?done=unchanged`, 303);
    if (Object.keys(patch).length > 0) {
      const outcome = await callTool(deps, request, who.actor, 'products.update', { slug, patch }, idempotencyKeyOf(body), { ifMatch: postedVersion(body) });
      if (isConflict(outcome)) return editPage(request, reply, who, slug, { values: body, conflict: true });
      if (!outcome.ok) return editPage(request, reply, who, slug, { values: body, refusal: refusalOf(outcome.problem) });
    }
    // After the guarded update, so a conflict stops the whole save; the adjustment needs no token, as it counts from
    // the stock as it is then.
    if (stock && 'by' in stock) {
      // A key of its own, so a form sent twice adds "+3" once (the update's key is bound to the update's body).
      const adjusted = await callTool(deps, request, who.actor, 'products.adjust_stock', { slug, by: stock.by }, idempotencyKeyOf({ _idem: body._idemStock ?? '' }));
      if (!adjusted.ok) return editPage(request, reply, who, slug, { values: body, refusal: refusalOf(adjusted.problem) });
    }
    return reply.redirect(`/admin/products/${encodeURIComponent(slug)}?done=saved`, 303);
  });

  app.get<{ Params: { slug: string } }>('/admin/products/:slug/delete', async (request, reply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    const product = await readTool<Product>(deps, request, who.actor, 'products.get', { slug: request.params.slug });
    return sendAdminPage(reply, {
      title: t.products.deleteTitle, current: 'products', viewer: who.viewer,
      main: html`<h1>${t.products.deleteTitle}</h1><p><strong>${product.name}</strong> (${product.slug})</p><p>${t.products.deleteLead}</p>
<form method="post" action="/admin/products/${product.slug}/delete">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}"><button class="danger" type="submit">${t.products.deleteButton}</button> <a href="/admin/products/${product.slug}">${t.cancel}</a></form>`,
    });
  });

  app.post<{ Params: { slug: string }; Body: Form }>('/admin/products/:slug/delete', { preHandler: app.csrfProtection }, async (request, reply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    // The confirmation page is the person's "yes": the tool's confirm flag carries it.
    const outcome = await callTool(deps, request, who.actor, 'products.delete', { slug: request.params.slug, confirm: true }, idempotencyKeyOf(request.body));
    if (outcome.ok) return reply.redirect('/admin/products?done=deleted', 303);
    const refusal = refusalOf(outcome.problem);
    return sendAdminPage(reply, { title: t.refused, current: 'products', viewer: who.viewer, main: problemBox(refusal.detail, refusal.resolution) }, outcome.status);
  });
}
