import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope } from '../../access/actor.ts';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { readSettings } from '../../shop/settings.ts';
import { callTool, formKey, idempotencyKeyOf, readTool, readVersioned, refusalOf } from '../call.ts';
import { isConflict } from '../conflict.ts';
import type { Refusal } from '../call.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { field, filled, select, wholeNumber } from '../fields.ts';
import { amountWarnings, confirmedAnyway, saveButton, warningBox } from '../amount-checks.ts';
import { readAmounts } from '../money-input.ts';
import type { FormAmounts } from '../money-input.ts';
import { formatDate, formatDay, formatMoney, startOfDay, today } from '../format.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';
import { postedVersion, versionField } from '../versioned-form.ts';

/** discounts.list returns at most this many, newest first; the console pages through them. */
const FETCHED = 100;
const PAGE_SIZE = 25;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export type Discount = {
  id: string; code: string; type: 'percent' | 'fixed'; value: number; validUntil: string | null; usageLimit: number | null;
  usageCount: number; active: boolean; remainingUses: number | null; createdAt: string;
};
type Form = Record<string, string>;
type ListQuery = { page?: string; active?: string; done?: string };

const DONE: Record<string, string> = { created: t.discounts.created, activated: t.discounts.activated, deactivated: t.discounts.deactivated };

const href = (code: string, rest = '') => `/admin/discounts/${encodeURIComponent(code)}${rest}`;

/**
 * A code is valid through the day the person picks, in the shop's time zone: the tool's validUntil is the
 * first instant it no longer works, the start of the next day. Text that is no date goes on as typed, for
 * the tool to refuse by name.
 */
function validUntilOf(day: string | undefined, timeZone: string): string | undefined {
  if (day === undefined) return undefined;
  if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) return day;
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 3600_000).toISOString().slice(0, 10);
  return startOfDay(next, timeZone).toISOString();
}

/** The value as typed: a percent is a whole number, an amount off is read in the shop currency. */
function valueOf(body: Form, currency: string): FormAmounts<'value'> {
  return body.type === 'fixed' ? readAmounts(body, ['value'], currency) : { ok: true, amounts: {} };
}

/** The form as typed (an amount off already read as minor units), turned into discounts.create's input. */
function createInput(body: Form, timeZone: string, amountOff: number | undefined): Record<string, unknown> {
  const validUntil = validUntilOf(filled(body, 'validUntil'), timeZone);
  const usageLimit = wholeNumber(filled(body, 'usageLimit'));
  return {
    code: body.code ?? '', type: body.type ?? '', value: (body.type === 'fixed' ? amountOff : wholeNumber(filled(body, 'value'))) ?? '',
    ...(validUntil !== undefined ? { validUntil } : {}), ...(usageLimit !== undefined ? { usageLimit } : {}),
  };
}

/**
 * The end as a person reads it: a code that stops at a midnight of the shop's time zone (as the form sets it)
 * is valid "through" the day before; any other end is the instant it stops.
 */
function validityOf(validUntil: string | null, timeZone: string): string {
  if (validUntil === null) return t.discounts.noEnd;
  const end = new Date(validUntil);
  const atMidnight = startOfDay(today(end, timeZone), timeZone).getTime() === end.getTime();
  return atMidnight ? t.discounts.through(formatDay(new Date(end.getTime() - 1), timeZone)) : t.discounts.until(formatDate(end, timeZone));
}

export function discountValue(discount: Pick<Discount, 'type' | 'value'>, currency: string): string {
  return discount.type === 'percent' ? `${discount.value} %` : formatMoney(discount.value, currency);
}

function usesOf(discount: Discount): string {
  return `${discount.usageCount} / ${discount.usageLimit ?? t.discounts.unlimited}`;
}

function discountForm(who: SignedIn, values: Form, currency: string, options: { refusal?: Refusal | undefined; warned: boolean }): Html {
  const { refusal } = options;
  const err = (name: string) => refusal?.fields.get(name);
  return html`<form method="post" action="/admin/discounts/new" class="panel">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">
${field({ name: 'code', label: t.discounts.code, value: values.code, error: err('code'), required: true })}
${select({ name: 'type', label: t.discounts.kind, value: values.type, error: err('type'), options: [{ value: 'percent', label: t.discounts.percent }, { value: 'fixed', label: t.discounts.fixed }] })}
${field({ name: 'value', label: t.discounts.valueHint(currency), inputMode: 'decimal', value: values.value, error: err('value'), required: true })}
${field({ name: 'validUntil', label: t.discounts.validUntil, type: 'date', value: values.validUntil, error: err('validUntil') })}
${field({ name: 'usageLimit', label: t.discounts.limit, type: 'number', value: values.usageLimit, error: err('usageLimit') })}
${saveButton(options.warned)}</form>`;
}

