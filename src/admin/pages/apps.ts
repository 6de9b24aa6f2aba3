import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import type { Connection } from '../../commands/oauth.ts';
import { ConsoleRefusal, refusalOf, runOwnerCommand } from '../call.ts';
import { confirmRoute } from '../confirm.ts';
import { noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { formatDate } from '../format.ts';
import { ownersOnly } from '../signed-in.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';

type Query = { done?: string };
const DONE: Record<string, string> = { grant: t.apps.revokedGrant, client: t.apps.disconnected };

const scopeList = (grant: Connection['grants'][number]): Html => html`${Object.entries(grant.scopes).map(([resource, scope]) => html`<span class="scope">${scope}</span> <small>(${resource})</small> `)}`;

/**
 * Connected apps, for owners: the OAuth clients and their grants. No tool manages them (a token must not end
 * the grants it came from), so the page runs the owner commands `butik oauth list|revoke` runs, as the
 * signed-in owner on the admin channel; a revocation is audited, and has no undo, so both kinds ask first on
 * a confirmation page.
 */
export function appsPages(app: FastifyInstance, deps: AppDeps): void {
  const { timeZone } = deps.config.admin;

  app.addHook('preHandler', ownersOnly(t.apps.title, t.apps.ownerOnly));

  const grantRow = (connection: Connection, grant: Connection['grants'][number]) => html`<tr>
<td data-label="${t.apps.app}"><strong>${connection.clientName ?? t.apps.unnamed}</strong></td>
<td data-label="${t.apps.scopes}">${scopeList(grant)}</td>
<td data-label="${t.apps.granted}">${formatDate(grant.grantedAt, timeZone)}</td>
<td data-label="${t.apps.lastToken}">${formatDate(grant.lastTokenAt, timeZone)}</td>
<td data-label="${t.apps.tokens}" class="num">${grant.liveTokens}</td>
<td><a class="button danger" href="/admin/apps/grants/${encodeURIComponent(grant.grantId)}/revoke">${t.apps.revokeGrant}<span class="skip-link"> ${connection.clientName ?? connection.clientId}</span></a></td></tr>`;

  // A client named by its metadata document is known by the host that serves it (what its consent page showed);
  // a registered one by the id the shop gave it.
  const clientLine = (connection: Connection): Html => html`<p class="meta">${connection.documentHost
    ? html`<strong>${connection.documentHost}</strong> · ${t.apps.document} <code>${connection.clientId}</code>`
    : html`${t.apps.client}: <code>${connection.clientId}</code>`}${connection.redirectUris.length > 0 ? html` · ${connection.redirectUris.join(', ')}` : ''}</p>`;

  const connectionView = (connection: Connection): Html => html`<section class="panel" aria-labelledby="c-${connection.clientId}">
<h2 id="c-${connection.clientId}">${connection.clientName ?? t.apps.unnamed}</h2>
${clientLine(connection)}
${connection.grants.length === 0 ? html`<p>${t.apps.noGrant}</p>` : html`<table class="stack"><thead><tr><th scope="col">${t.apps.app}</th><th scope="col">${t.apps.scopes}</th><th scope="col">${t.apps.granted}</th><th scope="col">${t.apps.lastToken}</th><th scope="col" class="num">${t.apps.tokens}</th><th scope="col"><span class="skip-link">Actions</span></th></tr></thead><tbody>
${connection.grants.map((grant) => grantRow(connection, grant))}</tbody></table>`}
<p><a class="button danger" href="/admin/apps/${encodeURIComponent(connection.clientId)}/revoke">${t.apps.disconnect}<span class="skip-link"> ${connection.clientName ?? connection.clientId}</span></a></p>
</section>`;

  const connectionsOf = async (request: FastifyRequest, who: SignedIn): Promise<Connection[]> => {
    const listed = await runOwnerCommand(deps, request, who.actor, 'oauth.list', {});
    if (!listed.ok) throw new ConsoleRefusal(refusalOf(listed.problem));
    return listed.result as Connection[];
  };

  const page = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, query: Query, problem?: Html) => {
    const connections = await connectionsOf(request, who);
    const done = DONE[query.done ?? ''];
    return sendAdminPage(reply, {
      title: t.apps.title, current: 'apps', viewer: who.viewer,
      main: html`<h1>${t.apps.title}</h1><p>${t.apps.lead}</p>${done ? noticeBox(done) : ''}${problem ?? ''}
${connections.length === 0 ? html`<p>${t.none}</p>` : connections.map((connection) => connectionView(connection))}`,
    }, problem ? 422 : 200);
  };

  const revoke = async (request: FastifyRequest, reply: FastifyReply, name: string, input: Record<string, string>, done: string) => {
    const who = request.staff;
    const outcome = await runOwnerCommand(deps, request, who.actor, name, input);
    if (!outcome.ok) return page(request, reply, who, {}, problemBox(outcome.problem.detail, outcome.problem.resolution));
    request.log.info({ ...input, by: who.actor.staffId }, 'admin ended an OAuth connection');
    return reply.redirect(`/admin/apps?done=${done}`, 303);
  };

  app.get<{ Querystring: Query }>('/admin/apps', async (request, reply) => page(request, reply, request.staff, request.query));

  confirmRoute<{ grantId: string }>(app, {
    path: '/admin/apps/grants/:grantId/revoke', current: 'apps',
    ask: async (request, who) => {
      const found = (await connectionsOf(request, who)).flatMap((connection) => connection.grants.map((grant) => ({ connection, grant })))
        .find(({ grant }) => grant.grantId === request.params.grantId);
      return found && {
        title: t.apps.revokeGrantTitle,
        subject: html`<strong>${found.connection.clientName ?? t.apps.unnamed}</strong> (${found.connection.clientId}) · ${t.apps.scopes}: ${scopeList(found.grant)}· ${t.apps.granted} ${formatDate(found.grant.grantedAt, timeZone)}`,
        lead: t.apps.revokeGrantLead, button: t.apps.revokeGrant, back: '/admin/apps',
      };
    },
    act: async (request, reply) => revoke(request, reply, 'oauth.revoke-grant', { grantId: request.params.grantId }, 'grant'),
  });

  confirmRoute<{ clientId: string }>(app, {
    path: '/admin/apps/:clientId/revoke', current: 'apps',
    ask: async (request, who) => {
      const connection = (await connectionsOf(request, who)).find((candidate) => candidate.clientId === request.params.clientId);
      return connection && {
        title: t.apps.disconnectTitle, subject: html`<strong>${connection.clientName ?? t.apps.unnamed}</strong> (${connection.clientId})`,
        lead: t.apps.disconnectLead, button: t.apps.disconnect, back: '/admin/apps',
      };
    },
    act: async (request, reply) => revoke(request, reply, 'oauth.revoke-client', { clientId: request.params.clientId }, 'client'),
  });
}
