import { z } from 'zod';

/**
 * The Visual Builder layout of a CMS page (SPEC §2.5 leaves its structure to the service): a versioned,
 * bounded tree of sections. Every object is strict, so a misspelt field is a 400, not silently dropped.
 */

const MAX_SECTIONS = 50;

/** A link the public site may render: http(s), a same-site path, or mailto — never javascript: or data:. */
export function isSafeHref(value: string): boolean {
  return isHttpUrl(value) || isSitePath(value) || /^mailto:[^\s<>"'@]+@[^\s<>"']+$/i.test(value);
}

/** An image source the public site may render: http(s) or a same-site path. */
export function isSafeImageSrc(value: string): boolean {
  return isHttpUrl(value) || isSitePath(value);
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || /[\s<>"'`\\]/.test(value)) return false;
  return URL.canParse(value);
}

/** "/x" but not "//host" or "/\host", which browsers read as another site. */
function isSitePath(value: string): boolean {
  return /^\/(?![/\\])[^\s<>"'`\\]*$/.test(value);
}

const Href = z.string().min(1).max(2000).refine(isSafeHref, {
  message: 'must be an http(s) URL, a path starting with "/", or a mailto: address',
}).meta({ description: 'Link target: http(s) URL, site path starting with "/", or mailto:.', examples: ['/services'] });

const ImageUrl = z.string().min(1).max(2000).refine(isSafeImageSrc, {
  message: 'must be an http(s) URL or a path starting with "/"',
}).meta({ description: 'Image address: http(s) URL or site path starting with "/".' });

const Alt = z.string().min(1).max(300).meta({ description: 'Alternative text describing the image.' });
const Heading = z.string().min(1).max(200);

const Cta = z.strictObject({ label: z.string().min(1).max(80), href: Href });

export const HeroSection = z.strictObject({
  type: z.literal('hero'),
  heading: Heading,
  subheading: z.string().min(1).max(500).optional(),
  image: z.strictObject({ url: ImageUrl, alt: Alt }).optional(),
  cta: Cta.optional(),
});

export const TextSection = z.strictObject({
  type: z.literal('text'),
  heading: Heading.optional(),
  body: z.string().min(1).max(20_000).meta({
    description: 'Markdown-like text: "## " starts a heading, blank lines separate paragraphs, "- " lines form a list.',
  }),
});

export const ImageSection = z.strictObject({
  type: z.literal('image'),
  url: ImageUrl,
  alt: Alt,
  caption: z.string().min(1).max(500).optional(),
});

export const CtaSection = z.strictObject({
  type: z.literal('cta'),
  label: z.string().min(1).max(80),
  href: Href,
  style: z.enum(['primary', 'secondary']).optional(),
});

/** A section that may stand in a column: anything but another columns section. */
export const LeafSection = z.discriminatedUnion('type', [HeroSection, TextSection, ImageSection, CtaSection]);

export const ColumnsSection = z.strictObject({
  type: z.literal('columns'),
  columns: z.array(LeafSection).min(2).max(4).meta({ description: 'Two to four sections side by side; no nested columns.' }),
});

export const Section = z.discriminatedUnion('type', [HeroSection, TextSection, ImageSection, CtaSection, ColumnsSection]);

export const Layout = z.strictObject({
  version: z.literal(1),
  sections: z.array(Section).max(MAX_SECTIONS),
}).meta({ description: `Visual Builder layout: version 1 and up to ${MAX_SECTIONS} sections.` });

export type LeafSection = z.infer<typeof LeafSection>;
export type Section = z.infer<typeof Section>;
export type Layout = z.infer<typeof Layout>;

/** A stored layout, or null when the page has none (or holds one this version cannot read). */
export function readStoredLayout(stored: unknown): Layout | null {
  if (stored === null || stored === undefined) return null;
  const parsed = Layout.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
