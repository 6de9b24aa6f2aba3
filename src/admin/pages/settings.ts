import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope } from '../../access/actor.ts';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { callTool, formKey, idempotencyKeyOf, readTool, refusalOf } from '../call.ts';
import type { Refusal } from '../call.ts';
import { actByTool, confirmRoute } from '../confirm.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { field, filled, textArea } from '../fields.ts';
import { formatDate, formatMoney } from '../format.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { formatMoneyInput, readAmounts } from '../money-input.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';

type Settings = {
  storeName: string; tagline: string | null; contactEmail: string | null; companyAddress: string | null; cvrNumber: string | null;
  shippingDkk: number; freeShippingThresholdDkk: number; stackDiscountCodes: boolean; currency: string;
  searchVocabulary: { words: Record<string, string[]>; ignore: string[] };
};
type Flag = { key: string; enabled: boolean; description: string; default: boolean; updatedAt: string | null };
type Form = Record<string, string>;
type Query = { done?: string };
/** The settings this page's form edits; the search words have a page of their own. */
type FormField = Exclude<keyof Settings, 'searchVocabulary'>;

/** The settings that may be cleared: an empty field sends null. */
const NULLABLE = ['tagline', 'contactEmail', 'companyAddress', 'cvrNumber'] as const;
const AMOUNTS = ['shippingDkk', 'freeShippingThresholdDkk'] as const;
const DONE: Record<string, string> = { saved: t.settings.saved, switched: t.settings.switched };

function formOf(settings: Settings): Record<FormField, string> {
  return {
    storeName: settings.storeName, tagline: settings.tagline ?? '', contactEmail: settings.contactEmail ?? '',
    companyAddress: settings.companyAddress ?? '', cvrNumber: settings.cvrNumber ?? '', shippingDkk: formatMoneyInput(settings.shippingDkk, settings.currency),
    freeShippingThresholdDkk: formatMoneyInput(settings.freeShippingThresholdDkk, settings.currency), stackDiscountCodes: settings.stackDiscountCodes ? 'on' : '',
    currency: settings.currency,
  };
}

/** Every setting as typed (amounts already read as minor units): settings.update writes only those that differ from what is stored. */
function patchOf(body: Form, amounts: Partial<Record<typeof AMOUNTS[number], number>>): Record<string, unknown> {
  return {
    storeName: body.storeName?.trim() ?? '',
    ...Object.fromEntries(NULLABLE.map((name) => [name, filled(body, name) ?? null])),
    shippingDkk: amounts.shippingDkk ?? '',
    freeShippingThresholdDkk: amounts.freeShippingThresholdDkk ?? '',
    stackDiscountCodes: body.stackDiscountCodes === 'on',
    currency: body.currency?.trim().toUpperCase() ?? '',
  };
}

function settingsForm(who: SignedIn, settings: Settings, values: Form, refusal?: Refusal): Html {
  const err = (name: string) => refusal?.fields.get(name);
  const money = (name: 'shippingDkk' | 'freeShippingThresholdDkk') => html`${field({ name, label: t.settings.amountLabel[name](settings.currency), inputMode: 'decimal', value: values[name], error: err(name), required: true })}
<p class="hint">${t.settings.now(formatMoney(settings[name], settings.currency))}</p>`;
  return html`<form method="post" action="/admin/settings" class="panel">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">
<h2>${t.settings.shop}</h2>
${field({ name: 'storeName', label: t.settings.storeName, value: values.storeName, error: err('storeName'), required: true })}
${field({ name: 'tagline', label: t.settings.tagline, value: values.tagline, error: err('tagline') })}
${field({ name: 'contactEmail', label: t.settings.contactEmail, type: 'email', value: values.contactEmail, error: err('contactEmail') })}
${textArea({ name: 'companyAddress', label: t.settings.companyAddress, value: values.companyAddress, error: err('companyAddress') })}
${field({ name: 'cvrNumber', label: t.settings.cvrNumber, value: values.cvrNumber, error: err('cvrNumber') })}
${money('shippingDkk')}
${money('freeShippingThresholdDkk')}
${field({ name: 'currency', label: t.settings.currency, value: values.currency, error: err('currency'), required: true })}
<p class="hint">${t.settings.currencyLead}</p>
<div class="field"><label><input type="checkbox" name="stackDiscountCodes"${values.stackDiscountCodes === 'on' ? html` checked` : ''}> ${t.settings.stackDiscountCodes}</label></div>
<button type="submit">${t.save}</button></form>`;
}

function settingsList(settings: Settings): Html {
  return html`<section class="panel"><h2>${t.settings.shop}</h2><p>${t.settings.readOnly}</p><dl>${Object.entries(formOf(settings)).map(([name, value]) =>
    html`<dt>${t.settings[name as keyof ReturnType<typeof formOf>]}</dt><dd>${value || '—'}</dd>`)}</dl></section>`;
}

/** Features whose switching off stops sales: the console asks on a confirmation page first. */
const STOPS_SALES: ReadonlySet<string> = new Set(['checkout']);
const switchOffPath = (key: string) => `/admin/settings/features/${key}/off`;