/**
 * A button that switches a code on, or a link to the page that asks before switching it off. On the detail page the
 * button carries the code's version token; the list has none to give (discounts.list hands out no tokens), and
 * naming the wanted state already keeps a switch from undoing someone else's.
 */
function toggleControl(who: SignedIn, discount: Discount, version?: string): Html {
  if (!discount.active) {
    return html`<form class="inline" method="post" action="${href(discount.code, '/activate')}">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">${version ? versionField(version) : ''}<button class="secondary" type="submit">${t.discounts.activate}<span class="skip-link"> ${discount.code}</span></button></form>`;
  }
  return html`<a class="button secondary" href="${href(discount.code, '/deactivate')}">${t.discounts.deactivate}<span class="skip-link"> ${discount.code}</span></a>`;
}

/** Discount codes: the newest codes of discounts.list, create, and switching a code off (after a confirmation) or on. */
export function discountPages(app: FastifyInstance, deps: AppDeps): void {
  const { timeZone } = deps.config.admin;

  app.get<{ Querystring: ListQuery }>('/admin/discounts', async (request, reply) => {
    const who = request.staff;
    const onlyActive = request.query.active === '1';
    const all = await readTool<Discount[]>(deps, request, who.actor, 'discounts.list', { limit: FETCHED, ...(onlyActive ? { onlyActive } : {}) });
    const page = Math.max(1, Number.parseInt(request.query.page ?? '1', 10) || 1);
    const shown = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    const { currency } = await readSettings(deps.runtime.db);
    const canWrite = hasScope(who.actor, 'discounts:write');
    const done = DONE[request.query.done ?? ''];
    const link = (to: number) => `/admin/discounts?${new URLSearchParams({ ...(onlyActive ? { active: '1' } : {}), page: String(to) }).toString()}`;
    const c = t.discounts;
    return sendAdminPage(reply, {
      title: c.title, current: 'discounts', viewer: who.viewer,
      main: html`<h1>${c.title}</h1>${done ? noticeBox(done) : ''}
<form class="filters panel" method="get" action="/admin/discounts"><div><label><input type="checkbox" name="active" value="1"${onlyActive ? html` checked` : ''}> ${c.onlyActive}</label></div><button type="submit">${t.filter}</button>
${canWrite ? html`<a class="button secondary" href="/admin/discounts/new">${c.newDiscount}</a>` : ''}</form>
${shown.length === 0 ? html`<p>${t.none}</p>` : html`<table class="stack"><thead><tr><th scope="col">${c.code}</th><th scope="col">${c.kind}</th><th scope="col" class="num">${c.value}</th><th scope="col" class="num">${c.uses}</th><th scope="col">${c.validity}</th><th scope="col">${c.active}</th></tr></thead><tbody>
${shown.map((discount) => html`<tr><td data-label="${c.code}"><a href="${href(discount.code)}">${discount.code}</a></td><td data-label="${c.kind}">${discount.type === 'percent' ? c.percent : c.fixed}</td><td data-label="${c.value}" class="num">${discountValue(discount, currency)}</td><td data-label="${c.uses}" class="num">${usesOf(discount)}</td><td data-label="${c.validity}">${validityOf(discount.validUntil, timeZone)}</td><td data-label="${c.active}">${discount.active ? c.yes : c.no}${canWrite ? html` ${toggleControl(who, discount)}` : ''}</td></tr>`)}
</tbody></table>`}
${all.length === FETCHED ? html`<p>${c.shownFirst(FETCHED)}</p>` : ''}
<nav class="pager" aria-label="Pages">${page > 1 ? html`<a href="${link(page - 1)}">${t.previous}</a>` : ''}${all.length > page * PAGE_SIZE ? html`<a href="${link(page + 1)}">${t.next}</a>` : ''}</nav>`,
    });
  });

  const newPage = async (reply: FastifyReply, who: SignedIn, values: Form, options: { refusal?: Refusal; warnings?: string[]; notice?: string } = {}) => {
    const { currency } = await readSettings(deps.runtime.db);
    const { refusal, warnings = [], notice } = options;
    return sendAdminPage(reply, {
      title: t.discounts.newDiscount, current: 'discounts', viewer: who.viewer,
      main: html`<h1>${t.discounts.newDiscount}</h1>${notice ? noticeBox(notice) : ''}${refusal ? problemBox(refusal.detail, refusal.resolution) : ''}${warnings.length > 0 ? warningBox(warnings) : ''}<p>${t.discounts.noEdit}</p>${discountForm(who, values, currency, { refusal, warned: warnings.length > 0 })}`,
    }, refusal ? 422 : 200);
  };

  app.get('/admin/discounts/new', async (request, reply) => {
    const draft = takeDraft(request);
    return newPage(reply, request.staff, draft?.fields ?? { type: 'percent' }, draft ? { notice: t.signIn.draftRestored } : {});
  });

  app.post<{ Body: Form }>('/admin/discounts/new', keepsDraft(), async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    const { currency } = await readSettings(deps.runtime.db);
    const read = valueOf(body, currency);
    if (!read.ok) return newPage(reply, who, body, { refusal: read.refusal });
    const warnings = confirmedAnyway(body) ? [] : amountWarnings([{ label: t.discounts.fixed, amount: read.amounts.value }], currency);
    if (warnings.length > 0) return newPage(reply, who, body, { warnings });
    const outcome = await callTool(deps, request, who.actor, 'discounts.create', createInput(body, timeZone, read.amounts.value), idempotencyKeyOf(body));
    if (outcome.ok) return reply.redirect(`${href((outcome.result as { code: string }).code)}?done=created`, 303);
    return newPage(reply, who, body, { refusal: refusalOf(outcome.problem) });
  });

  const detailPage = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, code: string, notice?: string, conflict?: string) => {
    const { record: discount, version } = await readVersioned<Discount>(deps, request, who.actor, 'discounts.get', { code });
    const { currency } = await readSettings(deps.runtime.db);
    const c = t.discounts;
    const rows: Array<[string, string]> = [
      [c.kind, discount.type === 'percent' ? c.percent : c.fixed], [c.value, discountValue(discount, currency)], [c.uses, usesOf(discount)],
      [c.remaining, discount.remainingUses === null ? c.unlimited : String(discount.remainingUses)],
      [c.validity, validityOf(discount.validUntil, timeZone)], [c.active, discount.active ? c.yes : c.no],
      [c.createdAt, formatDate(discount.createdAt, timeZone)],
    ];
    return sendAdminPage(reply, {
      title: discount.code, current: 'discounts', viewer: who.viewer,
      main: html`<h1>${discount.code}</h1>${notice ? noticeBox(notice) : ''}${conflict ? problemBox(conflict) : ''}
<dl class="panel">${rows.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl>
${hasScope(who.actor, 'discounts:write') ? html`<p>${toggleControl(who, discount, version)}</p><p>${c.noEdit}</p>` : ''}`,
    }, conflict ? 409 : 200);
  };

  app.get<{ Params: { code: string }; Querystring: { done?: string } }>('/admin/discounts/:code', async (request, reply) => detailPage(request, reply, request.staff, request.params.code, DONE[request.query.done ?? '']));

  app.get<{ Params: { code: string } }>('/admin/discounts/:code/deactivate', async (request, reply) => {
    const who = request.staff;
    const { record: discount, version } = await readVersioned<Discount>(deps, request, who.actor, 'discounts.get', { code: request.params.code });
    const { currency } = await readSettings(deps.runtime.db);
    return sendAdminPage(reply, {
      title: t.discounts.deactivateTitle, current: 'discounts', viewer: who.viewer,
      main: html`<h1>${t.discounts.deactivateTitle}</h1><p><strong>${discount.code}</strong> · ${discountValue(discount, currency)} · ${t.discounts.uses}: ${usesOf(discount)}</p><p>${t.discounts.deactivateLead}</p>
<form method="post" action="${href(discount.code, '/deactivate')}">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">${versionField(version)}<button class="danger" type="submit">${t.discounts.deactivate}</button> <a href="${href(discount.code)}">${t.cancel}</a></form>`,
    });
  });

  // The wanted state is always named, so a form sent twice, or after someone else's change, never flips it back.
  for (const [action, active] of [['deactivate', false], ['activate', true]] as const) {
    app.post<{ Params: { code: string }; Body: Form }>(`/admin/discounts/:code/${action}`, async (request, reply) => {
      const who = request.staff;
      const outcome = await callTool(deps, request, who.actor, 'discounts.toggle', { code: request.params.code, active }, idempotencyKeyOf(request.body), { ifMatch: postedVersion(request.body) });
      if (outcome.ok) return reply.redirect(`${href((outcome.result as { code: string }).code)}?done=${active ? 'activated' : 'deactivated'}`, 303);
      if (isConflict(outcome)) return detailPage(request, reply, who, request.params.code, undefined, t.conflict.switched);
      const refusal = refusalOf(outcome.problem);
      return sendAdminPage(reply, { title: t.refused, current: 'discounts', viewer: who.viewer, main: problemBox(refusal.detail, refusal.resolution) }, outcome.status);
    });
  }
}
