import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';

export type HeadingLevel = 2 | 3 | 4;

/**
 * A page body (docs/behaviour.md#page-bodies-and-layouts) is simple markdown-like text — "##" headings and paragraphs separated by blank lines.
 * Also understood: "###" as a subheading and blocks whose every line starts with "- " as a list.
 * Nothing in the text is ever markup: all of it is escaped.
 */
export function renderBodyText(text: string, level: HeadingLevel = 2): Html {
  const blocks = text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/).map((block) => block.trim()).filter(Boolean);
  return html`${blocks.map((block) => renderBlock(block, level))}`;
}

function renderBlock(block: string, level: HeadingLevel): Html {
  const [first = '', ...rest] = block.split('\n');
  const heading = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(first);
  if (heading) {
    const depth = (heading[1] ?? '').length >= 3 ? Math.min(level + 1, 4) : level;
    const title = headingTag(depth, heading[2] ?? '');
    return rest.length > 0 ? html`${title}${renderBlock(rest.join('\n').trim(), level)}` : title;
  }
  const lines = block.split('\n').map((line) => line.trim());
  if (lines.every((line) => /^[-*]\s+/.test(line))) {
    return html`<ul>${lines.map((line) => html`<li>${line.replace(/^[-*]\s+/, '')}</li>`)}</ul>`;
  }
  return html`<p>${lines.map((line, index) => (index === 0 ? line : html`<br>${line}`))}</p>`;
}

export function headingTag(level: number, text: string): Html {
  switch (level) {
    case 1: return html`<h1>${text}</h1>`;
    case 2: return html`<h2>${text}</h2>`;
    case 3: return html`<h3>${text}</h3>`;
    default: return html`<h4>${text}</h4>`;
  }
}
