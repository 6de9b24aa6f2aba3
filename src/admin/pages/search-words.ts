import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope } from '../../access/actor.ts';
import { html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { callTool, formKey, idempotencyKeyOf, readTool, refusalOf } from '../call.ts';
import type { Refusal } from '../call.ts';
import { csrfField, noticeBox, problemBox, sendAdminPage } from '../document.ts';
import { keepsDraft, takeDraft } from '../drafts.ts';
import { keptOriginal, originalField, postedOriginal } from '../versioned-form.ts';
import { textArea } from '../fields.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';

type Vocabulary = { words: Record<string, string[]>; ignore: string[] };
type Form = Record<string, string>;

/** The vocabulary as the page's two text boxes show it: "english = dansk, dansk" per line, and ignored words per line. */
export function formOf(vocabulary: Vocabulary): Form {
  return {
    words: Object.entries(vocabulary.words).sort(([a], [b]) => a.localeCompare(b, 'da')).map(([word, catalog]) => `${word} = ${catalog.join(', ')}`).join('\n'),
    ignore: vocabulary.ignore.join('\n'),
  };
}

/**
 * The text boxes read back: a line without "=" or with nothing on one side is refused by its number, so a typo
 * never silently drops a word. What remains is checked by settings.update's schema (phrase length, characters).
 */
export function vocabularyOf(form: Form): { vocabulary: Vocabulary } | { line: number } {
  const words: Record<string, string[]> = {};
  const lines = (form.words ?? '').split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const [word, catalog, ...rest] = line.split('=');
    const means = (catalog ?? '').split(',').map((part) => part.trim()).filter(Boolean);
    if (rest.length > 0 || !word?.trim() || means.length === 0) return { line: index + 1 };
    words[word.trim().toLowerCase()] = means;
  }
  const ignore = (form.ignore ?? '').split(/[\r\n,]+/).map((word) => word.trim()).filter(Boolean);
  return { vocabulary: { words, ignore } };
}

/**
 * The shop's search vocabulary (settings.searchVocabulary, docs/behaviour.md#search-vocabulary): everyone reads it,
 * an owner (settings:write) changes it through settings.update. The form carries the vocabulary it was drawn from,
 * so a save over a change made meanwhile (by an agent, say) is refused with the current words instead of undoing it.
 */
export function searchWordsPages(app: FastifyInstance, deps: AppDeps): void {
  const w = t.searchWords;
  /**
   * baseline: the posted form whose baseline the form keeps (after a refusal, or a draft restored after sign-in), so
   * a change made meanwhile is still refused; without one (a fresh page, or after a conflict) it is the words now.
   */
  const page = async (request: FastifyRequest, reply: FastifyReply, who: SignedIn, options: { values?: Form; baseline?: Form; refusal?: Refusal; notice?: string; status?: number } = {}) => {
    const { searchVocabulary } = await readTool<{ searchVocabulary: Vocabulary }>(deps, request, who.actor, 'settings.get', {});
    const current = formOf(searchVocabulary);
    const original = keptOriginal(options.baseline, current);
    const values = options.values ?? current;
    const err = (name: string) => options.refusal?.fields.get(name);
    return sendAdminPage(reply, {
      title: w.title, current: 'settings', viewer: who.viewer,
      main: html`<h1>${w.title}</h1><p>${w.lead}</p>${options.notice ? noticeBox(options.notice) : ''}${options.refusal ? problemBox(options.refusal.detail, options.refusal.resolution) : ''}
<p>${w.count(Object.keys(searchVocabulary.words).length, searchVocabulary.ignore.length)}</p>
${hasScope(who.actor, 'settings:write') ? html`<form method="post" action="/admin/settings/search-words" class="panel">${csrfField(who.viewer)}<input type="hidden" name="_idem" value="${formKey()}">${originalField(original)}
${textArea({ name: 'words', label: w.words, value: values.words, error: err('words'), note: w.wordsHint })}
${textArea({ name: 'ignore', label: w.ignore, value: values.ignore, error: err('ignore'), note: w.ignoreHint })}
<button type="submit">${t.save}</button></form>`
    : html`<section class="panel"><h2>${w.words}</h2><pre>${current.words || '—'}</pre><h2>${w.ignore}</h2><pre>${current.ignore || '—'}</pre><p>${t.settings.readOnly}</p></section>`}
<p><a href="/admin/settings">${w.back}</a></p>`,
    }, options.status ?? (options.refusal ? 422 : 200));
  };

  app.get<{ Querystring: { done?: string } }>('/admin/settings/search-words', async (request, reply) => {
    const who = request.staff;
    const draft = takeDraft(request);
    if (draft) return page(request, reply, who, { values: draft.fields, baseline: draft.fields, notice: t.signIn.draftRestored });
    const notice = { saved: w.saved, unchanged: w.unchanged }[request.query.done ?? ''];
    return page(request, reply, who, notice ? { notice } : {});
  });

  app.post<{ Body: Form }>('/admin/settings/search-words', keepsDraft(), async (request, reply) => {
    const who = request.staff;
    const body = request.body;
    const parsed = vocabularyOf(body);
    if ('line' in parsed) {
      const message = w.badLine(parsed.line);
      return page(request, reply, who, { values: body, baseline: body, refusal: { detail: message, resolution: w.wordsHint, fields: new Map([['words', message]]) } });
    }
    const original = postedOriginal(body);
    const { searchVocabulary } = await readTool<{ searchVocabulary: Vocabulary }>(deps, request, who.actor, 'settings.get', {});
    const stored = formOf(searchVocabulary);
    const typed = formOf(parsed.vocabulary);
    if (typed.words === stored.words && typed.ignore === stored.ignore) return reply.redirect('/admin/settings/search-words?done=unchanged', 303);
    // The words changed since this form was drawn: saving would undo that change, so the person sees it first.
    if (!original || original.words !== stored.words || original.ignore !== stored.ignore) {
      return page(request, reply, who, { values: body, status: 409, refusal: { detail: w.conflict, resolution: w.conflictLead, fields: new Map() } });
    }
    const outcome = await callTool(deps, request, who.actor, 'settings.update', { searchVocabulary: parsed.vocabulary }, idempotencyKeyOf(body));
    if (outcome.ok) return reply.redirect('/admin/settings/search-words?done=saved', 303);
    const refusal = refusalOf(outcome.problem);
    // A word the schema refuses is named by its path (searchVocabulary.words.<word>): shown on the words box.
    const wordError = [...refusal.fields].find(([path]) => path.startsWith('searchVocabulary.words'));
    const ignoreError = [...refusal.fields].find(([path]) => path.startsWith('searchVocabulary.ignore'));
    const fields = new Map<string, string>();
    if (wordError) fields.set('words', `${wordError[0].replace('searchVocabulary.words.', '')}: ${wordError[1]}`);
    if (ignoreError) fields.set('ignore', ignoreError[1]);
    return page(request, reply, who, { values: body, baseline: body, refusal: { ...refusal, fields } });
  });
}
