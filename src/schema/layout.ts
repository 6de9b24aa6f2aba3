import { z } from 'zod';
import { URL_BREAKING_CHARACTERS } from './common.ts';

/**
 * The Visual Builder layout of a CMS page (docs/behaviour.md#page-bodies-and-layouts): a versioned,
 * bounded tree of sections. Every object is strict, so a misspelt field is a 400, not silently dropped.
 */

const MAX_SECTIONS = 50;

/** A link the public site may render: http(s), a same-site path, or mailto — never javascript: or data:. */
export function isSafeHref(value: string): boolean {
  return isHttpUrl(value) || isSitePath(value) || /^mailto:[^\s<>"'@]+@[^\s<>"']+$/i.test(value);
}

/**
 * The paths the public site serves (src/site/routes.ts, held together by test/site/site-paths.test.ts).
 * A layout link to any other path would be a dead link on a published page.
 */
export const SITE_PATHS = [
  '/', '/products', '/products/<slug>', '/categories/<slug>', '/info/<slug>', '/services', '/services/<slug>', '/docs',
] as const;

const SITE_PATH_PATTERNS = SITE_PATHS.map((path) =>
  new RegExp(`^${path.replace('<slug>', '[^/?#]+')}(?:[?#].*)?$`));

/** A same-site link that names a page the site can serve; query and fragment are free. */
export function isServedPath(value: string): boolean {
  return !isSitePath(value) || SITE_PATH_PATTERNS.some((pattern) => pattern.test(value));
}

/** An image source the public site may render: http(s) or a same-site path. */
export function isSafeImageSrc(value: string): boolean {
  return isHttpUrl(value) || isSitePath(value);
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || URL_BREAKING_CHARACTERS.test(value)) return false;
  return URL.canParse(value);
}

/** "/x" but not "//host" or "/\host", which browsers read as another site. */
function isSitePath(value: string): boolean {
  return /^\/(?![/\\])[^\s<>"'`\\]*$/.test(value);
}

const Href = z.string().min(1).max(2000).refine(isSafeHref, {
  message: 'must be an http(s) URL, a path starting with "/", or a mailto: address',
  abort: true,
}).refine(isServedPath, {
  message: `is not a path this site serves; site paths are ${SITE_PATHS.join(', ')}`,
}).meta({
  description: `Link target: http(s) URL, mailto:, or a site path (${SITE_PATHS.join(', ')}).`,
  examples: ['/services'],
});

const ImageUrl = z.string().min(1).max(2000).refine(isSafeImageSrc, {
  message: 'must be an http(s) URL or a path starting with "/"',
}).meta({ description: 'Image address: http(s) URL or site path starting with "/".' });

const Alt = z.string().min(1).max(300).meta({ description: 'Alternative text describing the image.' });
const Heading = z.string().min(1).max(200).meta({ description: 'Section heading, 1–200 characters.' });
const Label = z.string().min(1).max(80).meta({ description: 'Button text, 1–80 characters.', examples: ['Se vores ydelser'] });

const Cta = z.strictObject({ label: Label, href: Href }).meta({ description: 'A button under the hero text.' });

export const HeroSection = z.strictObject({
  type: z.literal('hero').meta({ description: 'hero: a large heading with optional subheading, image and button.' }),
  heading: Heading,
  subheading: z.string().min(1).max(500).optional().meta({ description: 'A lead sentence under the heading.' }),
  image: z.strictObject({ url: ImageUrl, alt: Alt }).optional().meta({ description: 'A picture beside the hero text.' }),
  cta: Cta.optional(),
});

export const TextSection = z.strictObject({
  type: z.literal('text').meta({ description: 'text: an optional heading and a body of paragraphs.' }),
  heading: Heading.optional(),
  body: z.string().min(1).max(20_000).meta({
    description: 'Markdown-like text: "## " starts a heading, blank lines separate paragraphs, "- " lines form a list.',
  }),
});

export const ImageSection = z.strictObject({
  type: z.literal('image').meta({ description: 'image: one picture with alt text and an optional caption.' }),
  url: ImageUrl,
  alt: Alt,
  caption: z.string().min(1).max(500).optional().meta({ description: 'Text shown under the picture.' }),
});

export const CtaSection = z.strictObject({
  type: z.literal('cta').meta({ description: 'cta: a button on its own line.' }),
  label: Label,
  href: Href,
  style: z.enum(['primary', 'secondary']).optional().meta({ description: 'primary (default, filled) or secondary (outlined).' }),
});

/** A section that may stand in a column: anything but another columns section. */
export const LeafSection = z.discriminatedUnion('type', [HeroSection, TextSection, ImageSection, CtaSection]);

export const ColumnsSection = z.strictObject({
  type: z.literal('columns').meta({ description: 'columns: two to four sections side by side.' }),
  columns: z.array(LeafSection).min(2).max(4).meta({ description: 'Two to four sections side by side; no nested columns.' }),
});

export const Section = z.discriminatedUnion('type', [HeroSection, TextSection, ImageSection, CtaSection, ColumnsSection]);

export const Layout = z.strictObject({
  version: z.literal(1).meta({ description: 'Always 1, the only layout version.' }),
  sections: z.array(Section).max(MAX_SECTIONS).meta({ description: `The sections from top to bottom, at most ${MAX_SECTIONS}.` }),
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
