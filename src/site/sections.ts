import type { Layout, LeafSection, Section } from '../schema/layout.ts';
import { html, link, safeSrc } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import { headingTag, renderBodyText } from './markup.ts';

/**
 * A Visual Builder layout as HTML. When the first section is a hero its heading is the page's one h1;
 * otherwise the caller's h1 (the page title) comes first and every section heading is an h2, so the
 * outline never skips a level.
 */
export function renderLayout(layout: Layout, title: string): Html {
  const [first] = layout.sections;
  const heroFirst = first?.type === 'hero';
  return html`${heroFirst ? '' : headingTag(1, title)}${layout.sections.map((section, index) =>
    renderSection(section, index === 0 && heroFirst ? 1 : 2))}`;
}

function renderSection(section: Section, level: 1 | 2): Html {
  if (section.type === 'columns') {
    return html`<div class="columns columns-${section.columns.length}">${section.columns.map((column) =>
      html`<div class="column">${renderLeaf(column, 2)}</div>`)}</div>`;
  }
  return renderLeaf(section, level);
}

function renderLeaf(section: LeafSection, level: 1 | 2): Html {
  switch (section.type) {
    case 'hero': {
      const image = section.image && safeSrc(section.image.url);
      return html`<section class="hero">${image && section.image
        ? html`<img class="hero-image" src="${image}" alt="${section.image.alt}">`
        : ''}<div class="hero-text">${headingTag(level, section.heading)}${section.subheading
        ? html`<p class="lead">${section.subheading}</p>`
        : ''}${section.cta ? html`<p>${link(section.cta.href, section.cta.label, { class: 'button button-primary' })}</p>` : ''}</div></section>`;
    }
    case 'text':
      return html`<section class="text">${section.heading ? headingTag(2, section.heading) : ''}${renderBodyText(section.body, section.heading ? 3 : 2)}</section>`;
    case 'image': {
      const src = safeSrc(section.url);
      if (!src) return html``;
      return html`<figure class="figure"><img src="${src}" alt="${section.alt}" loading="lazy">${section.caption
        ? html`<figcaption>${section.caption}</figcaption>`
        : ''}</figure>`;
    }
    case 'cta':
      return html`<p class="cta">${link(section.href, section.label, { class: `button button-${section.style ?? 'primary'}` })}</p>`;
  }
}
