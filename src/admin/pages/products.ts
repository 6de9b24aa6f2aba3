import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope } from '../../access/actor.ts';
import { html, safeSrc } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { readSettings } from '../../shop/settings.ts';
import { fieldLabel } from '../activity-words.ts';
import { callTool, formKey, idempotencyKeyOf, readTool, readVersioned, refusalOf } from '../call.ts';
import type { Refusal } from '../call.ts';
import {
  changedOnly, fieldsThatDiffer, keptOriginal, keptVersion, postedOriginal, postedReadAt, postedVersion, readAtField, versionFields,
} from '../versioned-form.ts';
import { parseStockChange } from '../stock-change.ts';
import { categoryChoice, categoryOptions } from '../category-choice.ts';
import type { CategoryOption } from '../category-choice.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { field, filled, textArea, wholeNumber } from '../fields.ts';
import { formatDate, formatMoney } from '../format.ts';
import { formatMoneyInput, readAmounts } from '../money-input.ts';
import { amountWarnings, confirmedAnyway, saveButton, warningBox } from '../amount-checks.ts';
import { actByTool, confirmRoute } from '../confirm.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';
import type { AuditEntry } from './activity.ts';

const PAGE_SIZE = 24;

type Summary = { slug: string; name: string; priceDkk: number; stock: number; categoryName: string; firstImage: string | null };
type Product = {
  slug: string; name: string; brand: string | null; description: string; priceDkk: number; stock: number; featured: boolean;
  frameColor: string | null; lensColor: string | null; images: string[]; category: { slug: string };
};
type Form = Record<string, string>;

/**
 * The form as the person typed it, turned into the fields products.update takes; the stock is not among them,
 * since an edit changes it by an adjustment (stock-change.ts).
 */
