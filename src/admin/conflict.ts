import type { FastifyRequest } from 'fastify';
import type { Actor } from '../access/actor.ts';
import type { AppDeps } from '../deps.ts';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import { callTool } from './call.ts';
import { formatDate } from './format.ts';
import { changedFields } from './pages/activity.ts';
import type { AuditEntry } from './pages/activity.ts';
import { t } from './strings.ts';

/** How many of the record's latest audit entries the conflict form names. */
const LATEST = 3;

/** A save refused because the record changed since its form was rendered (412): what differs now, and who changed it. */
export type Conflict = {
  /** The fields whose saved value differs from what the person sent, by form field name, with their label. */
  fields: ReadonlyArray<{ name: string; label: string }>;
  /** The record's latest audit entries, newest first; none when the person's role may not read the log. */
  latest: AuditEntry[];
};

/** Whether a refused call was refused because its version token is out of date. */
export function isConflict(outcome: { ok: boolean; status: number }): boolean {
  return !outcome.ok && outcome.status === 412;
}

/** The latest changes to one record, read with audit.list as the Activity page does; none when audit:read is missing. */
export async function latestChanges(deps: AppDeps, request: FastifyRequest, actor: Actor, targetId: string): Promise<AuditEntry[]> {
  const outcome = await callTool(deps, request, actor, 'audit.list', { targetId, limit: LATEST });
  return outcome.ok ? outcome.result as AuditEntry[] : [];
}

/** The error summary at the top of a conflict form: what happened, links to each field that differs, who changed what. */
export function conflictBox(conflict: Conflict, timeZone: string): Html {
  const c = t.conflict;
  return html`<div class="problem" role="alert" aria-labelledby="conflict-title"><h2 id="conflict-title">${c.title}</h2><p>${c.lead}</p>
${conflict.fields.length > 0 ? html`<p>${c.fields}</p><ul>${conflict.fields.map((field) => html`<li><a href="#field-${field.name}">${field.label}</a></li>`)}</ul>` : html`<p>${c.noFields}</p>`}
${conflict.latest.length > 0 ? html`<p>${c.latest}</p><ul>${conflict.latest.map((entry) => html`<li>${formatDate(entry.at, timeZone)} · <strong>${entry.actor.name}</strong> (${entry.channel}) · ${entry.tool}: ${fieldNames(entry).join(', ')}</li>`)}</ul>` : ''}
<p>${c.again}</p></div>`;
}

/** The top-level fields an entry changed, e.g. "priceDkk, stock". */
function fieldNames(entry: AuditEntry): string[] {
  return [...new Set(changedFields(entry.before, entry.after).map((change) => change.field.split('.')[0] ?? change.field))];
}
