import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope } from '../../access/actor.ts';
import { ORDER_STATUSES, legalNextStatuses } from '../../domain/order-status.ts';
import type { OrderStatus } from '../../domain/order-status.ts';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { readSettings } from '../../shop/settings.ts';
import { statusLabel, statusWords } from '../order-status-words.ts';
import { callTool, formKey, idempotencyKeyOf, readTool, readVersioned, refusalOf } from '../call.ts';
import { isConflict } from '../conflict.ts';
import type { Refusal } from '../call.ts';
import { actByTool, confirmRoute } from '../confirm.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { checkbox, field, filled } from '../fields.ts';
import { formatDate, formatDay, formatMoney } from '../format.ts';
import { formatMoneyInput, parseMoneyInput } from '../money-input.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';
import { keptVersion, postedVersion, versionField } from '../versioned-form.ts';
import type { AuditEntry } from './activity.ts';

const PAGE_SIZE = 25;

export type OrderSummary = {
  id: string; email: string; shippingName: string; status: OrderStatus; totalDkk: number; itemCount: number; createdAt: string;
};

type OrderRecord = OrderSummary & {
  shippingAddress: string; shippingZip: string; shippingCity: string; shippingRegion: string | null; shippingCountry: string | null;
  billingName: string | null; billingAddress: string | null;
  billingZip: string | null; billingCity: string | null; billingCountry: string | null; phoneNumber: string | null;
  subtotalDkk: number; shippingDkk: number; discountDkk: number; discountCode: string | null; paymentMethod: string | null;
  paidAt: string | null; currency: string; channel: string; carrier: string | null; trackingNumber: string | null;
  trackingUrl: string | null; estDeliveryFrom: string | null; estDeliveryTo: string | null;
  items: Array<{ productName: string; quantity: number; unitPriceDkk: number }>;
  refunds: Refund[];
};

type Refund = { amount: number; at: string; by: string; reason: string | null; restocked: Array<{ productId: string; quantity: number }> };

type ListQuery = { status?: string; email?: string; before?: string };
type StatusBody = Record<string, string>;

function listInput(query: ListQuery): Record<string, unknown> {
  return {
    limit: PAGE_SIZE,
    ...(query.status ? { status: query.status } : {}),
    ...(query.email?.trim() ? { email: query.email.trim() } : {}),
    // The cursor: orders created before the last one shown (toDate is inclusive, so one millisecond earlier).
    ...(query.before ? { toDate: new Date(Date.parse(query.before) - 1).toISOString() } : {}),
  };
}

/** Moves that end an order or give money back: each goes through a confirmation page first. */
const ASKED: ReadonlySet<OrderStatus> = new Set(['cancelled', 'refunded', 'partial_refund']);
const askPath = (id: string, status: string) => `/admin/orders/${id}/status/${status}`;