function editedFields(body: Form, priceDkk: number | undefined): Record<string, unknown> {
  const images = (body.images ?? '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const optional = ['brand', 'frameColor', 'lensColor', 'categorySlug'];
  return {
    name: body.name ?? '',
    description: body.description ?? '',
    priceDkk: priceDkk ?? '',
    featured: body.featured === 'on',
    images,
    ...Object.fromEntries(optional.flatMap((name) => (filled(body, name) ? [[name, filled(body, name)]] : []))),
  };
}

/** The fields products.create takes: the edited ones (the price already read as minor units) and the first stock figure. */
function productFields(body: Form, priceDkk: number | undefined): Record<string, unknown> {
  return { ...editedFields(body, priceDkk), stock: wholeNumber(filled(body, 'stock')) ?? '' };
}

function formOf(product: Product, currency: string): Form {
  return {
    name: product.name, description: product.description, priceDkk: formatMoneyInput(product.priceDkk, currency), stock: String(product.stock),
    brand: product.brand ?? '', frameColor: product.frameColor ?? '', lensColor: product.lensColor ?? '',
    categorySlug: product.category.slug, images: product.images.join('\n'), featured: product.featured ? 'on' : '',
  };
}

type Baseline = { values: Form; version: string; readAt: string };

type FormOptions = {
  action: string; values: Form; refusal?: Refusal | undefined; creating: boolean;
  /** An edit's baseline (versioned-form.ts): the values, version token and read time the form was drawn from. */
  baseline?: Baseline;
  /** After a conflict: the value now stored, by field, where it differs from what the person typed. */
  now?: Form;
  categories: CategoryOption[];
  currency: string;
  /** The form came back with a warning about an amount: its button saves anyway (amount-checks.ts). */
  warned?: boolean;
};

function productForm(who: SignedIn, options: FormOptions): Html {
  const err = (name: string) => options.refusal?.fields.get(name) ?? options.refusal?.fields.get(`patch.${name}`);
  const v = options.values;
  const now = (name: string) => (options.now?.[name] !== undefined ? t.products.nowValue(options.now[name] || '—') : undefined);
  const images = (v.images ?? '').split(/\r?\n/).map((line) => safeSrc(line.trim())).filter((src): src is string => src !== undefined);
  const stock = options.creating || !options.baseline
    ? field({ name: 'stock', label: t.products.stock, type: 'number', value: v.stock, error: err('stock'), required: true })
    : field({ name: 'stockChange', label: t.products.stockChange(options.baseline.values.stock ?? ''), value: v.stockChange, error: err('stockChange') ?? err('stock') ?? err('by'), note: t.products.stockChangeHint });
  return html`<form method="post" action="${options.action}" class="panel">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}"><input type="hidden" name="_idemStock" value="${formKey()}">${options.baseline ? html`${versionFields(options.baseline.version, options.baseline.values)}${readAtField(options.baseline.readAt)}` : ''}
${options.creating ? field({ name: 'slug', label: t.products.slug, value: v.slug, error: err('slug'), required: true }) : ''}
${field({ name: 'name', label: t.products.name, value: v.name, error: err('name'), required: true, note: now('name') })}
${field({ name: 'priceDkk', label: t.products.price(options.currency), inputMode: 'decimal', value: v.priceDkk, error: err('priceDkk'), required: true, note: now('priceDkk') })}
${stock}
${categoryChoice(options.categories, { value: v.categorySlug, error: err('categorySlug') ?? err('categoryId'), creating: options.creating })}
${field({ name: 'brand', label: t.products.brand, value: v.brand, error: err('brand'), note: now('brand') })}
${field({ name: 'frameColor', label: t.products.frameColor, value: v.frameColor, error: err('frameColor'), note: now('frameColor') })}
${field({ name: 'lensColor', label: t.products.lensColor, value: v.lensColor, error: err('lensColor'), note: now('lensColor') })}
${textArea({ name: 'description', label: t.products.description, value: v.description, error: err('description'), required: true, note: now('description') })}
${textArea({ name: 'images', label: t.products.images, value: v.images, error: [...(options.refusal?.fields ?? [])].find(([path]) => /(^|\.)images/.test(path))?.[1], note: now('images') })}
${images.length > 0 ? html`<div class="thumbs">${images.map((src, index) => html`<img src="${src}" alt="${v.name ?? ''} image ${index + 1}">`)}</div>` : ''}
<div class="field"><label><input type="checkbox" name="featured"${v.featured === 'on' ? html` checked` : ''}> ${t.products.featured}</label>${now('featured') ? html`<p class="hint">${now('featured')}</p>` : ''}</div>
${saveButton(options.warned ?? false)}</form>`;
}

/**
 * What changed the product since the person's form was drawn, from the audit log: who, when and which fields.
 * A person without audit:read sees the current values only.
 */
function changesSince(entries: readonly AuditEntry[], timeZone: string): Html {
  if (entries.length === 0) return html``;
  return html`<ul class="changes">${entries.map((entry) => {
    const before = (entry.before ?? {}) as Record<string, unknown>;
    const after = (entry.after ?? {}) as Record<string, unknown>;
    const fields = Object.keys(after).filter((name) => name !== 'updatedAt' && JSON.stringify(before[name]) !== JSON.stringify(after[name]));
    return html`<li><strong>${entry.actor.name}</strong> · ${formatDate(entry.at, timeZone)} · ${fields.map(fieldLabel).join(', ') || entry.tool}</li>`;
  })}</ul>`;
}

export function productPages(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Querystring: { q?: string; page?: string; done?: string } }>('/admin/products', async (request, reply) => {
    const who = request.staff;
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

  type EditOptions = { values?: Form; refusal?: Refusal; notice?: string; warnings?: string[]; conflict?: { typed: Form; entries: readonly AuditEntry[] } };

  const editPage = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, slug: string, options: EditOptions = {}) => {
    const { record: product, version } = await readVersioned<Product>(deps, request, who.actor, 'products.get', { slug });
    const { currency } = await readSettings(deps.runtime.db);
    const canWrite = hasScope(who.actor, 'products:write');
    const current = formOf(product, currency);
    const warned = (options.warnings?.length ?? 0) > 0;
    const conflict = options.conflict;
    // A form drawn now: after a refusal (or a draft restored after sign-in) it keeps the person's values and the
    // baseline they saw; after a conflict its baseline is the record as it is now, so saving again is a deliberate
    // choice to overwrite.
    const kept = conflict ? undefined : options.values;
    const baseline: Baseline = {
      values: keptOriginal(kept, current), version: keptVersion(kept, version), readAt: (kept && postedReadAt(kept)) ?? deps.runtime.clock().toISOString(),
    };
    const now = conflict ? Object.fromEntries(fieldsThatDiffer(conflict.typed, current).filter((name) => name !== 'stock').map((name) => [name, current[name] ?? ''])) : undefined;
    const status = conflict ? 409 : options.refusal ? 422 : 200;
    return sendAdminPage(reply, {
      title: product.name, current: 'products', viewer: who.viewer,
      main: html`<h1>${product.name}</h1>${options.notice ? noticeBox(options.notice) : ''}${options.refusal ? problemBox(options.refusal.detail, options.refusal.resolution) : ''}${warned ? warningBox(options.warnings ?? []) : ''}
${conflict ? html`${problemBox(t.products.conflictTitle, t.products.conflictLead)}${changesSince(conflict.entries, deps.config.admin.timeZone)}` : ''}
${canWrite ? html`${productForm(who, { action: `/admin/products/${product.slug}`, values: conflict?.typed ?? options.values ?? current, creating: false, categories: await categoryOptions(deps, request, who.actor), currency, warned, refusal: options.refusal, baseline, ...(now ? { now } : {}) })}
<p><a class="button secondary" href="/admin/products/${product.slug}/delete">${t.products.delete}</a></p>`
    : html`<dl class="panel">${Object.entries(current).map(([name, value]) => html`<dt>${name}</dt><dd>${value || '—'}</dd>`)}</dl>`}`,
    }, status);
  };

  const newPage = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, options: { values?: Form; refusal?: Refusal; warnings?: string[]; notice?: string } = {}) => {
    const { currency } = await readSettings(deps.runtime.db);
    const warned = (options.warnings?.length ?? 0) > 0;
    return sendAdminPage(reply, {
      title: t.products.newProduct, current: 'products', viewer: who.viewer,
      main: html`<h1>${t.products.newProduct}</h1>${options.notice ? noticeBox(options.notice) : ''}${options.refusal ? problemBox(options.refusal.detail, options.refusal.resolution) : ''}${warned ? warningBox(options.warnings ?? []) : ''}
${productForm(who, { action: '/admin/products/new', values: options.values ?? {}, creating: true, categories: await categoryOptions(deps, request, who.actor), currency, warned, refusal: options.refusal })}`,
    }, options.refusal ? 422 : 200);
  };

  app.get('/admin/products/new', async (request, reply) => {
    const who = request.staff;
    const draft = takeDraft(request);
    return newPage(request, reply, who, draft ? { values: draft.fields, notice: t.signIn.draftRestored } : {});
  });

  app.post<{ Body: Form }>('/admin/products/new', keepsDraft(), async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    const { currency } = await readSettings(deps.runtime.db);
    const read = readAmounts(body, ['priceDkk'], currency);
    if (!read.ok) return newPage(request, reply, who, { values: body, refusal: read.refusal });
    const warnings = confirmedAnyway(body) ? [] : amountWarnings([{ label: t.products.priceShown, amount: read.amounts.priceDkk }], currency);
    if (warnings.length > 0) return newPage(request, reply, who, { values: body, warnings });
    const outcome = await callTool(deps, request, who.actor, 'products.create', { slug: body.slug ?? '', ...productFields(body, read.amounts.priceDkk) }, idempotencyKeyOf(body));
    if (outcome.ok) return reply.redirect(`/admin/products/${encodeURIComponent((outcome.result as { slug: string }).slug)}?done=created`, 303);
    return newPage(request, reply, who, { values: body, refusal: refusalOf(outcome.problem) });
  });

  app.get<{ Params: { slug: string }; Querystring: { done?: string } }>('/admin/products/:slug', async (request, reply) => {
    const who = request.staff;
    const draft = takeDraft(request);
    // The draft carries the baseline the person typed against, so a change made meanwhile is still a conflict.
    if (draft) return editPage(request, reply, who, request.params.slug, { values: draft.fields, notice: t.signIn.draftRestored });
    const notice = { created: t.products.created, saved: t.products.saved, unchanged: t.products.unchanged }[request.query.done ?? ''];
    return editPage(request, reply, who, request.params.slug, notice ? { notice } : {});
  });

  app.post<{ Params: { slug: string }; Body: Form }>('/admin/products/:slug', keepsDraft(), async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    const { slug } = request.params;
    const original = postedOriginal(body);
    const readAt = postedReadAt(body);
    // A form that does not say what it was drawn from cannot say what the person changed: nothing is written.
    if (!original || !readAt) return editPage(request, reply, who, slug, { notice: t.products.formOutdated });
    const stock = parseStockChange(body.stockChange);
    if (!stock.ok) {
      return editPage(request, reply, who, slug, { values: body, refusal: { detail: t.products.stockChangeInvalid, resolution: t.products.stockChangeHint, fields: new Map([['stockChange', t.products.stockChangeInvalid]]) } });
    }
    const { currency } = await readSettings(deps.runtime.db);
    const read = readAmounts(body, ['priceDkk'], currency);
    if (!read.ok) return editPage(request, reply, who, slug, { values: body, refusal: read.refusal });
    // The baseline's price was drawn in the same currency's words, so both sides compare as minor units.
    const drawnPrice = readAmounts(original, ['priceDkk'], currency);
    const patch = changedOnly(editedFields(body, read.amounts.priceDkk), editedFields(original, drawnPrice.ok ? drawnPrice.amounts.priceDkk : undefined));
    if (patch.priceDkk !== undefined && !confirmedAnyway(body)) {
      const before = drawnPrice.ok ? drawnPrice.amounts.priceDkk : undefined;
      const warnings = amountWarnings([{ label: t.products.priceShown, amount: read.amounts.priceDkk, before }], currency);
      if (warnings.length > 0) return editPage(request, reply, who, slug, { values: body, warnings });
    }
    if (stock.change && 'setTo' in stock.change) patch.stock = stock.change.setTo;
    const adjustment = stock.change && 'by' in stock.change ? stock.change.by : undefined;
    if (Object.keys(patch).length === 0 && adjustment === undefined) return reply.redirect(`/admin/products/${encodeURIComponent(slug)}?done=unchanged`, 303);

    if (Object.keys(patch).length > 0) {
      const outcome = await callTool(deps, request, who.actor, 'products.update', { slug, patch }, idempotencyKeyOf(body), { ifMatch: postedVersion(body) });
      if (!outcome.ok && outcome.problem.code === 'precondition_failed') {
        return editPage(request, reply, who, slug, { conflict: { typed: body, entries: await changesAfter(request, who, slug, readAt) } });
      }
      if (!outcome.ok) return editPage(request, reply, who, slug, { values: body, refusal: refusalOf(outcome.problem) });
    }
    if (adjustment !== undefined) {
      const outcome = await callTool(deps, request, who.actor, 'products.adjust_stock', { slug, by: adjustment }, idempotencyKeyOf({ _idem: body._idemStock ?? '' }));
      if (!outcome.ok) return editPage(request, reply, who, slug, { values: { ...body, stockChange: '' }, refusal: refusalOf(outcome.problem) });
    }
    return reply.redirect(`/admin/products/${encodeURIComponent(slug)}?done=saved`, 303);
  });

  /** The audit entries of the product since `readAt`, newest first; none when the person may not read the log. */
  const changesAfter = async (request: FastifyRequest, who: SignedIn, slug: string, readAt: string): Promise<AuditEntry[]> => {
    const outcome = await callTool(deps, request, who.actor, 'audit.list', { targetSlug: slug, since: readAt, limit: 10 });
    return outcome.ok ? (outcome.result as AuditEntry[]).filter((entry) => entry.at > readAt) : [];
  };

  confirmRoute<{ slug: string }>(app, {
    path: '/admin/products/:slug/delete', current: 'products',
    ask: async (request, who) => {
      const product = await readTool<Product>(deps, request, who.actor, 'products.get', { slug: request.params.slug });
      return { title: t.products.deleteTitle, subject: html`<strong>${product.name}</strong> (${product.slug})`, lead: t.products.deleteLead, button: t.products.deleteButton, back: `/admin/products/${product.slug}` };
    },
    act: actByTool(deps, 'products', 'products.delete', ({ slug }) => ({ slug, confirm: true }), () => '/admin/products?done=deleted'),
  });
}
