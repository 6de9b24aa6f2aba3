import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAgent, resumeAgent } from '../../access/agent-pauses.ts';
import type { Agent } from '../../access/agent-pauses.ts';
import { findAgent, listAgents } from '../../access/agents.ts';
import type { AgentSummary } from '../../access/agents.ts';
import { hasScope } from '../../access/actor.ts';
import { pausesAgents, resumesAgents } from '../../access/staff-roles.ts';
import { pendingApprovalCounts } from '../../policies/approvals.ts';
import { pauseAgentAndDenyItsApprovals } from '../../policies/pause.ts';
import { previewSessionUndo } from '../../tools/audit-session.ts';
import type { SessionEntry } from '../../tools/audit-session.ts';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { targetTitle } from '../activity-words.ts';
import { callTool, refusalOf } from '../call.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { formatDate, localInstant, startOfDay, today } from '../format.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';

type Query = { done?: string; count?: string };
type Form = Record<string, string | string[] | undefined>;
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const DONE: Record<string, string> = { paused: t.agents.pausedDone, resumed: t.agents.resumedDone };

/** The name an agent's audit entries carry (actor.name), so Activity can be filtered to it. */
function actorNameOf(agent: AgentSummary): string {
  return agent.kind === 'key' ? agent.name : `oauth:${agent.name}`;
}

const agentPath = (agent: Agent) => `/admin/agents/${encodeURIComponent(agent)}`;

/**
 * Agents, for everyone signed in: each API key and connected app with what it may do and did today. Pausing
 * calls access/ directly, as the keys page does (an agent's access is no shop data and no tool changes it);
 * the roles that may pause and resume are in access/staff-roles.ts. Undoing an agent's session previews with a
 * read of the core and applies through audit.undo_session in the call pipeline, as the signed-in person.
 */
