import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAgent, pauseAgent, resumeAgent } from '../../access/agent-pauses.ts';
import type { Agent } from '../../access/agent-pauses.ts';
import { findAgent, listAgents } from '../../access/agents.ts';
import type { AgentSummary } from '../../access/agents.ts';
import { pausesAgents, resumesAgents } from '../../access/staff-roles.ts';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { formatDate, startOfDay, today } from '../format.ts';
import { signedIn } from '../session.ts';
import type { SignedIn } from '../session.ts';
import { t } from '../strings.ts';

type Query = { done?: string };
const DONE: Record<string, string> = { paused: t.agents.pausedDone, resumed: t.agents.resumedDone };

/** The name an agent's audit entries carry (actor.name), so Activity can be filtered to it. */
function actorNameOf(agent: AgentSummary): string {
  return agent.kind === 'key' ? agent.name : `oauth:${agent.name}`;
}

const agentPath = (agent: Agent) => `/admin/agents/${encodeURIComponent(agent)}`;

/**
 * Agents, for everyone signed in: each API key and connected app with what it may do and did today. Pausing
 * calls access/ directly, as the keys page does (an agent's access is no shop data and no tool changes it);
 * the roles that may pause and resume are in access/staff-roles.ts.
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

  const row = (who: SignedIn, agent: AgentSummary) => html`<tr>
<td data-label="${t.agents.agent}"><a href="${agentPath(agent.agent)}">${agent.name}</a></td>
<td data-label="${t.agents.kind}" class="nowrap">${kindOf(agent)}</td>
<td data-label="${t.agents.scopes}">${agent.scopes.join(', ')}</td>
<td data-label="${t.agents.lastSeen}">${formatDate(agent.lastSeenAt, timeZone)}</td>
<td data-label="${t.agents.changesToday}" class="num">${agent.changesSince}</td>
<td data-label="${t.agents.state}">${stateOf(agent)}</td>
<td class="nowrap">${action(who, agent)}</td></tr>`;

  app.get<{ Querystring: Query }>('/admin/agents', async (request, reply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    const agents = await listAgents(db, dayStart());
    const done = DONE[request.query.done ?? ''];
    return sendAdminPage(reply, {
      title: t.agents.title, current: 'agents', viewer: who.viewer,
      main: html`<h1>${t.agents.title}</h1><p>${t.agents.lead}</p>${done ? noticeBox(done) : ''}
${agents.length === 0 ? html`<p>${t.none}</p>` : html`<table class="stack"><thead><tr><th scope="col">${t.agents.agent}</th><th scope="col">${t.agents.kind}</th><th scope="col">${t.agents.scopes}</th><th scope="col">${t.agents.lastSeen}</th><th scope="col" class="num">${t.agents.changesToday}</th><th scope="col">${t.agents.state}</th><th scope="col"><span class="skip-link">Actions</span></th></tr></thead><tbody>
${agents.map((agent) => row(who, agent))}</tbody></table>`}`,
    });
  });

  const detail = async (request: FastifyRequest<{ Params: { agent: string }; Querystring: Query }>, reply: FastifyReply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    const { agent: id } = request.params;
    const agent = isAgent(id) ? await findAgent(db, id, dayStart()) : undefined;
    if (!agent) return sendAdminPage(reply, { title: t.notFound, viewer: who.viewer, main: problemBox(t.agents.notFound) }, 404);
    const done = DONE[request.query.done ?? ''];
    return sendAdminPage(reply, {
      title: `${agent.name} · ${t.agents.title}`, current: 'agents', viewer: who.viewer,
      main: html`<p><a href="/admin/agents">${t.agents.title}</a></p><h1>${agent.name}</h1>${done ? noticeBox(done) : ''}
<section aria-labelledby="facts"><h2 id="facts">${kindOf(agent)}</h2><dl class="panel">
<dt>${t.agents.scopes}</dt><dd>${agent.scopes.join(', ') || '—'}</dd>
<dt>${t.agents.lastSeen}</dt><dd>${formatDate(agent.lastSeenAt, timeZone)}</dd>
<dt>${t.agents.changesToday}</dt><dd>${agent.changesSince}</dd>
<dt>${t.agents.state}</dt><dd>${stateOf(agent)}</dd></dl>
<p class="actions">${action(who, agent)} <a href="/admin/activity?actor=${encodeURIComponent(actorNameOf(agent))}">${t.agents.activity}</a></p></section>`,
    });
  };

  app.get<{ Params: { agent: string }; Querystring: Query }>('/admin/agents/:agent', detail);

  const change = (verb: 'pause' | 'resume') => async (request: FastifyRequest<{ Params: { agent: string } }>, reply: FastifyReply) => {
    const who = await signedIn(deps, request, reply);
    if (!who) return reply;
    const allowed = verb === 'pause' ? pausesAgents(who.actor.role) : resumesAgents(who.actor.role);
    if (!allowed) {
      return sendAdminPage(reply, { title: t.agents.title, viewer: who.viewer, main: problemBox(verb === 'pause' ? t.agents.mayNotPause : t.agents.resumeOwnerOnly) }, 403);
    }
    const { agent: id } = request.params;
    if (!isAgent(id) || !await findAgent(db, id, dayStart())) {
      return sendAdminPage(reply, { title: t.notFound, viewer: who.viewer, main: problemBox(t.agents.notFound) }, 404);
    }
    const by = { actor: who.actor, channel: 'admin' as const, at: clock() };
    await (verb === 'pause' ? pauseAgent(db, id, by) : resumeAgent(db, id, by));
    request.log.info({ agent: id, by: who.actor.staffId }, `admin ${verb}d an agent`);
    return reply.redirect(`${agentPath(id)}?done=${verb}d`, 303);
  };

  app.post<{ Params: { agent: string } }>('/admin/agents/:agent/pause', { preHandler: app.csrfProtection }, change('pause'));
  app.post<{ Params: { agent: string } }>('/admin/agents/:agent/resume', { preHandler: app.csrfProtection }, change('resume'));
}
