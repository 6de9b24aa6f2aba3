import { escapeHtml } from './escape.ts';
import { isSafeHref, isSafeImageSrc } from '../../schema/layout.ts';

/** Markup that is already safe: produced by the `html` template below, never by concatenating user text. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Part = Html | string | number | null | undefined | false | readonly Part[];


function renderPart(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(renderPart).join('');
  return escapeHtml(String(part));
}

/**
 * Tagged template for markup: every interpolated value is escaped unless it is itself Html, so user content
 * (titles, bodies, every field) can never open a tag or an attribute.
 */
export function html(strings: TemplateStringsArray, ...values: readonly Part[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += renderPart(value) + (strings[index + 1] ?? '');
  });
  return new Html(out);
}

/** A link target fit for href, or undefined: only http(s), site paths and mailto: survive. */
export function safeHref(url: string | null | undefined): string | undefined {
  return url && isSafeHref(url) ? url : undefined;
}

/** An image address fit for src, or undefined: only http(s) and site paths survive. */
export function safeSrc(url: string | null | undefined): string | undefined {
  return url && isSafeImageSrc(url) ? url : undefined;
}

/** An anchor when the target is safe; the label alone (escaped) when it is not. */
export function link(href: string | null | undefined, label: Part, attributes: { class?: string; current?: boolean } = {}): Html {
  const target = safeHref(href);
  if (!target) return html`<span${attributes.class ? html` class="${attributes.class}"` : ''}>${label}</span>`;
  return html`<a href="${target}"${attributes.class ? html` class="${attributes.class}"` : ''}${attributes.current ? html` aria-current="page"` : ''}>${label}</a>`;
}

/** The parts one after another with `separator` between them (a newline between table rows, ", " in a list). */
export function join(parts: readonly Part[], separator: Part): Html {
  return html`${parts.map((part, index) => (index === 0 ? html`${part}` : html`${separator}${part}`))}`;
}
