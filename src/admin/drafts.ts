import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A console form post whose page shows what was typed again after a sign-in (keepsDraft). */
    draft?: { page: string | undefined };
  }
}

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
 *
 * path: the page the form is on, where sign-in leads back; action: the form's own path, which tells a page with
 * several forms (shipping's rate and promotion, a CMS page's details and layout) which one to fill.
 */
export type Draft = { path: string; action: string; fields: DraftFields };
export type DraftFields = Record<string, string | string[]>;

/**
 * The route options of a form post that keeps a draft. `page` is the path of the page the form is on, with the
 * route's parameters as `:name` (`/admin/orders/:id` for an order's status form); by default the form's own path,
 * where the page and its form share one.
 */
export function keepsDraft(page?: string): { config: { draft: { page: string | undefined } } } {
  return { config: { draft: { page } } };
}

/** Far above any console form a person types into; a bigger body is not kept rather than cut. */
const MAX_DRAFT_CHARS = 64 * 1024;

/** A console path as the console makes them: /admin and segments of URL-encoded text, none of them dots alone. */
const CONSOLE_PATH = /^\/admin(\/[\w%~-][\w%.~-]*)+$/;

const DraftShape = z.strictObject({
  path: z.string().regex(CONSOLE_PATH),
  action: z.string().regex(CONSOLE_PATH),
  fields: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
});

/**
 * The hidden fields a draft keeps: the baseline the form was drawn from (versioned-form.ts), so a
 * save after sign-in still finds a change someone made meanwhile. The CSRF token and the idempotency keys are not
 * kept (the form comes back with new ones), nor any password or a warning's confirmation.
 */
const BASELINE: ReadonlySet<string> = new Set(['_version', '_was', '_read']);

function kept(name: string): boolean {
  return name.startsWith('_') ? BASELINE.has(name) : !/password|current|confirm/i.test(name);
}

function keptFields(fields: Record<string, unknown>): DraftFields {
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string | string[]] => {
    const [name, value] = entry;
    return kept(name) && (typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string')));
  }));
}

/** The draft of a form post, when its route keeps one (keepsDraft); undefined for any other post. */
export function draftOf(request: FastifyRequest): Draft | undefined {
  const rule = request.routeOptions.config.draft;
  const body = request.body;
  if (!rule || typeof body !== 'object' || body === null) return undefined;
  const action = request.url.split('?')[0] ?? '';
  const params = request.params as Record<string, string>;
  const path = rule.page ? rule.page.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(params[name] ?? '')) : action;
  const draft = { path, action, fields: keptFields(body as Record<string, unknown>) };
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
    return parsed.success ? { ...parsed.data, fields: keptFields(parsed.data.fields) } : undefined;
  } catch {
    return undefined;
  }
}

/** A draft as its page fills a form from it: fields sent once, and lists (checkboxes of one name) apart. */
export type Restored = { action: string; fields: Record<string, string>; lists: Record<string, string[]> };

/**
 * The form typed on this page before the session ended, once: showing it uses it up. Its action says which of the
 * page's forms it belongs to.
 */
export function takeDraft(request: FastifyRequest): Restored | undefined {
  const draft = request.session.draft;
  if (!draft || draft.path !== (request.url.split('?')[0] ?? '')) return undefined;
  request.session.draft = undefined;
  const entries = Object.entries(draft.fields);
  return {
    action: draft.action,
    fields: Object.fromEntries(entries.filter((entry): entry is [string, string] => typeof entry[1] === 'string')),
    lists: Object.fromEntries(entries.filter((entry): entry is [string, string[]] => Array.isArray(entry[1]))),
  };
}
