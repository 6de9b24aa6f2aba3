import { z } from 'zod';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';

type Form = Record<string, string>;

/**
 * What a console edit form was drawn from: the values it showed, the record's version token (ETag) when its read
 * tool hands one out, and when it was read. It travels in the form (hidden fields), so that a save sends only the
 * fields the person changed and makes the update conditional on the version they saw (docs/behaviour.md#no-lost-updates).
 *
 * Carried in the form rather than kept on the server: it is only what the page showed, no secret and no
 * authority (the person may send any patch their role allows anyway), and a form kept open in two tabs keeps two
 * honest baselines. Comparing against the record as it is at save time instead would count an agent's change
 * made meanwhile as the person's and send it back, which is the lost update this exists to prevent.
 */
export type Drawn = { values: Form; version?: string | undefined; readAt: string };

const DrawnShape = z.strictObject({
  values: z.record(z.string(), z.string()),
  readAt: z.iso.datetime(),
});

/** The hidden fields that carry what the form was drawn from. */
export function drawnFields(drawn: Drawn): Html {
  return html`<input type="hidden" name="_drawn" value="${JSON.stringify({ values: drawn.values, readAt: drawn.readAt })}">${
    drawn.version ? html`<input type="hidden" name="_version" value="${drawn.version}">` : ''}`;
}

/** What a posted form says it was drawn from, or undefined when it carries nothing readable (an old or forged form). */
export function drawnOf(body: Form): Drawn | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body._drawn ?? '');
  } catch {
    return undefined;
  }
  const drawn = DrawnShape.safeParse(parsed);
  if (!drawn.success) return undefined;
  const version = body._version && /^[\w-]{1,64}$/.test(body._version) ? body._version : undefined;
  return { ...drawn.data, version };
}

/**
 * The tool fields the person changed: those whose value, as the tool takes it (`toFields`), differs between the
 * posted form and the form as drawn. A field the tool cannot clear (left out when empty) counts only when it has
 * a value now.
 */
export function changedFields(body: Form, drawn: Drawn, toFields: (form: Form) => Record<string, unknown>): Record<string, unknown> {
  const now = toFields(body);
  const was = toFields(drawn.values);
  return Object.fromEntries(Object.entries(now).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify(was[name])));
}

/** The form fields whose value the person typed differs from the record's value now: what a conflict shows beside them. */
export function fieldsThatDiffer(typed: Form, current: Form): string[] {
  return Object.keys(current).filter((name) => (typed[name] ?? '').trim() !== (current[name] ?? '').trim());
}
