import { z } from 'zod';
import { ToolError } from '../errors/tool-error.ts';
import { SlugRef, Timestamp, toIso } from '../schema/common.ts';
import { findPublishedPage, listPublishedPages, pageUrl } from '../shop/content.ts';
import { defineTool, readOnly } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';

const PageUrl = z.string().meta({ description: 'The public page, BASE_URL/info/<slug>.' });

/** CONTRACT §9, §11: anonymous reads of the published site content under scope pages:read. */
export const listSitePages = defineTool({
  name: 'site.list_pages',
  description: 'List the published content pages of the site (about, delivery, returns …) with their public URLs.',
  scope: 'pages:read',
  anonymous: true,
  annotations: readOnly('List site pages'),
  input: z.strictObject({}),
  output: z.array(z.strictObject({ slug: z.string(), title: z.string(), url: PageUrl, updatedAt: Timestamp })),
  async handler(_input, { db, baseUrl }) {
    const rows = await listPublishedPages(db);
    return rows.map((row) => ({ slug: row.slug, title: row.title, url: pageUrl(baseUrl, row.slug), updatedAt: toIso(row.updatedAt) }));
  },
});

export const getSitePage = defineTool({
  name: 'site.get_page',
  description: 'Read one published content page: title and markdown-like body ("## " headings, blank-line paragraphs).',
  scope: 'pages:read',
  anonymous: true,
  annotations: readOnly('Get site page'),
  input: z.strictObject({ slug: SlugRef.meta({ description: 'The page slug, as in /info/<slug>.', examples: ['levering'] }) }),
  output: z.strictObject({ slug: z.string(), title: z.string(), body: z.string(), url: PageUrl, updatedAt: Timestamp }),
  async handler({ slug }, { db, baseUrl }) {
    const page = await findPublishedPage(db, slug);
    // CONTRACT §11: a draft is as absent as a missing page.
    if (!page) throw new ToolError('not_found', `No published page with slug "${slug}"; site.list_pages shows them.`);
    return { slug: page.slug, title: page.title, body: page.body, url: pageUrl(baseUrl, page.slug), updatedAt: toIso(page.updatedAt) };
  },
});

export const siteTools: AnyTool[] = [listSitePages, getSitePage];
