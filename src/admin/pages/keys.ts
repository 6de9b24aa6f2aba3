import type { FastifyInstance, FastifyReply } from 'fastify';
import { createKey, listKeys, revokeKey, rotateKey } from '../../access/api-keys.ts';
import type { KeyAudit } from '../../access/api-keys.ts';
import { SCOPES } from '../../access/scopes.ts';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import { asToolError } from '../../errors/to-problem.ts';
import { CreateKeyInput } from '../../schema/api-key.ts';
import type { AppDeps } from '../../deps.ts';
import { parseInput } from '../../tools/invoke.ts';
import { confirmRoute } from '../confirm.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { field, filled } from '../fields.ts';
import { formatDate } from '../format.ts';
import { ownersOnly } from '../signed-in.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';

type Form = Record<string, string | string[]>;

/**
 * API keys, for owners: keys are access, not shop data, so like the master-key routes this page calls the
 * key functions of access/ rather than a tool; the same input schema checks what the person typed.
 */
export function keysPages(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps.runtime;
  const { timeZone } = deps.config.admin;
  const forget = deps.gate.authenticator.forget;

  const audit = (who: SignedIn): KeyAudit => ({ actor: who.actor, channel: 'admin', at: clock() });
  app.addHook('preHandler', ownersOnly(t.keys.title, t.keys.ownerOnly));

  const page = async (reply: FastifyReply, who: SignedIn, options: { top?: Html; typed?: Form; errors?: Map<string, string>; status?: number } = {}) => {
    const keys = await listKeys(db);
    const now = clock();
    const typedScopes = new Set([options.typed?.scopes ?? []].flat());
    const state = (key: (typeof keys)[number]) => (key.revokedAt ? t.keys.revoked : key.expiresAt && Date.parse(key.expiresAt) <= now.getTime() ? t.keys.expired : t.keys.active);
    return sendAdminPage(reply, {
      title: t.keys.title, current: 'keys', viewer: who.viewer,
      main: html`<h1>${t.keys.title}</h1>${options.top ?? ''}
<form method="post" action="/admin/keys" class="panel">${csrfField(who.viewer)}<h2>${t.keys.create}</h2>
${field({ name: 'name', label: t.keys.name, value: String(options.typed?.name ?? ''), error: options.errors?.get('name'), required: true })}
<fieldset class="scopes"><legend>${t.keys.scopes}</legend>${SCOPES.map((scope) => html`<label><input type="checkbox" name="scopes" value="${scope}"${typedScopes.has(scope) ? html` checked` : ''}> ${scope}</label>`)}</fieldset>
${options.errors?.get('scopes') ? html`<p class="error">${options.errors.get('scopes')}</p>` : ''}
${field({ name: 'expires', label: t.keys.expires, type: 'date', value: String(options.typed?.expires ?? ''), error: options.errors?.get('expiresAt') })}
<button type="submit">${t.keys.create}</button></form>
${keys.length === 0 ? html`<p>${t.none}</p>` : html`<table class="stack"><thead><tr><th scope="col">${t.keys.name}</th><th scope="col">${t.keys.prefix}</th><th scope="col">${t.keys.scopes}</th><th scope="col">${t.keys.state}</th><th scope="col">${t.keys.lastUsed}</th><th scope="col"><span class="skip-link">Actions</span></th></tr></thead><tbody>
${keys.map((key) => html`<tr><td data-label="${t.keys.name}">${key.name}</td><td data-label="${t.keys.prefix}">${key.prefix}…</td><td data-label="${t.keys.scopes}">${key.scopes.join(', ')}</td><td data-label="${t.keys.state}">${state(key)}</td><td data-label="${t.keys.lastUsed}">${formatDate(key.lastUsedAt, timeZone)}</td>
<td>${key.revokedAt ? '' : html`<a class="button secondary" href="/admin/keys/${key.id}/rotate">${t.keys.rotate}<span class="skip-link"> ${key.name}</span></a>
<a class="button danger" href="/admin/keys/${key.id}/revoke">${t.keys.revoke}<span class="skip-link"> ${key.name}</span></a>`}</td></tr>`)}
</tbody></table>`}`,
    }, options.status ?? 200);
  };

  const shownOnce = (key: string) => html`<div class="notice" role="status"><p>${t.keys.shownOnce}</p><p><label for="new-key">API key</label><input id="new-key" class="secret" readonly value="${key}" size="60"></p></div>`;

  app.get('/admin/keys', async (request, reply) => {
    const draft = takeDraft(request);
    return page(reply, request.staff, draft ? { typed: { ...draft.fields, ...draft.lists }, top: noticeBox(t.signIn.draftRestored) } : {});
  });

  app.post<{ Body: Form }>('/admin/keys', keepsDraft(), async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    const expires = filled({ expires: String(body.expires ?? '') }, 'expires');
    try {
      const input = parseInput(CreateKeyInput, {
        name: String(body.name ?? ''), scopes: [body.scopes ?? []].flat(), ...(expires ? { expiresAt: `${expires}T00:00:00Z` } : {}),
      });
      const created = await createKey(db, { name: input.name, scopes: input.scopes, expiresAt: input.expiresAt ? new Date(input.expiresAt) : undefined }, audit(who));
      request.log.info({ keyId: created.id, by: who.actor.staffId }, 'admin created an API key');
      return page(reply, who, { top: shownOnce(created.key) });
    } catch (error) {
      const problem = asToolError(error);
      const errors = new Map((problem.extras.errors ?? []).map((e) => [e.path.split('.')[0] ?? e.path, e.message]));
      return page(reply, who, { top: problemBox(problem.detail), typed: body, errors, status: 422 });
    }
  });

  /** The key by id, for a confirmation page: undefined when there is none, or it is already revoked. */
  const liveKey = async (id: string) => (await listKeys(db)).find((key) => key.id === id && !key.revokedAt);

  confirmRoute<{ id: string }>(app, {
    path: '/admin/keys/:id/rotate', current: 'keys',
    ask: async (request) => {
      const key = await liveKey(request.params.id);
      return key && { title: t.keys.rotateTitle, subject: html`<strong>${key.name}</strong> (${key.prefix}…)`, lead: t.keys.rotateLead, button: t.keys.rotate, back: '/admin/keys' };
    },
    act: async (request, reply, who) => {
      const rotated = await rotateKey(db, request.params.id, audit(who), forget);
      return page(reply, who, { top: html`${noticeBox(t.keys.rotated)}${shownOnce(rotated.key)}` });
    },
  });

  confirmRoute<{ id: string }>(app, {
    path: '/admin/keys/:id/revoke', current: 'keys',
    ask: async (request) => {
      const key = await liveKey(request.params.id);
      return key && { title: t.keys.revokeTitle, subject: html`<strong>${key.name}</strong> (${key.prefix}…)`, lead: t.keys.revokeLead, button: t.keys.revoke, back: '/admin/keys' };
    },
    act: async (request, reply, who) => {
      await revokeKey(db, request.params.id, audit(who), forget);
      return page(reply, who, { top: noticeBox(t.keys.revokedDone) });
    },
  });
}