function featuresTable(who: SignedIn, flags: Flag[], canWrite: boolean, timeZone: string): Html {
  return html`<section class="panel"><h2 id="features">${t.settings.features}</h2><table class="stack"><thead><tr><th scope="col">${t.settings.feature}</th><th scope="col">${t.settings.state}</th><th scope="col">${t.settings.byDefault}</th><th scope="col">${t.settings.changed}</th>${canWrite ? html`<th scope="col"><span class="skip-link">Actions</span></th>` : ''}</tr></thead><tbody>
${flags.map((flag) => html`<tr><td data-label="${t.settings.feature}"><strong>${flag.key}</strong><br>${flag.description}</td><td data-label="${t.settings.state}">${flag.enabled ? t.settings.on : t.settings.off}</td><td data-label="${t.settings.byDefault}">${flag.default ? t.settings.on : t.settings.off}</td><td data-label="${t.settings.changed}">${formatDate(flag.updatedAt, timeZone)}</td>
${canWrite ? html`<td>${flag.enabled && STOPS_SALES.has(flag.key) ? html`<a class="button danger" href="${switchOffPath(flag.key)}">${t.settings.switchOff}<span class="skip-link"> ${flag.key}</span></a>` : html`<form class="inline" method="post" action="/admin/settings/features/${flag.key}">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}"><input type="hidden" name="enabled" value="${flag.enabled ? 'false' : 'true'}"><button class="${flag.enabled ? 'danger' : 'secondary'}" type="submit">${flag.enabled ? t.settings.switchOff : t.settings.switchOn}<span class="skip-link"> ${flag.key}</span></button></form>`}</td>` : ''}</tr>`)}
</tbody></table></section>`;
}

/**
 * The shop settings and the feature switches, read and changed through settings.* and features.*: the role's
 * scopes decide, so only an owner (settings:write, features:write) sees the forms.
 */
export function settingsPages(app: FastifyInstance, deps: AppDeps): void {
  const { timeZone } = deps.config.admin;

  const page = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, query: Query, options: { values?: Form; refusal?: Refusal; notice?: string } = {}) => {
    const [settings, flags] = await Promise.all([
      readTool<Settings>(deps, request, who.actor, 'settings.get', {}),
      readTool<Flag[]>(deps, request, who.actor, 'features.list', {}),
    ]);
    const done = options.notice ?? DONE[query.done ?? ''];
    return sendAdminPage(reply, {
      title: t.settings.title, current: 'settings', viewer: who.viewer,
      main: html`<h1>${t.settings.title}</h1>${done ? noticeBox(done) : ''}${options.refusal ? problemBox(options.refusal.detail, options.refusal.resolution) : ''}
${hasScope(who.actor, 'settings:write') ? settingsForm(who, settings, options.values ?? formOf(settings), options.refusal) : settingsList(settings)}
<section class="panel"><h2>${t.settings.searchWords}</h2><p>${t.settings.searchWordsLead} <a href="/admin/settings/search-words">${t.settings.searchWords}</a> (${Object.keys(settings.searchVocabulary.words).length})</p></section>
${featuresTable(who, flags, hasScope(who.actor, 'features:write'), timeZone)}`,
    }, options.refusal ? 422 : 200);
  };

  app.get<{ Querystring: Query }>('/admin/settings', async (request, reply) => {
    const who = request.staff;
    const draft = takeDraft(request);
    return page(request, reply, who, request.query, draft ? { values: draft.fields, notice: t.signIn.draftRestored } : {});
  });

  app.post<{ Body: Form }>('/admin/settings', keepsDraft(), async (request, reply) => {
    const who = request.staff;
    // Amounts are read in the currency the form showed them in, the stored one, even when the form changes it.
    const { currency } = await readTool<Settings>(deps, request, who.actor, 'settings.get', {});
    const read = readAmounts(request.body, AMOUNTS, currency);
    if (!read.ok) return page(request, reply, who, {}, { values: request.body, refusal: read.refusal });
    const outcome = await callTool(deps, request, who.actor, 'settings.update', patchOf(request.body, read.amounts), idempotencyKeyOf(request.body));
    if (outcome.ok) return reply.redirect('/admin/settings?done=saved', 303);
    return page(request, reply, who, {}, { values: request.body, refusal: refusalOf(outcome.problem) });
  });

  app.post<{ Params: { key: string }; Body: Form }>('/admin/settings/features/:key', async (request, reply) => {
    const who = request.staff;
    const enabled = request.body.enabled === 'true';
    // Stopping sales is done only from its confirmation page, never by a form that skipped it.
    if (!enabled && STOPS_SALES.has(request.params.key)) return reply.redirect(switchOffPath(request.params.key), 303);
    const outcome = await callTool(deps, request, who.actor, 'features.set', { key: request.params.key, enabled }, idempotencyKeyOf(request.body));
    if (outcome.ok) return reply.redirect('/admin/settings?done=switched#features', 303);
    return page(request, reply, who, {}, { refusal: refusalOf(outcome.problem) });
  });

  confirmRoute<{ key: string }>(app, {
    path: '/admin/settings/features/:key/off', current: 'settings',
    ask: async (request, who) => {
      if (!STOPS_SALES.has(request.params.key)) return undefined;
      const flag = (await readTool<Flag[]>(deps, request, who.actor, 'features.list', {})).find((candidate) => candidate.key === request.params.key);
      return flag && {
        title: t.settings.switchOffTitle, subject: html`<strong>${flag.key}</strong>: ${flag.description}`,
        lead: t.settings.stopsSales, button: t.settings.switchOff, back: '/admin/settings#features',
      };
    },
    act: actByTool(deps, 'settings', 'features.set', ({ key }) => ({ key, enabled: false }), () => '/admin/settings?done=switched#features'),
  });
}
