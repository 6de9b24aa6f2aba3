import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import { formKey } from './call.ts';
import type { Refusal } from './call.ts';
import { csrfField } from './document.ts';
import type { Viewer } from './document.ts';
import { field, select, textArea } from './fields.ts';
import { COLUMN_TYPES, SECTION_TYPES } from './layout-form.ts';
import type { FormNode } from './layout-form.ts';
import { t } from './strings.ts';

const p = t.pages;

function text(node: FormNode, name: string): string {
  const value = node[name];
  return typeof value === 'string' ? value : '';
}

function child(node: FormNode, name: string): FormNode {
  const value = node[name];
  return typeof value === 'object' && !Array.isArray(value) ? value : {};
}

type Ctx = { refusal: Refusal | undefined };

/** The inputs of one non-columns section, named by its path ("layout.sections.0") so refusals find them. */
function leafFields(node: FormNode, path: string, ctx: Ctx): Html {
  const err = (name: string) => ctx.refusal?.fields.get(`${path}.${name}`);
  // Links and images may be site paths ("/services"), which a browser's url input would refuse: plain text, checked by the tool.
  const input = (name: string, label: string) =>
    field({ name: `${path}.${name}`, label, value: name.includes('.') ? text(child(node, name.split('.')[0] ?? ''), name.split('.')[1] ?? '') : text(node, name), error: err(name) });
  switch (text(node, 'type')) {
    case 'hero':
      return html`${input('heading', p.heading)}${input('subheading', p.subheading)}${input('image.url', p.imageUrl)}${input('image.alt', p.alt)}${input('cta.label', p.ctaLabel)}${input('cta.href', p.ctaHref)}${err('image') ? html`<p class="error">${err('image')}</p>` : ''}${err('cta') ? html`<p class="error">${err('cta')}</p>` : ''}`;
    case 'text':
      return html`${input('heading', p.heading)}${textArea({ name: `${path}.body`, label: p.text, value: text(node, 'body'), error: err('body') })}`;
    case 'image':
      return html`${input('url', p.imageUrl)}${input('alt', p.alt)}${input('caption', p.caption)}`;
    case 'cta':
      return html`${input('label', p.ctaLabel)}${input('href', p.ctaHref)}${select({ name: `${path}.style`, label: p.style, value: text(node, 'style'), error: err('style'), options: [{ value: 'primary', label: p.primary }, { value: 'secondary', label: p.secondary }] })}`;
    default:
      return html``;
  }
}

/** Move up, move down and remove for the item at index of a list of length; each names its item for screen readers. */
function itemButtons(list: string, index: number, length: number, name: string): Html {
  const button = (op: string, label: string) =>
    html`<button class="secondary" type="submit" name="op" value="${op}:${list}.${index}">${label}<span class="skip-link"> ${name}</span></button>`;
  return html`<p class="actions">${index > 0 ? button('up', p.moveUp) : ''}${index < length - 1 ? button('down', p.moveDown) : ''}${button('remove', p.remove)}</p>`;
}

function addControl(list: string, types: readonly string[], label: string, typeLabel: string): Html {
  const name = `new:${list}`;
  return html`<div class="add">${select({ name, label: typeLabel, options: types.map((type) => ({ value: type, label: p.types[type as keyof typeof p.types] })) })}<button class="secondary" type="submit" name="op" value="add:${list}">${label}</button></div>`;
}

function sectionView(node: FormNode, index: number, count: number, ctx: Ctx): Html {
  const path = `layout.sections.${index}`;
  const type = text(node, 'type');
  const name = p.section(index + 1, p.types[type as keyof typeof p.types] ?? type);
  const columns = Array.isArray(node.columns) ? node.columns : [];
  const columnsError = ctx.refusal?.fields.get(`${path}.columns`);
  const body = type === 'columns'
    ? html`${columnsError ? html`<p class="error">${columnsError}</p>` : ''}${columns.map((column, at) => {
      const columnType = text(column, 'type');
      const columnName = `${name}, ${p.column(at + 1, p.types[columnType as keyof typeof p.types] ?? columnType)}`;
      return html`<fieldset class="column-edit"><legend>${p.column(at + 1, p.types[columnType as keyof typeof p.types] ?? columnType)}</legend>
<input type="hidden" name="${path}.columns.${at}.type" value="${columnType}">${leafFields(column, `${path}.columns.${at}`, ctx)}${itemButtons(`sections.${index}.columns`, at, columns.length, columnName)}</fieldset>`;
    })}${addControl(`sections.${index}.columns`, COLUMN_TYPES, p.addColumn, p.columnType)}`
    : leafFields(node, path, ctx);
  return html`<fieldset class="section-edit"><legend>${name}</legend><input type="hidden" name="${path}.type" value="${type}">
${body}${itemButtons('sections', index, count, name)}</fieldset>`;
}

/**
 * The whole layout editor. Its first button saves, so Enter in any field saves rather than moving a section;
 * removing the layout is a form of its own. An empty layout is never saved: it would show a page without content.
 * hidden: the version token and the layout the editor was opened with (versioned-form.ts), in both forms.
 */
export function layoutEditor(viewer: Viewer, options: { action: string; sections: FormNode[]; refusal?: Refusal; unsaved: boolean; stored: boolean; hidden: Html }): Html {
  const ctx: Ctx = { refusal: options.refusal };
  const { sections } = options;
  return html`<section class="panel" aria-labelledby="layout-title"><h2 id="layout-title">${p.layoutTitle}</h2><p>${p.layoutLead}</p>
${options.unsaved ? html`<p class="notice" role="status">${p.unsaved}</p>` : ''}${options.stored || sections.length > 0 ? '' : html`<p>${p.layoutNone}</p>`}
<form method="post" action="${options.action}">${csrfField(viewer)}<input type="hidden" name="_idem" value="${formKey()}">${options.hidden}
${sections.length > 0 ? html`<p><button type="submit" name="op" value="save">${p.saveLayout}</button></p>` : ''}
${sections.map((section, index) => sectionView(section, index, sections.length, ctx))}
${addControl('sections', SECTION_TYPES, p.addSection, p.sectionType)}
${sections.length > 0 ? html`<p><button type="submit" name="op" value="save">${p.saveLayout}</button></p>` : ''}</form>
${options.stored ? html`<form method="post" action="${options.action}">${csrfField(viewer)}<input type="hidden" name="_idem" value="${formKey()}">${options.hidden}<button class="secondary" type="submit" name="op" value="clear">${p.clearLayout}</button></form>` : ''}
</section>`;
}
