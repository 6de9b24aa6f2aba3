import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope } from '../../access/actor.ts';
import { html, safeSrc } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { readSettings } from '../../shop/settings.ts';
import { callTool, formKey, idempotencyKeyOf, readTool, refusalOf } from '../call.ts';
import type { Refusal } from '../call.ts';
import { actByTool, confirmRoute } from '../confirm.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { field, filled, textArea, wholeNumber } from '../fields.ts';
import { formatMoney } from '../format.ts';
import { formatMoneyInput, readAmounts } from '../money-input.ts';
import { amountWarnings, confirmedAnyway, saveButton, warningBox } from '../amount-checks.ts';
import { signedIn } from '../session.ts';
import type { SignedIn } from '../session.ts';
import { t } from '../strings.ts';

const PAGE_SIZE = 24;

type Summary = { slug: string; name: string; priceDkk: number; stock: number; categoryName: string; firstImage: string | null };
type Product = {
  slug: string; name: string; brand: string | null; description: string; priceDkk: number; stock: number; featured: boolean;
  frameColor: string | null; lensColor: string | null; images: string[]; category: { slug: string };
};
type Form = Record<string, string>;

/** The form as the person typed it (its price already read as minor units), turned into the fields products.create and products.update take. */
function productFields(body: Form, priceDkk: number | undefined): Record<string, unknown> {
  const images = (body.images ?? '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const optional = ['brand', 'frameColor', 'lensColor', 'categorySlug'];
  return {
    name: body.name ?? '',
    description: body.description ?? '',
    priceDkk: priceDkk ?? '',
    stock: wholeNumber(filled(body, 'stock')) ?? '',
    featured: body.featured === 'on',
    images,
    ...Object.fromEntries(optional.flatMap((name) => (filled(body, name) ? [[name, filled(body, name)]] : []))),
  };
}

function formOf(product: Product, currency: string): Form {
  return {
    name: product.name, description: product.description, priceDkk: formatMoneyInput(product.priceDkk, currency), stock: String(product.stock),
    brand: product.brand ?? '', frameColor: product.frameColor ?? '', lensColor: product.lensColor ?? '',
    categorySlug: product.category.slug, images: product.images.join('\n'), featured: product.featured ? 'on' : '',
  };
}

function productForm(who: SignedIn, options: { action: string; values: Form; currency: string; refusal?: Refusal; warned?: boolean; creating: boolean }): Html {
  const err = (name: string) => options.refusal?.fields.get(name) ?? options.refusal?.fields.get(`patch.${name}`);
  const v = options.values;
  const images = (v.images ?? '').split(/\r?\n/).map((line) => safeSrc(line.trim())).filter((src): src is string => src !== undefined);
  return html`<form method="post" action="${options.action}" class="panel">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">
${options.creating ? field({ name: 'slug', label: t.products.slug, value: v.slug, error: err('slug'), required: true }) : ''}
${field({ name: 'name', label: t.products.name, value: v.name, error: err('name'), required: true })}
${field({ name: 'priceDkk', label: t.products.price(options.currency), inputMode: 'decimal', value: v.priceDkk, error: err('priceDkk'), required: true })}
${field({ name: 'stock', label: t.products.stock, type: 'number', value: v.stock, error: err('stock'), required: true })}
${field({ name: 'categorySlug', label: t.products.category, value: v.categorySlug, error: err('categorySlug') ?? err('categoryId'), required: options.creating })}
${field({ name: 'brand', label: t.products.brand, value: v.brand, error: err('brand') })}
${field({ name: 'frameColor', label: t.products.frameColor, value: v.frameColor, error: err('frameColor') })}
${field({ name: 'lensColor', label: t.products.lensColor, value: v.lensColor, error: err('lensColor') })}
${textArea({ name: 'description', label: t.products.description, value: v.description, error: err('description'), required: true })}
${textArea({ name: 'images', label: t.products.images, value: v.images, error: [...(options.refusal?.fields ?? [])].find(([path]) => /(^|\.)images/.test(path))?.[1] })}
${images.length > 0 ? html`<div class="thumbs">${images.map((src, index) => html`<img src="${src}" alt="${v.name ?? ''} image ${index + 1}">`)}</div>` : ''}
<div class="field"><label><input type="checkbox" name="featured"${v.featured === 'on' ? html` checked` : ''}> ${t.products.featured}</label></div>
${saveButton(options.warned ?? false)}</form>`;
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

  const editPage = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, slug: string, options: { values?: Form; refusal?: Refusal; warnings?: string[]; notice?: string } = {}) => {
    const product = await readTool<Product>(deps, request, who.actor, 'products.get', { slug });
    const { currency } = await readSettings(deps.runtime.db);
    const canWrite = hasScope(who.actor, 'products:write');
    const warned = (options.warnings?.length ?? 0) > 0;
    return sendAdminPage(reply, {
      title: product.name, current: 'products', viewer: who.viewer,
      main: html`<h1>${product.name}</h1>${options.notice ? noticeBox(options.notice) : ''}${options.refusal ? problemBox(options.refusal.detail, options.refusal.resolution) : ''}${warned ? warningBox(options.warnings ?? []) : ''}
${canWrite ? html`${productForm(who, { action: `/admin/products/${product.slug}`, values: options.values ?? formOf(product, currency), currency, warned, creating: false, ...(options.refusal ? { refusal: options.refusal } : {}) })}
<p><a class="button secondary" href="/admin/products/${product.slug}/delete">${t.products.delete}</a></p>`
    : html`<dl class="panel">${Object.entries(formOf(product, currency)).map(([name, value]) => html`<dt>${name}</dt><dd>${value || '—'}</dd>`)}</dl>`}`,
    }, options.refusal ? 422 : 200);
  };

  const newPage = (reply: FastifyReply, who: SignedIn, currency: string, options: { values?: Form; refusal?: Refusal; warnings?: string[] } = {}) => {
    const warned = (options.warnings?.length ?? 0) > 0;
    return sendAdminPage(reply, {
      title: t.products.newProduct, current: 'products', viewer: who.viewer,
      main: html`<h1>${t.products.newProduct}</h1>${options.refusal ? problemBox(options.refusal.detail, options.refusal.resolution) : ''}${warned ? warningBox(options.warnings ?? []) : ''}
${productForm(who, { action: '/admin/products/new', values: options.values ?? {}, currency, warned, creating: true, ...(options.refusal ? { refusal: options.refusal } : {}) })}`,
    }, options.refusal ? 422 : 200);
  };

  app.get('/admin/products/new', async (request, reply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    const { currency } = await readSettings(deps.runtime.db);
    return newPage(reply, who, currency);
  });

  app.post<{ Body: Form }>('/admin/products/new', { preHandler: app.csrfProtection }, async (request, reply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    const body = request.body;
    const { currency } = await readSettings(deps.runtime.db);
    const read = readAmounts(body, ['priceDkk'], currency);
    if (!read.ok) return newPage(reply, who, currency, { values: body, refusal: read.refusal });
    const warnings = confirmedAnyway(body) ? [] : amountWarnings([{ label: t.products.priceShown, amount: read.amounts.priceDkk }], currency);
    if (warnings.length > 0) return newPage(reply, who, currency, { values: body, warnings });
    const outcome = await callTool(deps, request, who.actor, 'products.create', { slug: body.slug ?? '', ...productFields(body, read.amounts.priceDkk) }, idempotencyKeyOf(body));
    if (outcome.ok) return reply.redirect(`/admin/products/${encodeURIComponent((outcome.result as { slug: string }).slug)}?done=created`, 303);
    return newPage(reply, who, currency, { values: body, refusal: refusalOf(outcome.problem) });
  });

  app.get<{ Params: { slug: string }; Querystring: { done?: string } }>('/admin/products/:slug', async (request, reply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    const notice = request.query.done === 'created' ? t.products.created : request.query.done === 'saved' ? t.products.saved : undefined;
    return editPage(request, reply, who, request.params.slug, notice ? { notice } : {});
  });

  app.post<{ Params: { slug: string }; Body: Form }>('/admin/products/:slug', { preHandler: app.csrfProtection }, async (request, reply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    const body = request.body;
    const { currency } = await readSettings(deps.runtime.db);
    const read = readAmounts(body, ['priceDkk'], currency);
    if (!read.ok) return editPage(request, reply, who, request.params.slug, { values: body, refusal: read.refusal });
    if (!confirmedAnyway(body)) {
      const current = await readTool<Product>(deps, request, who.actor, 'products.get', { slug: request.params.slug });
      const warnings = amountWarnings([{ label: t.products.priceShown, amount: read.amounts.priceDkk, before: current.priceDkk }], currency);
      if (warnings.length > 0) return editPage(request, reply, who, request.params.slug, { values: body, warnings });
    }
    const outcome = await callTool(deps, request, who.actor, 'products.update', { slug: request.params.slug, patch: productFields(body, read.amounts.priceDkk) }, idempotencyKeyOf(body));
    if (outcome.ok) return reply.redirect(`/admin/products/${encodeURIComponent(request.params.slug)}?done=saved`, 303);
    return editPage(request, reply, who, request.params.slug, { values: body, refusal: refusalOf(outcome.problem) });
  });

  confirmRoute<{ slug: string }>(app, deps, {
    path: '/admin/products/:slug/delete', current: 'products',
    ask: async (request, who) => {
      const product = await readTool<Product>(deps, request, who.actor, 'products.get', { slug: request.params.slug });
      return { title: t.products.deleteTitle, subject: html`<strong>${product.name}</strong> (${product.slug})`, lead: t.products.deleteLead, button: t.products.deleteButton, back: `/admin/products/${product.slug}` };
    },
    act: actByTool(deps, 'products', 'products.delete', ({ slug }) => ({ slug, confirm: true }), () => '/admin/products?done=deleted'),
  });
}
