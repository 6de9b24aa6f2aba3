import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope } from '../../access/actor.ts';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import type { PromotionRecord, ShippingRateRecord } from '../../schema/shipping.ts';
import { readSettings } from '../../shop/settings.ts';
import { callTool, formKey, idempotencyKeyOf, readTool, refusalOf } from '../call.ts';
import type { Refusal } from '../call.ts';
import { actByTool, confirmRoute } from '../confirm.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { field, filled, lines, textArea, wholeNumber } from '../fields.ts';
import { formatMoney } from '../format.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';

type Shipping = { rates: ShippingRateRecord[]; promotions: PromotionRecord[] };
type Form = Record<string, string>;
type Query = { done?: string; rate?: string; promotion?: string };
type Kind = 'rate' | 'promotion';

const c = t.shipping;
const DONE: Record<string, string> = {
  rateSaved: c.rateSaved, rateRemoved: c.rateRemoved, promotionSaved: c.promotionSaved, promotionRemoved: c.promotionRemoved,
};
/** Per kind: its tools, its path, and the name its deletion page shows for it. */
const TOOLS = {
  rate: {
    set: 'shipping.set_rate', remove: 'shipping.delete_rate', path: 'rates', removeTitle: c.removeRateTitle,
    named: (shipping: Shipping) => shipping.rates.map((rate) => ({ id: rate.id, name: rate.title })),
  },
  promotion: {
    set: 'shipping.set_promotion', remove: 'shipping.delete_promotion', path: 'promotions', removeTitle: c.removePromotionTitle,
    named: (shipping: Shipping) => shipping.promotions.map((promotion) => ({ id: promotion.id, name: promotion.description })),
  },
} as const;

const removeHref = (kind: Kind, id: string) => `/admin/shipping/${TOOLS[kind].path}/${encodeURIComponent(id)}/delete`;

/**
 * The rate form as typed, turned into shipping.set_rate's input; a country is taken in any case. The two forms share
 * a page, so each names its id field after itself (one page, one element per id).
 */
function rateInput(body: Form): Record<string, unknown> {
  const country = body.countryCode?.trim() ?? '';
  return {
    id: body.rateId?.trim() ?? '', title: body.title?.trim() ?? '', serviceLevel: body.serviceLevel?.trim() ?? '',
    countryCode: country.toLowerCase() === 'default' ? 'default' : country.toUpperCase(), price: wholeNumber(filled(body, 'price')) ?? '',
  };
}

function promotionInput(body: Form): Record<string, unknown> {
  const minSubtotal = wholeNumber(filled(body, 'minSubtotal'));
  return {
    id: body.promotionId?.trim() ?? '', description: body.description?.trim() ?? '', eligibleSkus: lines(body.eligibleSkus),
    ...(minSubtotal !== undefined ? { minSubtotal } : {}),
  };
}

function rateForm(who: SignedIn, values: Form, refusal?: Refusal): Html {
  const err = (name: string) => refusal?.fields.get(name);
  return html`<form method="post" action="/admin/shipping/rates" class="panel">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">
<h2 id="rate-form">${c.rateForm}</h2>
${field({ name: 'rateId', label: c.rateId, value: values.rateId, error: err('id'), required: true })}
${field({ name: 'title', label: c.rateTitleField, value: values.title, error: err('title'), required: true })}
${field({ name: 'serviceLevel', label: c.levelField, value: values.serviceLevel, error: err('serviceLevel'), required: true })}
${field({ name: 'countryCode', label: c.countryField, value: values.countryCode, error: err('countryCode'), required: true })}
${field({ name: 'price', label: c.priceField, type: 'number', value: values.price, error: err('price'), required: true })}
<button type="submit">${t.save}</button></form>`;
}

function promotionForm(who: SignedIn, values: Form, refusal?: Refusal): Html {
  const err = (name: string) => refusal?.fields.get(name);
  return html`<form method="post" action="/admin/shipping/promotions" class="panel">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">
<h2 id="promotion-form">${c.promotionForm}</h2>
${field({ name: 'promotionId', label: c.promotionId, value: values.promotionId, error: err('id'), required: true })}
${field({ name: 'description', label: c.description, value: values.description, error: err('description'), required: true })}
${field({ name: 'minSubtotal', label: c.minimumField, type: 'number', value: values.minSubtotal, error: err('minSubtotal') })}
${textArea({ name: 'eligibleSkus', label: c.itemsField, value: values.eligibleSkus, error: err('eligibleSkus') })}
<button type="submit">${t.save}</button></form>`;
}

function actions(kind: Kind, id: string): Html {
  return html`<td><a href="/admin/shipping?${kind}=${encodeURIComponent(id)}#${kind}-form">${c.edit}<span class="skip-link"> ${id}</span></a> · <a href="${removeHref(kind, id)}">${c.remove}<span class="skip-link"> ${id}</span></a></td>`;
}

function ratesTable(rates: readonly ShippingRateRecord[], currency: string, canWrite: boolean): Html {
  if (rates.length === 0) return html`<p>${c.noRates}</p>`;
  return html`<table class="stack"><thead><tr><th scope="col">${c.country}</th><th scope="col">${c.level}</th><th scope="col">${c.rateTitle}</th><th scope="col" class="num">${c.price}</th>${canWrite ? html`<th scope="col"><span class="skip-link">Actions</span></th>` : ''}</tr></thead><tbody>
${rates.map((rate) => html`<tr><td data-label="${c.country}">${rate.countryCode === 'default' ? c.defaultCountry : rate.countryCode}</td><td data-label="${c.level}">${rate.serviceLevel}</td><td data-label="${c.rateTitle}">${rate.title} <small>(${rate.id})</small></td><td data-label="${c.price}" class="num">${formatMoney(rate.price, currency)}</td>${canWrite ? actions('rate', rate.id) : ''}</tr>`)}
</tbody></table>`;
}

