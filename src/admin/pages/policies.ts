import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { describeRule } from '../../policies/document.ts';
import type { PolicyDocument, PolicyRule } from '../../policies/document.ts';
import { ConsoleRefusal, refusalOf, runOwnerCommand } from '../call.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { ownersOnly } from '../signed-in.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';

const p = t.policies;

function whom(rule: PolicyRule): string {
  const named = [...(rule.keys ?? []).map((key) => `key ${key}`), ...(rule.apps ?? []).map((app) => `app ${app}`)];
  return named.length === 0 ? p.everyAgent : named.join(', ');
}

function ruleList(document: PolicyDocument): Html {
  if (document.rules.length === 0) return html`<p>${p.noRules}</p>`;
  return html`<ul class="rules">${document.rules.map((rule) => html`<li><strong>${rule.kind}</strong>: ${describeRule(rule)} <small>(${whom(rule)})</small></li>`)}</ul>`;
}

/**
 * /admin/policies, for owners: the policy document as JSON, checked whole when saved. It is an owner command
 * (`butik policies`), never a tool, so no agent reads or loosens it.
 */
export function policyPages(app: FastifyInstance, deps: AppDeps): void {
  app.addHook('preHandler', ownersOnly(p.title, p.ownerOnly));

  const page = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, options: { text?: string; notice?: Html; problem?: Html; status?: number } = {}) => {
    const shown = await runOwnerCommand(deps, request, who.actor, 'policies.show', {});
    if (!shown.ok) throw new ConsoleRefusal(refusalOf(shown.problem));
    const document = shown.result as PolicyDocument;
    return sendAdminPage(reply, {
      title: p.title, current: 'policies', viewer: who.viewer,
      main: html`<h1>${p.title}</h1><p>${p.lead}</p><p class="meta">${p.masterKey}</p>${options.notice ?? ''}${options.problem ?? ''}
<section class="panel" aria-labelledby="rules-now"><h2 id="rules-now">${p.now}</h2>${ruleList(document)}</section>
<form method="post" action="/admin/policies" class="panel">${csrfField(who.viewer)}
<label for="policy-json">${p.document}</label>
<p class="hint" id="policy-hint">${p.hint}</p>
<textarea id="policy-json" name="document" rows="14" spellcheck="false" aria-describedby="policy-hint">${options.text ?? JSON.stringify(document, null, 2)}</textarea>
<div class="actions"><button type="submit">${p.save}</button> <a href="/admin/activity?tool=policies.set">${p.history}</a></div></form>`,
    }, options.status ?? 200);
  };

  app.get<{ Querystring: { done?: string } }>('/admin/policies', async (request, reply) => {
    const draft = takeDraft(request);
    if (draft) return page(request, reply, request.staff, { text: draft.fields.document ?? '', notice: noticeBox(t.signIn.draftRestored) });
    return page(request, reply, request.staff, request.query.done === 'saved' ? { notice: noticeBox(p.saved) } : {});
  });

  app.post<{ Body: Record<string, string> }>('/admin/policies', keepsDraft(), async (request, reply) => {
    const who = request.staff;
    const text = request.body?.document ?? '';
    const outcome = await runOwnerCommand(deps, request, who.actor, 'policies.set', { document: text });
    // A refused document changes nothing; the owner gets their text back with what is wrong in it.
    if (!outcome.ok) return page(request, reply, who, { text, problem: problemBox(outcome.problem.detail, outcome.problem.resolution), status: outcome.problem.status });
    return reply.redirect('/admin/policies?done=saved', 303);
  });
}
