import { z } from 'zod';
import { ToolError } from '../errors/tool-error.ts';
import { SlugRef, Timestamp, toIso } from '../schema/common.ts';
import { readStoredLayout } from '../schema/layout.ts';
import {
  findPublishedPage, findPublishedService, listPublishedPages, listServices, pageUrl, serviceUrl,
} from '../shop/content.ts';
import type { PageRow, ServiceRow } from '../shop/content.ts';
import { isFeatureEnabled } from '../shop/features.ts';
import { layoutAsText, serviceAsText } from '../shop/page-text.ts';
import type { Queryable } from '../db/client.ts';
import { defineTool, readOnly } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';

const PageUrl = z.string().meta({ description: 'The public address: BASE_URL/info/<slug> for a page, BASE_URL/services/<slug> for a service.' });

/**
 * Service offerings are read through the same anonymous tools as pages (the anonymous set stays five tools,
 * and site.list_pages stays the published pages, docs/behaviour.md#tools-named-by-scope): "services" is the listing,
 * "services/<slug>" one offering.
 */
const SERVICES = 'services';
const SERVICE_PREFIX = `${SERVICES}/`;

/** docs/behaviour.md#tools-named-by-scope: anonymous reads of the published site content under scope pages:read. */
export const listSitePages = defineTool({
  name: 'site.list_pages',
  description: 'List the published content pages of the site (about, delivery, returns …) with their public URLs. '
    + 'Service offerings are not pages: site.get_page with slug "services" lists them, "services/<slug>" reads one.',
  scope: 'pages:read',
  anonymous: true,
  annotations: readOnly('List site pages'),
  input: z.strictObject({}).meta({ examples: [{}] }),
  output: z.array(z.strictObject({ slug: z.string(), title: z.string(), url: PageUrl, updatedAt: Timestamp })),
  async handler(_input, { db, baseUrl }) {
    const rows = await listPublishedPages(db);
    return rows.map((row) => ({ slug: row.slug, title: row.title, url: pageUrl(baseUrl, row.slug), updatedAt: toIso(row.updatedAt) }));
  },
});

export const getSitePage = defineTool({
  name: 'site.get_page',
  description: 'Read one published page as the site shows it: title and markdown-like body ("## " headings, blank-line '
    + 'paragraphs, [label](href) links, ![alt](src) images). When the page has a Visual Builder layout, the body is that '
    + 'layout as text, since the layout is what /info/<slug> renders. Slug "services" gives the /services listing of '
    + 'service offerings (unless a page is called so), "services/<slug>" one offering as /services/<slug> shows it.',
  scope: 'pages:read',
  anonymous: true,
  annotations: readOnly('Get site page'),
  input: z.strictObject({
    slug: SlugRef.meta({
      description: 'A page slug from site.list_pages (as in /info/<slug>), "services", or "services/<slug>".',
      examples: ['levering'],
    }),
  }).meta({ examples: [{ slug: 'levering' }, { slug: 'services' }] }),
  output: z.strictObject({ slug: z.string(), title: z.string(), body: z.string(), url: PageUrl, updatedAt: Timestamp }),
  async handler({ slug }, { db, baseUrl }) {
    if (slug.startsWith(SERVICE_PREFIX)) {
      const offering = await findListedService(db, slug.slice(SERVICE_PREFIX.length));
      if (!offering) throw new ToolError('not_found', `No published service "${slug}"; site.get_page with slug "${SERVICES}" lists them.`);
      return { slug, title: offering.title, body: serviceAsText(offering), url: serviceUrl(baseUrl, offering.slug), updatedAt: toIso(offering.updatedAt) };
    }
    const page = await findPublishedPage(db, slug);
    if (!page && slug === SERVICES) return servicesListing(db, baseUrl);
    // A draft is as absent as a missing page.
    if (!page) throw new ToolError('not_found', `No published page with slug "${slug}"; site.list_pages shows them.`);
    return { slug: page.slug, title: page.title, body: shownBody(page), url: pageUrl(baseUrl, page.slug), updatedAt: toIso(page.updatedAt) };
  },
});

function shownBody(page: PageRow): string {
  const layout = readStoredLayout(page.layout);
  return layout ? layoutAsText(layout) : page.body;
}

async function servicesListing(db: Queryable, baseUrl: string) {
  const offerings = await listedServices(db);
  if (offerings.length === 0) throw new ToolError('not_found', 'The site lists no service offerings right now.');
  const lines = offerings.map((offering) => `- [${offering.title}](/services/${offering.slug})`
    + `${offering.shortDescription ? `: ${offering.shortDescription}` : ''}${offering.priceString ? ` (${offering.priceString})` : ''}`
    + ` — site.get_page slug "${SERVICE_PREFIX}${offering.slug}"`);
  const updatedAt = new Date(Math.max(...offerings.map((offering) => offering.updatedAt.getTime())));
  return { slug: SERVICES, title: 'Ydelser', body: lines.join('\n'), url: `${baseUrl}/services`, updatedAt: toIso(updatedAt) };
}

/** /services answers 404 while the listing is switched off; the tools see what the site shows. */
async function listedServices(db: Queryable): Promise<ServiceRow[]> {
  return await isFeatureEnabled(db, 'services_listing') ? listServices(db, 'published') : [];
}

async function findListedService(db: Queryable, slug: string): Promise<ServiceRow | undefined> {
  return await isFeatureEnabled(db, 'services_listing') ? findPublishedService(db, slug) : undefined;
}

export const siteTools: AnyTool[] = [listSitePages, getSitePage];