function promotionsTable(promotions: readonly PromotionRecord[], currency: string, canWrite: boolean): Html {
  if (promotions.length === 0) return html`<p>${c.noPromotions}</p>`;
  return html`<table class="stack"><thead><tr><th scope="col">${c.description}</th><th scope="col" class="num">${c.minimum}</th><th scope="col">${c.items}</th>${canWrite ? html`<th scope="col"><span class="skip-link">Actions</span></th>` : ''}</tr></thead><tbody>
${promotions.map((promotion) => html`<tr><td data-label="${c.description}">${promotion.description} <small>(${promotion.id})</small></td><td data-label="${c.minimum}" class="num">${promotion.minSubtotal === null ? c.noMinimum : formatMoney(promotion.minSubtotal, currency)}</td><td data-label="${c.items}">${promotion.eligibleSkus.join(', ') || c.noMinimum}</td>${canWrite ? actions('promotion', promotion.id) : ''}</tr>`)}
</tbody></table>`;
}

/** The form values of the rate or promotion the person chose to edit, from the list the page read. */
function editing(shipping: Shipping, query: Query): { rate: Form; promotion: Form } {
  const rate = shipping.rates.find((candidate) => candidate.id === query.rate);
  const promotion = shipping.promotions.find((candidate) => candidate.id === query.promotion);
  return {
    rate: rate ? { rateId: rate.id, title: rate.title, serviceLevel: rate.serviceLevel, countryCode: rate.countryCode, price: String(rate.price) } : {},
    promotion: promotion ? {
      promotionId: promotion.id, description: promotion.description, minSubtotal: promotion.minSubtotal === null ? '' : String(promotion.minSubtotal),
      eligibleSkus: promotion.eligibleSkus.join('\n'),
    } : {},
  };
}

/** What the person typed into one of the two forms, and why it came back: a refusal, or a sign-in (a draft). */
type Typed = { kind: Kind; values: Form; refusal?: Refusal; notice?: string };

/**
 * Shipping rates and free-shipping promotions, read and changed through the shipping.* tools: the role's scopes
 * decide, so only an owner (settings:write) sees the forms. Amounts are typed in minor units and shown in the
 * shop currency, as on the settings page.
 */
export function shippingPages(app: FastifyInstance, deps: AppDeps): void {
  const page = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, query: Query, typed?: Typed) => {
    const shipping = await readTool<Shipping>(deps, request, who.actor, 'shipping.list', {});
    const { currency } = await readSettings(deps.runtime.db);
    const canWrite = hasScope(who.actor, 'settings:write');
    const chosen = editing(shipping, query);
    const done = typed?.notice ?? DONE[query.done ?? ''];
    const refusal = typed?.refusal;
    return sendAdminPage(reply, {
      title: c.title, current: 'shipping', viewer: who.viewer,
      main: html`<h1>${c.title}</h1>${done ? noticeBox(done) : ''}${refusal ? problemBox(refusal.detail, refusal.resolution) : ''}
<p>${c.lead}</p>${canWrite ? '' : html`<p>${c.readOnly}</p>`}
<section><h2>${c.rates}</h2>${ratesTable(shipping.rates, currency, canWrite)}</section>
${canWrite ? rateForm(who, typed?.kind === 'rate' ? typed.values : chosen.rate, typed?.kind === 'rate' ? typed.refusal : undefined) : ''}
<section><h2>${c.promotions}</h2>${promotionsTable(shipping.promotions, currency, canWrite)}</section>
${canWrite ? promotionForm(who, typed?.kind === 'promotion' ? typed.values : chosen.promotion, typed?.kind === 'promotion' ? typed.refusal : undefined) : ''}`,
    }, refusal ? 422 : 200);
  };

  app.get<{ Querystring: Query }>('/admin/shipping', async (request, reply) => {
    const draft = takeDraft(request);
    const kind = (['rate', 'promotion'] as const).find((candidate) => draft?.action === `/admin/shipping/${TOOLS[candidate].path}`);
    return page(request, reply, request.staff, request.query, draft && kind ? { kind, values: draft.fields, notice: t.signIn.draftRestored } : undefined);
  });

  for (const kind of ['rate', 'promotion'] as const) {
    const { set, remove, path, removeTitle, named } = TOOLS[kind];

    app.post<{ Body: Form }>(`/admin/shipping/${path}`, keepsDraft('/admin/shipping'), async (request, reply) => {
      const who = request.staff;
      const input = kind === 'rate' ? rateInput(request.body) : promotionInput(request.body);
      const outcome = await callTool(deps, request, who.actor, set, input, idempotencyKeyOf(request.body));
      if (outcome.ok) return reply.redirect(`/admin/shipping?done=${kind}Saved`, 303);
      return page(request, reply, who, {}, { kind, values: request.body, refusal: refusalOf(outcome.problem) });
    });

    confirmRoute<{ id: string }>(app, {
      path: `/admin/shipping/${path}/:id/delete`, current: 'shipping',
      ask: async (request, who) => {
        const chosen = named(await readTool<Shipping>(deps, request, who.actor, 'shipping.list', {})).find((one) => one.id === request.params.id);
        return chosen && { title: removeTitle, subject: html`<strong>${chosen.name}</strong> (${chosen.id})`, lead: c.removeLead, button: c.remove, back: '/admin/shipping' };
      },
      act: actByTool(deps, 'shipping', remove, ({ id }) => ({ id, confirm: true }), () => `/admin/shipping?done=${kind}Removed`),
    });
  }
}