function statusForms(order: OrderRecord, version: string, who: SignedIn, typed: StatusBody, refusal: Refusal | undefined): Html {
  const moves = legalNextStatuses(order.status, { paid: order.paidAt !== null });
  if (moves.length === 0) return html`<p>${t.orders.noMoves}</p>`;
  const err = (name: string) => refusal?.fields.get(name);
  return html`${moves.map((status) => ASKED.has(status) ? html`<p class="panel"><a class="button danger" href="${askPath(order.id, status)}">${t.orders.moveTo(statusWords(status))}</a></p>` : html`<form method="post" action="/admin/orders/${order.id}/status" class="panel">
${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">${versionField(version)}<input type="hidden" name="status" value="${status}">
${status === 'shipped' ? html`${field({ name: 'carrier', label: t.orders.carrier, value: typed.carrier, error: err('carrier') })}
${field({ name: 'trackingNumber', label: t.orders.trackingNumber, value: typed.trackingNumber, error: err('trackingNumber') })}
${field({ name: 'trackingUrl', label: t.orders.trackingUrl, type: 'url', value: typed.trackingUrl, error: err('trackingUrl') })}
${field({ name: 'estDeliveryFrom', label: t.orders.from, type: 'date', value: typed.estDeliveryFrom, error: err('estDeliveryFrom') })}
${field({ name: 'estDeliveryTo', label: t.orders.to, type: 'date', value: typed.estDeliveryTo, error: err('estDeliveryTo') })}` : ''}
<button type="submit">${t.orders.moveTo(statusWords(status))}</button></form>`)}`;
}

/** What is left to refund: the total less the refunds so far. */
function refundable(order: OrderRecord): number {
  return order.totalDkk - order.refunds.reduce((sum, refund) => sum + refund.amount, 0);
}

/** Whether the status machine lets the order be refunded (a second partial refund keeps partial_refund). */
function canBeRefunded(order: OrderRecord): boolean {
  if (refundable(order) <= 0) return false;
  if (order.status === 'partial_refund') return true;
  return legalNextStatuses(order.status, { paid: order.paidAt !== null }).some((status) => status === 'refunded' || status === 'partial_refund');
}

/** The refund form: an amount in the shop currency, prefilled with all that is left, restock and reason; it leads to a confirmation. */
function refundForm(order: OrderRecord, who: SignedIn, typed: StatusBody, refusal: Refusal | undefined): Html {
  const left = refundable(order);
  return html`<section class="panel"><h2>${t.orders.refund}</h2><p>${t.orders.refundLead(formatMoney(left, order.currency))}</p>
<form method="post" action="/admin/orders/${order.id}/refund/confirm">${csrfField(who.viewer)}
${field({ name: 'amount', label: t.orders.refundAmount(order.currency), value: typed.amount ?? formatMoneyInput(left, order.currency), inputMode: 'decimal', error: refusal?.fields.get('amount'), required: true })}
${checkbox({ name: 'restock', label: t.orders.restock, checked: typed.restock === 'on' })}
${field({ name: 'reason', label: t.orders.refundReason, value: typed.reason, error: refusal?.fields.get('reason') })}
<button type="submit">${t.orders.refundNext}</button></form></section>`;
}

/** The order's refunds in its history: when, who, how much and why. */
function refundList(order: OrderRecord, timeZone: string): Html | string {
  if (order.refunds.length === 0) return '';
  return html`<h3>${t.orders.refunds}</h3><ul>${order.refunds.map((refund) => html`<li>${formatDate(refund.at, timeZone)} · ${refund.by} · ${t.orders.refund} ${formatMoney(refund.amount, order.currency)} · ${refund.reason ?? t.orders.noReason}${refund.restocked.length > 0 ? ` · ${t.orders.restocked}` : ''}</li>`)}</ul>`;
}

/** A status an order-history entry records, in words; '—' where the entry has none. */
function historyStatus(state: unknown): Html | string {
  const status = (state as { status?: unknown } | null)?.status;
  return typeof status === 'string' && (ORDER_STATUSES as readonly string[]).includes(status) ? statusLabel(status as OrderStatus) : '—';
}

/** What was entered at shipping: carrier, tracking number and link, and the delivery window, as days. */
function shipment(order: OrderRecord, timeZone: string): Html | string {
  if (!order.carrier && !order.trackingNumber && !order.trackingUrl && !order.estDeliveryFrom && !order.estDeliveryTo) return '';
  const day = (value: string | null) => (value ? formatDay(new Date(value), timeZone) : '—');
  return html`<h2>${t.orders.shipment}</h2><dl class="pairs">
<dt>${t.orders.carrier}</dt><dd>${order.carrier ?? '—'}</dd>
<dt>${t.orders.trackingNumber}</dt><dd>${order.trackingNumber ?? '—'}</dd>
<dt>${t.orders.trackingUrl}</dt><dd>${order.trackingUrl ? html`<a href="${order.trackingUrl}" rel="noreferrer">${order.trackingUrl}</a>` : '—'}</dd>
<dt>${t.orders.window}</dt><dd>${order.estDeliveryFrom || order.estDeliveryTo ? `${day(order.estDeliveryFrom)} – ${day(order.estDeliveryTo)}` : '—'}</dd></dl>`;
}

/** The region and country an order ships to, where it gave them (cart orders without shipping.country have none). */
function placeLine(order: OrderRecord, separator: Html | string = html`<br>`): Html | string {
  const place = [order.shippingRegion, order.shippingCountry].filter((part) => part !== null && part !== '').join(', ');
  return place ? html`${separator}${place}` : '';
}

/**
 * A packing slip to print and put in the parcel: order number, where it goes, and what is in it, without
 * prices (the console's chrome is left out of print by the stylesheet).
 */
function packingSlip(order: OrderRecord, timeZone: string): Html {
  return html`<article class="slip"><h1>${t.orders.slip}</h1>
<dl class="pairs"><dt>${t.orders.order}</dt><dd>${order.id}</dd><dt>${t.orders.placed}</dt><dd>${formatDate(order.createdAt, timeZone)}</dd></dl>
<h2>${t.orders.shipping}</h2><address>${order.shippingName}<br>${order.shippingAddress}<br>${order.shippingZip} ${order.shippingCity}${placeLine(order)}</address>
<h2>${t.orders.lines}</h2><table><thead><tr><th scope="col">${t.products.name}</th><th scope="col" class="num">${t.orders.quantity}</th></tr></thead><tbody>
${order.items.map((item) => html`<tr><td>${item.productName}</td><td class="num">${item.quantity}</td></tr>`)}
</tbody></table>
<p class="no-print"><a href="/admin/orders/${order.id}">${t.orders.backToOrder}</a></p></article>`;
}

export function orderPages(app: FastifyInstance, deps: AppDeps): void {
  const { timeZone } = deps.config.admin;

  app.get<{ Querystring: ListQuery }>('/admin/orders', async (request, reply) => {
    const who = request.staff;
    const query = request.query;
    const outcome = await callTool(deps, request, who.actor, 'orders.list', listInput(query));
    const orders = outcome.ok ? outcome.result as OrderSummary[] : [];
    const refusal = outcome.ok ? undefined : refusalOf(outcome.problem);
    const { currency } = await readSettings(deps.runtime.db);
    const last = orders.at(-1);
    const more = last && orders.length === PAGE_SIZE
      ? `/admin/orders?${new URLSearchParams({ ...(query.status ? { status: query.status } : {}), ...(query.email ? { email: query.email } : {}), before: last.createdAt }).toString()}` : undefined;
    return sendAdminPage(reply, {
      title: t.orders.title, current: 'orders', viewer: who.viewer,
      main: html`<h1>${t.orders.title}</h1>${refusal ? problemBox(refusal.detail, refusal.resolution) : ''}
<form class="filters panel" method="get" action="/admin/orders">
<div><label for="f-status">${t.orders.status}</label><select id="f-status" name="status"><option value="">${t.orders.any}</option>${ORDER_STATUSES.map((status) => html`<option value="${status}"${status === query.status ? html` selected` : ''}>${statusWords(status)}</option>`)}</select></div>
<div><label for="f-email">${t.orders.email}</label><input id="f-email" name="email" type="email" value="${query.email ?? ''}"></div>
<button type="submit">${t.filter}</button></form>
${orders.length === 0 ? html`<p>${t.none}</p>` : html`<table class="stack"><thead><tr><th scope="col">${t.orders.order}</th><th scope="col">${t.orders.customer}</th><th scope="col">${t.orders.status}</th><th scope="col" class="num">${t.orders.total}</th><th scope="col">${t.orders.placed}</th></tr></thead><tbody>
${orders.map((order) => html`<tr><td data-label="${t.orders.order}"><a href="/admin/orders/${order.id}">${order.id.slice(0, 8)}</a></td><td data-label="${t.orders.customer}">${`${order.shippingName} <${order.email}>`}</td><td data-label="${t.orders.status}">${statusLabel(order.status)}</td><td data-label="${t.orders.total}" class="num">${formatMoney(order.totalDkk, currency)}</td><td data-label="${t.orders.placed}">${formatDate(order.createdAt, timeZone)}</td></tr>`)}
</tbody></table>`}
<nav class="pager" aria-label="Pages">${query.before ? html`<a href="/admin/orders">${t.previous}</a>` : ''}${more ? html`<a href="${more}">${t.next}</a>` : ''}</nav>`,
    });
  });

  const detail = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, orderId: string, options: { typed?: StatusBody; refusal?: Refusal; notice?: string; baseline?: StatusBody } = {}) => {
    const { record: order, version } = await readVersioned<OrderRecord>(deps, request, who.actor, 'orders.get', { orderId });
    const history = await readTool<AuditEntry[]>(deps, request, who.actor, 'audit.list', { targetId: order.id, limit: 50 });
    const money = (minor: number) => formatMoney(minor, order.currency);
    const canWrite = hasScope(who.actor, 'orders:write');
    return sendAdminPage(reply, {
      title: `${t.orders.order} ${order.id.slice(0, 8)}`, current: 'orders', viewer: who.viewer,
      main: html`<h1>${t.orders.order} ${order.id.slice(0, 8)} · ${statusLabel(order.status)}</h1>
<p><a href="/admin/orders/${order.id}/slip">${t.orders.slip}</a></p>
${options.notice ? noticeBox(options.notice) : ''}${options.refusal ? problemBox(options.refusal.detail, options.refusal.resolution) : ''}
<section class="panel"><h2>${t.orders.customer}</h2><p>${order.shippingName} · ${order.email}${order.phoneNumber ? ` · ${order.phoneNumber}` : ''}</p>
<p>${t.orders.channel}: ${order.channel} · ${t.orders.placed}: ${formatDate(order.createdAt, timeZone)}</p></section>
<section class="panel"><h2>${t.orders.lines}</h2><table class="stack"><thead><tr><th scope="col">${t.products.name}</th><th scope="col" class="num">${t.orders.quantity}</th><th scope="col" class="num">${t.orders.unitPrice}</th></tr></thead><tbody>
${order.items.map((item) => html`<tr><td data-label="${t.products.name}">${item.productName}</td><td data-label="${t.orders.quantity}" class="num">${item.quantity}</td><td data-label="${t.orders.unitPrice}" class="num">${money(item.unitPriceDkk)}</td></tr>`)}
</tbody></table>
<p>${t.orders.subtotal}: ${money(order.subtotalDkk)} · ${t.orders.discount}: ${money(order.discountDkk)}${order.discountCode ? ` (${order.discountCode})` : ''} · ${t.orders.shippingCost}: ${money(order.shippingDkk)} · <strong>${t.orders.total}: ${money(order.totalDkk)}</strong></p></section>
<section class="panel"><h2>${t.orders.shipping}</h2><p>${order.shippingName}, ${order.shippingAddress}, ${order.shippingZip} ${order.shippingCity}${placeLine(order, ', ')}</p>
${order.billingAddress ? html`<h2>${t.orders.billing}</h2><p>${order.billingName ?? ''}, ${order.billingAddress}, ${order.billingZip ?? ''} ${order.billingCity ?? ''}, ${order.billingCountry ?? ''}</p>` : ''}
<h2>${t.orders.payment}</h2><p>${order.paymentMethod ?? '—'} · ${order.paidAt ? formatDate(order.paidAt, timeZone) : '—'}</p>
${shipment(order, timeZone)}</section>
<section class="panel"><h2>${t.orders.history}</h2>${history.length === 0 ? html`<p>${t.none}</p>` : html`<ul>${history.map((entry) =>
        html`<li>${formatDate(entry.at, timeZone)} · ${entry.actor.name} · ${historyStatus(entry.before)} → ${historyStatus(entry.after)}</li>`)}</ul>`}
${refundList(order, timeZone)}</section>
${canWrite && canBeRefunded(order) ? refundForm(order, who, options.typed ?? {}, options.refusal) : ''}
${canWrite ? html`<section><h2>${t.orders.move}</h2>${statusForms(order, keptVersion(options.baseline, version), who, options.typed ?? {}, options.refusal)}</section>` : ''}`,
    }, options.refusal ? 422 : 200);
  };

  app.get<{ Params: { id: string }; Querystring: { done?: string } }>('/admin/orders/:id', async (request, reply) => {
    const draft = takeDraft(request);
    // A status form's draft keeps the version it was typed against: a move made meanwhile is still refused.
    if (draft) return detail(request, reply, request.staff, request.params.id, { typed: draft.fields, baseline: draft.fields, notice: t.signIn.draftRestored });
    return detail(request, reply, request.staff, request.params.id, request.query.done === '1' ? { notice: t.done } : {});
  });

  app.get<{ Params: { id: string } }>('/admin/orders/:id/slip', async (request, reply) => {
    const who = request.staff;
    const order = await readTool<OrderRecord>(deps, request, who.actor, 'orders.get', { orderId: request.params.id });
    return sendAdminPage(reply, { title: `${t.orders.slip} ${order.id.slice(0, 8)}`, current: 'orders', viewer: who.viewer, main: packingSlip(order, timeZone) });
  });

  // The refund's first step checks the amount and asks; nothing is refunded until the confirmation is sent.
  app.post<{ Params: { id: string }; Body: StatusBody }>('/admin/orders/:id/refund/confirm', keepsDraft('/admin/orders/:id'), async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    const order = await readTool<OrderRecord>(deps, request, who.actor, 'orders.get', { orderId: request.params.id });
    // The one reading of a typed amount (money-input.ts); a refund is more than nothing.
    const parsed = parseMoneyInput(body.amount ?? '', order.currency);
    if (!parsed.ok || parsed.minor <= 0) {
      const message = parsed.ok ? t.orders.amountInvalid : parsed.error;
      const refusal: Refusal = { detail: message, resolution: t.orders.amountInvalid, fields: new Map([['amount', message]]) };
      return detail(request, reply, who, order.id, { typed: body, refusal });
    }
    const amount = parsed.minor;
    const reason = filled(body, 'reason');
    const number = order.id.slice(0, 8);
    return sendAdminPage(reply, {
      title: t.orders.refundTitle, current: 'orders', viewer: who.viewer,
      main: html`<h1>${t.orders.refundTitle}</h1>
<p>${t.orders.refundQuestion(formatMoney(amount, order.currency), `${order.shippingName} <${order.email}>`, number)}</p>
${body.restock === 'on' ? html`<p>${t.orders.refundRestocks}</p>` : ''}${reason ? html`<p>${t.orders.reasonShown}: ${reason}</p>` : ''}
<form method="post" action="/admin/orders/${order.id}/refund">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">
<input type="hidden" name="amount" value="${String(amount)}">${body.restock === 'on' ? html`<input type="hidden" name="restock" value="on">` : ''}
${reason ? html`<input type="hidden" name="reason" value="${reason}">` : ''}
<button type="submit">${t.orders.refundConfirm}</button> <a href="/admin/orders/${order.id}">${t.orders.refundCancel}</a></form>`,
    });
  });

  app.post<{ Params: { id: string }; Body: StatusBody }>('/admin/orders/:id/refund', async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    // The confirmation page carries the amount in minor units, as the tool takes it.
    const input = {
      orderId: request.params.id,
      amount: /^\d+$/.test(body.amount ?? '') ? Number(body.amount) : body.amount,
      restock: body.restock === 'on',
      ...(filled(body, 'reason') ? { reason: filled(body, 'reason') } : {}),
    };
    const outcome = await callTool(deps, request, who.actor, 'orders.refund', input, idempotencyKeyOf(body));
    if (outcome.ok) return reply.redirect(`/admin/orders/${request.params.id}?done=1`, 303);
    return detail(request, reply, who, request.params.id, { refusal: refusalOf(outcome.problem) });
  });

  app.post<{ Params: { id: string }; Body: StatusBody }>('/admin/orders/:id/status', keepsDraft('/admin/orders/:id'), async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    // A cancellation or refund is made only from its confirmation page, never by a form that skipped it.
    if (ASKED.has(body.status as OrderStatus)) return reply.redirect(askPath(request.params.id, String(body.status)), 303);
    const day = (name: string) => {
      const value = filled(body, name);
      return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
    };
    const input = {
      orderId: request.params.id,
      status: body.status,
      ...Object.fromEntries(['carrier', 'trackingNumber', 'trackingUrl'].flatMap((name) => (filled(body, name) ? [[name, filled(body, name)]] : []))),
      ...(day('estDeliveryFrom') ? { estDeliveryFrom: day('estDeliveryFrom') } : {}),
      ...(day('estDeliveryTo') ? { estDeliveryTo: day('estDeliveryTo') } : {}),
    };
    const outcome = await callTool(deps, request, who.actor, 'orders.update_status', input, idempotencyKeyOf(body), { ifMatch: postedVersion(body) });
    if (outcome.ok) return reply.redirect(`/admin/orders/${request.params.id}?done=1`, 303);
    if (isConflict(outcome)) return detail(request, reply, who, request.params.id, { typed: body, refusal: { detail: t.conflict.moved, resolution: '', fields: new Map<string, string>() } });
    return detail(request, reply, who, request.params.id, { typed: body, baseline: body, refusal: refusalOf(outcome.problem) });
  });

  confirmRoute<{ id: string; status: string }>(app, {
    path: '/admin/orders/:id/status/:status', current: 'orders',
    ask: async (request, who) => {
      const status = request.params.status as OrderStatus;
      if (!ASKED.has(status)) return undefined;
      const order = await readTool<OrderRecord>(deps, request, who.actor, 'orders.get', { orderId: request.params.id });
      return {
        title: t.orders.confirmTitle(statusWords(status).toLowerCase()),
        subject: html`<strong>${t.orders.order} ${order.id.slice(0, 8)}</strong> · ${order.shippingName} &lt;${order.email}&gt; · ${t.orders.total}: ${formatMoney(order.totalDkk, order.currency)}`,
        lead: status === 'cancelled' ? t.orders.cancelLead : t.orders.refundStatusLead, button: t.orders.moveTo(statusWords(status)), back: `/admin/orders/${order.id}`,
      };
    },
    act: actByTool(deps, 'orders', 'orders.update_status', ({ id, status }) => ({ orderId: id, status }), (_result, { id }) => `/admin/orders/${id}?done=1`),
  });
}
