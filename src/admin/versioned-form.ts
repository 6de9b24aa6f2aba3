import { z } from 'zod';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';

type Form = Record<string, string>;

/** A version token as record-version.ts makes it: 22 base64url characters. */
const VERSION = /^[A-Za-z0-9_-]{22}$/;
const Original = z.record(z.string(), z.string());
const ReadAt = z.iso.datetime();

/**
 * The hidden fields of an edit form (docs/behaviour.md#no-lost-updates): the version token of the record the form
 * was rendered from, sent back as If-Match, and the values the form was rendered with.
 *
 * Why carry the values rather than read the record again when the form comes back: the token is a digest, so the
 * record it names cannot be read back once anything changed, and that is exactly when it matters. Comparing with
 * the record as it is now would put every field someone else changed in the meantime into the person's patch (and
 * then into a conflict the person did not cause), while the values carried here say exactly what the person
 * changed. They are no more trusted than the rest of the form: the token still guards the write.
 */
export function versionFields(version: string, rendered: Form): Html {
  return html`${versionField(version)}${originalField(rendered)}`;
}

/** The values a form was rendered with alone, for a form whose tool hands out no version token (categories, page details). */
export function originalField(rendered: Form): Html {
  return html`<input type="hidden" name="_was" value="${JSON.stringify(rendered)}">`;
}

/** The hidden field of a form that changes a record without editing its fields (a status move, a switch, a layout). */
export function versionField(version: string): Html {
  return html`<input type="hidden" name="_version" value="${version}">`;
}

/**
 * When the form's record was read, for a form whose conflict page lists what changed since (the product form: the
 * audit entries after this time). Like the values, it only narrows what the page shows; the token guards the write.
 */
export function readAtField(readAt: string): Html {
  return html`<input type="hidden" name="_read" value="${readAt}">`;
}

/** The read time a form carried, when it carried a readable one. */
export function postedReadAt(body: Form): string | undefined {
  const parsed = ReadAt.safeParse(body._read);
  return parsed.success ? parsed.data : undefined;
}

/** The version token a form carried, when it carried one. */
export function postedVersion(body: Form): string | undefined {
  const version = body._version;
  return version !== undefined && VERSION.test(version) ? version : undefined;
}

/** The values the form was rendered with, or undefined when it carried none (then everything counts as changed). */
export function postedOriginal(body: Form): Form | undefined {
  try {
    const parsed = Original.safeParse(JSON.parse(body._was ?? ''));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The members of `typed` whose value differs from `rendered`, both in the tool's terms (øre, lists, booleans), so
 * a difference only in how a value was typed is no change: browsers send a textarea's line breaks as CRLF.
 */
export function changedOnly(typed: Record<string, unknown>, rendered: Record<string, unknown> | undefined): Record<string, unknown> {
  if (rendered === undefined) return typed;
  return Object.fromEntries(Object.entries(typed).filter(([name, value]) => comparable(value) !== comparable(rendered[name])));
}

function comparable(value: unknown): string | undefined {
  return JSON.stringify(value)?.replaceAll('\\r\\n', '\\n');
}

/**
 * The version token a form drawn again carries: the one the person's posted form carried (after a refusal, or a
 * draft restored after sign-in), so a change made meanwhile is still found; else the record's token now.
 */
export function keptVersion(posted: Form | undefined, now: string): string {
  return (posted && postedVersion(posted)) ?? now;
}

/** The values a form drawn again was rendered with, by the same rule as keptVersion. */
export function keptOriginal(posted: Form | undefined, now: Form): Form {
  return (posted && postedOriginal(posted)) ?? now;
}

/** The form fields whose value the person typed differs from the record's value now: what a conflict shows beside them. */
export function fieldsThatDiffer(typed: Form, current: Form): string[] {
  return Object.keys(current).filter((name) => (typed[name] ?? '').trim() !== (current[name] ?? '').trim());
}
