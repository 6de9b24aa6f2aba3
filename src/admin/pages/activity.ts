import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope } from '../../access/actor.ts';
import type { Actor } from '../../access/actor.ts';
import { agentActing } from '../../access/agents.ts';
import { PROBLEMS } from '../../errors/problems.ts';
import type { ProblemCode } from '../../errors/problems.ts';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { fieldLabel, targetTitle, valueWords, whyNoRevert } from '../activity-words.ts';
import { callTool, readTool, refusalOf } from '../call.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { readSettings } from '../../shop/settings.ts';
import { revertRefusal } from '../../tools/revert-rights.ts';
import { formatDate, formatMoney } from '../format.ts';
import { t } from '../strings.ts';

const PAGE_SIZE = 25;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Columns every write touches; they would make every diff look alike. */
const NOISE = new Set(['updatedAt', 'updated_at']);
/** Amounts are integer minor units in fields named so (priceDkk, shippingDkk, totalMinor …). */
const MONEY_FIELD = /(Dkk|Minor)$/;

/** Minor units shown in the shop currency, e.g. 12900 → "DKK 129.00". */
type MoneyFormat = (minor: number) => string;

export type AuditEntry = {
  id: string; at: string; actor: { kind: string; name: string }; channel: string; tool: string;
  targetType: string; targetId: string; before: unknown; after: unknown; revertedBy: string | null; revertOf: string | null;
};

type Filters = { actor?: string; target?: string; tool?: string; since?: string; before?: string; done?: string };

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
}