export function agentPages(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps.runtime;
  const { timeZone } = deps.config.admin;
  const dayStart = () => startOfDay(today(clock(), timeZone), timeZone);

  const stateOf = (agent: AgentSummary): Html => (agent.pause
    ? html`<strong class="paused">${t.agents.paused}</strong><br><small>${t.agents.pausedBy(agent.pause.pausedBy, formatDate(agent.pause.pausedAt, timeZone))}</small>`
    : html`${t.agents.active}`);

  const action = (who: SignedIn, agent: AgentSummary): Html | '' => {
    const label = html`<span class="skip-link"> ${agent.name}</span>`;
    if (agent.pause) {
      return resumesAgents(who.actor.role)
        ? html`<form class="inline" method="post" action="${agentPath(agent.agent)}/resume">${csrfField(who.viewer)}<button class="secondary" type="submit">${t.agents.resume}${label}</button></form>`
        : html`<small>${t.agents.resumeOwnerOnly}</small>`;
    }
    return pausesAgents(who.actor.role)
      ? html`<form class="inline" method="post" action="${agentPath(agent.agent)}/pause">${csrfField(who.viewer)}<button class="danger" type="submit">${t.agents.pause}${label}</button></form>`
      : '';
  };

  const kindOf = (agent: AgentSummary) => (agent.kind === 'key' ? t.agents.key : t.agents.app);

  const waitingOf = (agent: AgentSummary, waiting: ReadonlyMap<Agent, number>): Html | number => {
    const count = waiting.get(agent.agent) ?? 0;
    return count === 0 ? 0 : html`<a href="/admin/approvals">${count}</a>`;
  };

  const row = (who: SignedIn, agent: AgentSummary, waiting: ReadonlyMap<Agent, number>) => html`<tr>
<td data-label="${t.agents.agent}"><a href="${agentPath(agent.agent)}">${agent.name}</a></td>
<td data-label="${t.agents.kind}" class="nowrap">${kindOf(agent)}</td>
<td data-label="${t.agents.scopes}">${agent.scopes.join(', ')}</td>
<td data-label="${t.agents.lastSeen}">${formatDate(agent.lastSeenAt, timeZone)}</td>
<td data-label="${t.agents.changesToday}" class="num">${agent.changesSince}</td>
<td data-label="${t.agents.waiting}" class="num">${waitingOf(agent, waiting)}</td>
<td data-label="${t.agents.state}">${stateOf(agent)}</td>
<td class="nowrap">${action(who, agent)}</td></tr>`;

  app.get<{ Querystring: Query }>('/admin/agents', async (request, reply) => {
    const who = request.staff;
    const [agents, waiting] = await Promise.all([listAgents(db, dayStart()), pendingApprovalCounts(db, clock())]);
    const done = DONE[request.query.done ?? ''];
    return sendAdminPage(reply, {
      title: t.agents.title, current: 'agents', viewer: who.viewer,
      main: html`<h1>${t.agents.title}</h1><p>${t.agents.lead}</p>${done ? noticeBox(done) : ''}
${agents.length === 0 ? html`<p>${t.none}</p>` : html`<table class="stack"><thead><tr><th scope="col">${t.agents.agent}</th><th scope="col">${t.agents.kind}</th><th scope="col">${t.agents.scopes}</th><th scope="col">${t.agents.lastSeen}</th><th scope="col" class="num">${t.agents.changesToday}</th><th scope="col" class="num">${t.agents.waiting}</th><th scope="col">${t.agents.state}</th><th scope="col"><span class="skip-link">Actions</span></th></tr></thead><tbody>
${agents.map((agent) => row(who, agent, waiting))}</tbody></table>`}`,
    });
  });

  const detail = async (request: FastifyRequest<{ Params: { agent: string }; Querystring: Query }>, reply: FastifyReply) => {
    const who = request.staff;
    const { agent: id } = request.params;
    const [agent, waiting] = await Promise.all([
      isAgent(id) ? findAgent(db, id, dayStart()) : undefined, pendingApprovalCounts(db, clock()),
    ]);
    if (!agent) return sendAdminPage(reply, { title: t.notFound, viewer: who.viewer, main: problemBox(t.agents.notFound) }, 404);
    const done = request.query.done === 'undone' ? t.agents.undone(Number(request.query.count ?? 0)) : DONE[request.query.done ?? ''];
    return sendAdminPage(reply, {
      title: `${agent.name} · ${t.agents.title}`, current: 'agents', viewer: who.viewer,
      main: html`<p><a href="/admin/agents">${t.agents.title}</a></p><h1>${agent.name}</h1>${done ? noticeBox(done) : ''}
<section aria-labelledby="facts"><h2 id="facts">${kindOf(agent)}</h2><dl class="panel">
<dt>${t.agents.scopes}</dt><dd>${agent.scopes.join(', ') || '—'}</dd>
<dt>${t.agents.lastSeen}</dt><dd>${formatDate(agent.lastSeenAt, timeZone)}</dd>
<dt>${t.agents.changesToday}</dt><dd>${agent.changesSince}</dd>
<dt>${t.agents.state}</dt><dd>${stateOf(agent)}</dd>
<dt>${t.agents.waiting}</dt><dd>${waitingOf(agent, waiting)}</dd></dl>
<p class="actions">${action(who, agent)} <a href="/admin/activity?actor=${encodeURIComponent(actorNameOf(agent))}">${t.agents.activity}</a></p></section>
${hasScope(who.actor, 'audit:revert') ? sinceForm(agent.agent, today(clock(), timeZone)) : ''}`,
    });
  };

  /** On the agent's page it opens the undo; on the preview it asks again from another time. */
  const sinceForm = (agent: Agent, day: string, value = `${day}T00:00`, error?: string, heading: string = t.agents.undoTitle): Html => html`<form class="panel" method="get" action="${agentPath(agent)}/undo" aria-labelledby="undo">
<h2 id="undo">${heading}</h2>
<div class="field"><label for="since">${t.agents.since}</label><input id="since" name="since" type="datetime-local" value="${value}" required${error ? html` aria-describedby="since-error"` : ''}>${error ? html`<p class="error" id="since-error">${error}</p>` : ''}</div>
<button type="submit" class="secondary">${t.agents.preview}</button></form>`;

  const entryLine = (entry: SessionEntry): Html => html`${targetTitle(entry)} · <code>${entry.tool}</code> · ${formatDate(entry.at, timeZone)}`;

  const choice = (entry: SessionEntry): Html => {
    if (entry.status === 'not_revertible') {
      return html`<li><span>${entryLine(entry)}</span><br><small>${t.agents.notRevertible}: ${entry.reason ?? ''}</small></li>`;
    }
    const conflict = entry.status === 'conflict';
    return html`<li><label class="choice"><input type="checkbox" name="${conflict ? 'accept' : 'entry'}" value="${entry.id}"${conflict ? '' : html` checked`}> <span>${entryLine(entry)}</span></label>
${conflict ? html`<small class="conflict">${t.agents.conflict} ${entry.laterChanges.map((change) => `${change.actorName} (${change.tool}, ${formatDate(change.at, timeZone)})`).join('; ')}</small>` : ''}</li>`;
  };

  const undoPage = async (request: FastifyRequest<{ Params: { agent: string }; Querystring: { since?: string } }>, reply: FastifyReply, who: SignedIn, problem?: Html) => {
    const { agent: id } = request.params;
    const agent = isAgent(id) ? await findAgent(db, id, dayStart()) : undefined;
    if (!agent) return sendAdminPage(reply, { title: t.notFound, viewer: who.viewer, main: problemBox(t.agents.notFound) }, 404);
    const since = request.query.since ?? '';
    if (!LOCAL_TIME.test(since)) {
      return sendAdminPage(reply, { title: t.agents.undoTitle, current: 'agents', viewer: who.viewer, main: sinceForm(agent.agent, today(clock(), timeZone), since, t.agents.badSince) }, 400);
    }
    const { entries } = await previewSessionUndo(db, agent.agent, localInstant(since, timeZone));
    return sendAdminPage(reply, {
      title: `${t.agents.undoTitle} · ${agent.name}`, current: 'agents', viewer: who.viewer,
      main: html`<p><a href="${agentPath(agent.agent)}">${agent.name}</a></p><h1>${t.agents.undoTitle}</h1>${problem ?? ''}
${sinceForm(agent.agent, since.slice(0, 10), since, undefined, t.agents.otherTime)}
${entries.length === 0 ? html`<p>${t.agents.nothing}</p>` : html`<form method="post" action="${agentPath(agent.agent)}/undo?since=${encodeURIComponent(since)}">${csrfField(who.viewer)}
<p>${t.agents.undoLead}</p><fieldset class="session"><legend>${t.agents.chosen}</legend><ul class="session">${entries.map(choice)}</ul></fieldset>
<button type="submit" class="danger">${t.agents.apply}</button></form>`}`,
    }, problem ? 422 : 200);
  };

  app.get<{ Params: { agent: string }; Querystring: { since?: string } }>('/admin/agents/:agent/undo', async (request, reply) => undoPage(request, reply, request.staff));

  app.post<{ Params: { agent: string }; Querystring: { since?: string }; Body: Form }>('/admin/agents/:agent/undo', async (request, reply) => {
    const who = request.staff;
    const list = (value: string | string[] | undefined) => [value ?? []].flat();
    const accepted = list(request.body.accept);
    const outcome = await callTool(deps, request, who.actor, 'audit.undo_session', {
      agent: request.params.agent, entryIds: [...list(request.body.entry), ...accepted], acceptConflicts: accepted,
    });
    if (!outcome.ok) {
      const refusal = refusalOf(outcome.problem);
      return undoPage(request, reply, who, problemBox(refusal.detail, refusal.resolution));
    }
    const { reverted } = outcome.result as { reverted: unknown[] };
    return reply.redirect(`${agentPath(request.params.agent as Agent)}?done=undone&count=${reverted.length}`, 303);
  });

  app.get<{ Params: { agent: string }; Querystring: Query }>('/admin/agents/:agent', detail);

  const change = (verb: 'pause' | 'resume') => async (request: FastifyRequest<{ Params: { agent: string } }>, reply: FastifyReply) => {
    const who = request.staff;
    const allowed = verb === 'pause' ? pausesAgents(who.actor.role) : resumesAgents(who.actor.role);
    if (!allowed) {
      return sendAdminPage(reply, { title: t.agents.title, viewer: who.viewer, main: problemBox(verb === 'pause' ? t.agents.mayNotPause : t.agents.resumeOwnerOnly) }, 403);
    }
    const { agent: id } = request.params;
    if (!isAgent(id) || !await findAgent(db, id, dayStart())) {
      return sendAdminPage(reply, { title: t.notFound, viewer: who.viewer, main: problemBox(t.agents.notFound) }, 404);
    }
    const by = { actor: who.actor, channel: 'admin' as const, at: clock() };
    await (verb === 'pause' ? pauseAgentAndDenyItsApprovals(db, id, by) : resumeAgent(db, id, by));
    request.log.info({ agent: id, by: who.actor.staffId }, `admin ${verb}d an agent`);
    return reply.redirect(`${agentPath(id)}?done=${verb}d`, 303);
  };

  app.post<{ Params: { agent: string } }>('/admin/agents/:agent/pause', change('pause'));
  app.post<{ Params: { agent: string } }>('/admin/agents/:agent/resume', change('resume'));
}
