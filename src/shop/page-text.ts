import type { Layout, LeafSection, Section } from '../schema/layout.ts';

/**
 * A Visual Builder layout as the markdown-like text of page bodies, so site.get_page can show an agent what
 * /info/<slug> shows when a layout replaces the body (docs/behaviour.md#page-bodies-and-layouts): headings as "## ", links as [label](href),
 * images as ![alt](url), columns one after the other.
 */
export function layoutAsText(layout: Layout): string {
  return layout.sections.map(sectionText).filter((text) => text.length > 0).join('\n\n');
}

function sectionText(section: Section): string {
  if (section.type === 'columns') return section.columns.map(leafText).join('\n\n');
  return leafText(section);
}

function leafText(section: LeafSection): string {
  switch (section.type) {
    case 'hero':
      return [
        `## ${section.heading}`,
        section.subheading,
        section.image && `![${section.image.alt}](${section.image.url})`,
        section.cta && `[${section.cta.label}](${section.cta.href})`,
      ].filter((part) => part !== undefined).join('\n\n');
    case 'text':
      return section.heading === undefined ? section.body : `## ${section.heading}\n\n${section.body}`;
    case 'image':
      return [`![${section.alt}](${section.url})`, section.caption].filter((part) => part !== undefined).join('\n\n');
    case 'cta':
      return `[${section.label}](${section.href})`;
  }
}

/** A service offering as the text of its /services/<slug> page: lead, price, what is included, then the body. */
export function serviceAsText(offering: {
  shortDescription: string | null; priceString: string | null; heroImage: string | null; title: string; features: readonly string[]; body: string;
}): string {
  return [
    offering.shortDescription,
    offering.priceString,
    offering.heroImage === null ? null : `![${offering.title}](${offering.heroImage})`,
    offering.features.length === 0 ? null : `## Det får du\n\n${offering.features.map((feature) => `- ${feature}`).join('\n')}`,
    offering.body,
  ].filter((part) => part !== null && part.length > 0).join('\n\n');
}
