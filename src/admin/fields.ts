import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';

export type FieldOptions = {
  name: string;
  label: string;
  value?: string | number | null | undefined;
  /** The refusal's message for this field, shown under it and tied to it for screen readers. */
  error?: string | undefined;
  type?: 'text' | 'number' | 'date' | 'url' | 'email' | 'password';
  required?: boolean;
  /** A line under the field that tells what to type or what the value is now (after a conflict), tied to it for screen readers. */
  note?: string | undefined;
  /** The keyboard a phone shows: "decimal" for an amount, typed as text so "1.249,00" reaches the server as typed. */
  inputMode?: 'decimal';
};

/** The ids a field's input is described by: its error and its note, when it has them. */
function describedBy(id: string, options: Pick<FieldOptions, 'error' | 'note'>): Html | string {
  const ids = [options.error ? `${id}-error` : '', options.note ? `${id}-note` : ''].filter(Boolean).join(' ');
  return ids ? html` aria-describedby="${ids}"` : '';
}

function below(id: string, options: Pick<FieldOptions, 'error' | 'note'>): Html {
  return html`${options.note ? html`<p class="hint" id="${id}-note">${options.note}</p>` : ''}${options.error ? html`<p class="error" id="${id}-error">${options.error}</p>` : ''}`;
}

/** A labelled input with its error under it; the value the person typed stays in it. */
export function field(options: FieldOptions): Html {
  const id = `field-${options.name}`;
  return html`<div class="field"><label for="${id}">${options.label}</label><input id="${id}" name="${options.name}" type="${options.type ?? 'text'}"${options.type === 'number' ? html` inputmode="numeric"` : options.inputMode ? html` inputmode="${options.inputMode}"` : ''} value="${options.value ?? ''}"${options.required ? html` required` : ''}${options.error ? html` aria-invalid="true"` : ''}${describedBy(id, options)}>${below(id, options)}</div>`;
}

export function textArea(options: Omit<FieldOptions, 'type'>): Html {
  const id = `field-${options.name}`;
  return html`<div class="field"><label for="${id}">${options.label}</label><textarea id="${id}" name="${options.name}"${options.required ? html` required` : ''}${options.error ? html` aria-invalid="true"` : ''}${describedBy(id, options)}>${options.value ?? ''}</textarea>${below(id, options)}</div>`;
}

/** A form field's text, or undefined when it was left empty. */
export function filled(body: Record<string, string | undefined>, name: string): string | undefined {
  const value = body[name]?.trim();
  return value ? value : undefined;
}

/** A whole number typed into a form; text that is not one is passed on as typed, for the tool to refuse by name. */
export function wholeNumber(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  return /^-?\d+$/.test(text) ? Number(text) : text;
}

export type SelectOptions = Omit<FieldOptions, 'type' | 'value'> & { value?: string | undefined; options: ReadonlyArray<{ value: string; label: string }> };

/** A labelled choice from a fixed list, with its error under it; the choice the person made stays selected. */
export function select(options: SelectOptions): Html {
  const id = `field-${options.name}`;
  return html`<div class="field"><label for="${id}">${options.label}</label><select id="${id}" name="${options.name}"${options.required ? html` required` : ''}${options.error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>${options.options.map((option) =>
    html`<option value="${option.value}"${option.value === options.value ? html` selected` : ''}>${option.label}</option>`)}</select>${options.error ? html`<p class="error" id="${id}-error">${options.error}</p>` : ''}</div>`;
}

/** A labelled checkbox; a form sends "on" for a ticked one and nothing for the others. */
export function checkbox(options: { name: string; label: string; checked: boolean }): Html {
  return html`<div class="field"><label><input type="checkbox" id="field-${options.name}" name="${options.name}"${options.checked ? html` checked` : ''}> ${options.label}</label></div>`;
}

/** Text typed one item per line, blank lines left out. */
export function lines(text: string | undefined): string[] {
  return (text ?? '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
}