function shown(field: string, value: unknown): string {
  const text = valueWords(field.split('.').at(-1) ?? field, value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

type Change = { field: string; before: unknown; after: unknown };

/** The fields whose value differs between the two snapshots: all of them for a creation or a removal. */
export function changedFields(before: unknown, after: unknown): Change[] {
  const b = asRecord(before);
  const a = asRecord(after);
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((field) => !NOISE.has(field));
  return fields.flatMap((field) => differences(field, b[field], a[field]));
}

/**
 * Where two values differ, by path: a structured value changed on both sides (a page layout, a list of
 * features) is compared member by member, so the row names the one heading that changed ("layout.sections.2.heading")
 * instead of two long documents that look alike.
 */
function differences(path: string, before: unknown, after: unknown): Change[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const bothLists = Array.isArray(before) && Array.isArray(after);
  const bothRecords = isPlainObject(before) && isPlainObject(after);
  if (!bothLists && !bothRecords) return [{ field: path, before, after }];
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  return [...new Set([...Object.keys(b), ...Object.keys(a)])].flatMap((key) => differences(`${path}.${key}`, b[key], a[key]));
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A money field's amount: the value itself, or for a setting such as shippingDkk its stored {"value": …}
 * (the entry's target names the setting, the row's field is just `value`).
 */
function amountOf(entry: Pick<AuditEntry, 'targetType' | 'targetId'>, field: string, value: unknown): number | undefined {
  const setting = entry.targetType === 'settings' && field === 'value' && MONEY_FIELD.test(entry.targetId);
  if (!setting && !MONEY_FIELD.test(field)) return undefined;
  const amount = setting ? asRecord(value).value : value;
  return typeof amount === 'number' && Number.isSafeInteger(amount) ? amount : undefined;
}

/** A cell of the diff: an amount in the shop currency, its raw minor units kept in the <data> element's value. */
function cell(entry: Pick<AuditEntry, 'targetType' | 'targetId'>, field: string, value: unknown, money: MoneyFormat): Html | string {
  const amount = amountOf(entry, field, value);
  return amount === undefined ? shown(field, value) : html`<data value="${amount}">${money(amount)}</data>`;
}

export function diffTable(entry: Pick<AuditEntry, 'before' | 'after' | 'targetType' | 'targetId'>, money: MoneyFormat): Html {
  const rows = changedFields(entry.before, entry.after);
  if (rows.length === 0) return html``;
  return html`<table class="diff stack"><caption class="skip-link">${t.activity.changes}</caption><thead><tr><th scope="col">${t.activity.field}</th><th scope="col">${t.activity.before}</th><th scope="col">${t.activity.after}</th></tr></thead><tbody>${rows.map((row) =>
    html`<tr><td data-label="${t.activity.field}" title="${row.field}">${fieldLabel(row.field)}</td><td data-label="${t.activity.before}">${cell(entry, row.field, row.before, money)}</td><td data-label="${t.activity.after}">${cell(entry, row.field, row.after, money)}</td></tr>`)}</tbody></table>`;
}

/**
 * A creation changes every field, so its whole table would drown the feed: one line names what was made,
 * and the fields stay one click away in a <details>, which needs no script.
 */
function creationView(entry: AuditEntry, money: MoneyFormat): Html {
  const rows = changedFields(null, entry.after);
  return html`<p class="summary">${t.activity.created}: ${targetTitle(entry)}</p>
<details><summary>${t.activity.allFields(rows.length)}</summary>${diffTable(entry, money)}</details>`;
}

/** Revert where this person may and can revert the entry, else why not, in the words audit.revert would answer. */
function revertAction(actor: Actor, entry: AuditEntry): Html {
  const refusal = revertRefusal(actor, entry);
  if (refusal) return html`<p class="why-not">${whyNoRevert(entry, refusal)}</p>`;
  return html`<p><a class="button secondary" href="/admin/activity/${entry.id}/revert">${t.activity.revert}<span class="skip-link"> ${targetTitle(entry)}</span></a></p>`;
}

function entryView(entry: AuditEntry, actor: Actor, timeZone: string, money: MoneyFormat): Html {
  return html`<article class="entry" aria-labelledby="e-${entry.id}">
<h2 id="e-${entry.id}">${targetTitle(entry)}</h2>
<p class="meta"><span>${t.activity.what}: <code>${entry.tool}</code></span> · <span>${t.activity.who}: <strong>${entry.actor.name}</strong></span> · <span>${t.activity.when}: ${formatDate(entry.at, timeZone)}</span> · <span>${t.activity.channel}: ${entry.channel}</span>${entry.revertOf ? html` · <span>${t.activity.revertOf} <a href="/admin/activity?target=${entry.targetId}">${entry.revertOf}</a></span>` : ''}${entry.revertedBy ? html` · <strong>${t.activity.reverted}</strong>` : ''}</p>
${entry.before === null && entry.after !== null ? creationView(entry, money) : diffTable(entry, money)}
${revertAction(actor, entry)}
</article>`;
}

function filterForm(filters: Filters): Html {
  return html`<form class="filters panel" method="get" action="/admin/activity">
<div><label for="f-actor">${t.activity.actor}</label><input id="f-actor" name="actor" value="${filters.actor ?? ''}"></div>
<div><label for="f-target">${t.activity.target}</label><input id="f-target" name="target" value="${filters.target ?? ''}"></div>
<div><label for="f-tool">${t.activity.tool}</label><input id="f-tool" name="tool" value="${filters.tool ?? ''}"></div>
<div><label for="f-since">${t.activity.since}</label><input id="f-since" name="since" type="date" value="${filters.since ?? ''}"></div>
<button type="submit">${t.filter}</button></form>`;
}

function listInput(filters: Filters): Record<string, unknown> {
  const target = filters.target?.trim();
  return {
    limit: PAGE_SIZE,
    ...(filters.actor?.trim() ? { actorName: filters.actor.trim() } : {}),
    ...(target ? (UUID.test(target) ? { targetId: target } : { targetSlug: target }) : {}),
    ...(filters.tool?.trim() ? { tool: filters.tool.trim() } : {}),
    ...(filters.since ? { since: `${filters.since}T00:00:00Z` } : {}),
    ...(filters.before ? { before: filters.before } : {}),
  };
}

export function activityRoutes(app: FastifyInstance, deps: AppDeps): void {
  const timeZone = deps.config.admin.timeZone;

  app.get<{ Querystring: Filters }>('/admin/activity', async (request, reply) => {
    const who = request.staff;
    const filters = request.query;
    const actorName = filters.actor?.trim();
    const [outcome, { currency }, agent] = await Promise.all([
      callTool(deps, request, who.actor, 'audit.list', listInput(filters)),
      readSettings(deps.runtime.db),
      // Filtered to one agent, the page offers to undo its session from the agent's page.
      hasScope(who.actor, 'audit:revert') && actorName ? agentActing(deps.runtime.db, actorName, deps.runtime.clock()) : undefined,
    ]);
    const money = (minor: number) => formatMoney(minor, currency);
    const entries = outcome.ok ? outcome.result as AuditEntry[] : [];
    const last = entries.at(-1);
    const older = last && entries.length === PAGE_SIZE
      ? `/admin/activity?${new URLSearchParams({ ...stripped(filters), before: last.at }).toString()}` : undefined;
    return sendAdminPage(reply, {
      title: t.activity.title, current: 'activity', viewer: who.viewer,
      main: html`<h1>${t.activity.title}</h1>
${filters.done === 'reverted' ? noticeBox(t.activity.revertDone) : ''}
${outcome.ok ? '' : problemBox(refusalOf(outcome.problem).detail, refusalOf(outcome.problem).resolution)}
${filterForm(filters)}
${agent ? html`<p><a href="/admin/agents/${encodeURIComponent(agent.agent)}#undo">${t.agents.undoFromActivity(agent.name)}</a></p>` : ''}
${entries.length === 0 ? html`<p>${t.none}</p>` : entries.map((entry) => entryView(entry, who.actor, timeZone, money))}
<nav class="pager" aria-label="Pages">${filters.before ? html`<a href="/admin/activity?${new URLSearchParams(stripped(filters)).toString()}">${t.previous}</a>` : ''}${older ? html`<a href="${older}">${t.next}</a>` : ''}</nav>`,
    });
  });

  const confirmPage = async (request: FastifyRequest, reply: FastifyReply, id: string, problem?: { box: Html; status: number }) => {
    const who = request.staff;
    const [[entry], { currency }] = await Promise.all([
      readTool<AuditEntry[]>(deps, request, who.actor, 'audit.list', { entryId: id, limit: 1 }),
      readSettings(deps.runtime.db),
    ]);
    if (!entry) return sendAdminPage(reply, { title: t.notFound, viewer: who.viewer, main: problemBox(t.notFound) }, 404);
    const refusal = revertRefusal(who.actor, entry);
    // What goes back is the entry's change read the other way round.
    const undo = { ...entry, before: entry.after, after: entry.before };
    return sendAdminPage(reply, {
      title: t.activity.confirmTitle, current: 'activity', viewer: who.viewer,
      main: html`<h1>${t.activity.confirmTitle}</h1>${problem?.box ?? ''}${refusal && !problem ? refusalBox(refusal.code, refusal.detail, PROBLEMS[refusal.code].resolution) : ''}
<p><strong>${targetTitle(entry)}</strong> · <code>${entry.tool}</code> · ${entry.actor.name} · ${formatDate(entry.at, timeZone)}</p>
<p>${t.activity.confirmLead}</p>${diffTable(undo, (minor) => formatMoney(minor, currency))}
${refusal ? html`<p><a href="/admin/activity">${t.activity.back}</a></p>` : html`<form method="post" action="/admin/activity/${entry.id}/revert">${csrfField(who.viewer)}
<button type="submit">${t.activity.confirmButton}</button> <a href="/admin/activity">${t.cancel}</a></form>`}`,
    }, problem?.status ?? (refusal ? PROBLEMS[refusal.code].status : 200));
  };

  app.get<{ Params: { id: string } }>('/admin/activity/:id/revert', async (request, reply) => confirmPage(request, reply, request.params.id));

  app.post<{ Params: { id: string } }>('/admin/activity/:id/revert', async (request, reply) => {
    const who = request.staff;
    const outcome = await callTool(deps, request, who.actor, 'audit.revert', { entryId: request.params.id });
    if (outcome.ok) return reply.redirect('/admin/activity?done=reverted', 303);
    const { detail, resolution } = refusalOf(outcome.problem);
    return confirmPage(request, reply, request.params.id, { box: refusalBox(outcome.problem.code, detail, resolution), status: outcome.problem.status });
  });
}

/** A revert refused for want of rights is told to a person, not in the words meant for a key's holder. */
function refusalBox(code: ProblemCode, detail: string, resolution: string): Html {
  return problemBox(detail, code === 'insufficient_scope' ? t.activity.revertNeedsRights : resolution);
}

function stripped(filters: Filters): Record<string, string> {
  const { before: _before, done: _done, ...rest } = filters;
  return Object.fromEntries(Object.entries(rest).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
}
