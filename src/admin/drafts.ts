import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';

/**
 * What a person typed into a console form that arrived after their session ended, kept until they are signed
 * in again and shown back in the form, never sent on its own.
 *
 * Where it waits is a security choice. It goes back to the browser that typed it, as one hidden field of the
 * sign-in form, and only after sign-in moves into that person's session (a database row that ends with the
 * session). Kept server-side under a random id instead, every signed-out post (anyone's, a flood of them) would
 * write to the database, and whoever learned the id would read what was typed before proving who they are; in
 * the page, nothing is stored for an anonymous request, as for the sign-in form itself. Never a cookie: it would
 * ride along on every request and outlive the page. Passwords and the form's own tokens are never kept.
 */
export type Draft = { path: string; fields: Record<string, string> };

/** The console forms whose page fills itself from a draft: the POST and the GET of each share their path. */
const RESTORING_PAGES: readonly RegExp[] = [/^\/admin\/products\/new$/, /^\/admin\/products\/[a-z0-9-]+$/, /^\/admin\/settings$/];

/** Far above any console form a person types into; a bigger body is not kept rather than cut. */
const MAX_DRAFT_CHARS = 64 * 1024;

const DraftShape = z.strictObject({
  path: z.string().refine((path) => RESTORING_PAGES.some((pattern) => pattern.test(path))),
  fields: z.record(z.string(), z.string()),
});

function kept(name: string): boolean {
  return !name.startsWith('_') && !/password|current|confirm/i.test(name);
}

/** The draft of a form post, when its page can show one again; undefined for any other post. */
export function draftOf(request: FastifyRequest): Draft | undefined {
  const path = request.url.split('?')[0] ?? '';
  if (!RESTORING_PAGES.some((pattern) => pattern.test(path))) return undefined;
  const body = request.body;
  if (typeof body !== 'object' || body === null) return undefined;
  const fields = Object.fromEntries(Object.entries(body).filter(([name, value]) => kept(name) && typeof value === 'string'));
  const draft = { path, fields };
  return JSON.stringify(draft).length <= MAX_DRAFT_CHARS ? draft : undefined;
}

/** The hidden field of the sign-in form that carries the draft through the sign-in. */
export function draftField(draft: Draft | undefined): Html | string {
  return draft ? html`<input type="hidden" name="draft" value="${JSON.stringify(draft)}">` : '';
}

/** The draft a sign-in form sent back, if it is one (it came through the browser, so it is checked again). */
export function parseDraft(text: unknown): Draft | undefined {
  if (typeof text !== 'string' || text.length > MAX_DRAFT_CHARS) return undefined;
  try {
    const parsed = DraftShape.safeParse(JSON.parse(text));
    return parsed.success ? { path: parsed.data.path, fields: Object.fromEntries(Object.entries(parsed.data.fields).filter(([name]) => kept(name))) } : undefined;
  } catch {
    return undefined;
  }
}

/** The fields typed into the form at `path` before the session ended, once: showing them uses them up. */
export function takeDraft(request: FastifyRequest, path: string): Record<string, string> | undefined {
  const draft = request.session.draft;
  if (!draft || draft.path !== path) return undefined;
  request.session.draft = undefined;
  return draft.fields;
}
