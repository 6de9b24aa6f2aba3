import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { pages } from '../db/schema.ts';
import { Confirm, Id, Slug, Timestamp, toIso } from '../schema/common.ts';
import { Layout, readStoredLayout } from '../schema/layout.ts';
import { findPage } from '../shop/content.ts';
import { currentVersion } from '../shop/record-version.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';
import { requireVersion } from './version-check.ts';

const Status = z.enum(['draft', 'published']);
const PageSlug = Slug.meta({ description: 'The page slug; the page lives at /info/<slug>.', examples: ['om-os'] });

export const listPages = defineTool({
  name: 'pages.list',
  description: 'List every CMS page, drafts included, by slug.',
  scope: 'pages:read',
  annotations: readOnly('List pages'),
  input: z.strictObject({}).meta({ examples: [{}] }),
  output: z.array(z.strictObject({ id: Id, slug: z.string(), title: z.string(), status: Status, updatedAt: Timestamp })),
  async handler(_input, { db }) {
    const rows = await db.select({
      id: pages.id, slug: pages.slug, title: pages.title, status: pages.status, updatedAt: pages.updatedAt,
    }).from(pages).orderBy(asc(pages.slug));
    return rows.map((row) => ({ ...row, updatedAt: toIso(row.updatedAt) }));
  },
});

export const upsertPage = defineTool({
  name: 'pages.upsert',
  description: 'Create the page at /info/<slug>, or update its title and body. A new page is published unless '
    + 'status says draft; on an existing page an omitted status leaves it unchanged.',
  scope: 'pages:write',
  annotations: write('Create or update page', { idempotent: true }),
  input: z.strictObject({
    slug: PageSlug,
    title: z.string().min(2).max(200).meta({ description: 'Page title, at least 2 characters.' }),
    // No length cap of its own: the 1 MiB request limit is the only bound the pages need.
    body: z.string().min(10).meta({
      description: 'At least 10 characters of markdown-like text: "## " starts a heading, blank lines separate paragraphs. '
        + 'Any length that fits in the 1 MiB request.',
    }),
    status: Status.optional().meta({ description: 'draft or published; omitted: published for a new page, unchanged otherwise.' }),
  })
    .meta({ examples: [{ slug: 'levering', title: 'Levering', body: '## Levering\n\nVi sender med PostNord inden for 1–2 hverdage.', status: 'published' }] }),
  output: z.strictObject({ id: Id, slug: z.string(), title: z.string(), status: Status }),
  async handler({ slug, title, body, status }, ctx) {
    const [before] = await ctx.db.select().from(pages).where(eq(pages.slug, slug)).for('update');
    const now = ctx.clock();
    const changes = { title, body, updatedAt: now, ...(status !== undefined ? { status } : {}) };
    const [after] = before
      ? await ctx.db.update(pages).set(changes).where(eq(pages.id, before.id)).returning()
      // A concurrent create of the same slug turns into an update instead of a unique violation.
      : await ctx.db.insert(pages).values({ slug, title, body, status: status ?? 'published' })
        .onConflictDoUpdate({ target: pages.slug, set: changes }).returning();
    if (!after) throw new Error('page upsert returned no row');
    await ctx.audit({ targetType: 'page', targetId: after.id, before: before ?? null, after });
    return { id: after.id, slug: after.slug, title: after.title, status: after.status };
  },
});

export const deletePage = defineTool({
  name: 'pages.delete',
  description: 'Delete a page for good; /info/<slug> answers 404 at once. The audit entry keeps the whole page, '
    + 'so audit.revert can bring it back. Requires confirm: true.',
  scope: 'pages:write',
  annotations: write('Delete page', { idempotent: true, destructive: true }),
  input: z.strictObject({ slug: PageSlug, confirm: Confirm }).meta({ examples: [{ slug: 'levering', confirm: true }] }),
  output: z.strictObject({ ok: z.literal(true), slug: z.string() }),
  async handler({ slug }, ctx) {
    const before = await findPage(ctx.db, slug, { lock: true });
    await ctx.db.delete(pages).where(eq(pages.id, before.id));
    await ctx.audit({ targetType: 'page', targetId: before.id, before, after: null });
    return { ok: true as const, slug: before.slug };
  },
});

export const getPageLayout = defineTool({
  name: 'pages.get_layout',
  description: 'The Visual Builder layout of a page ({version: 1, sections: [...]}), or null when the page has none '
    + 'and renders from its body.',
  scope: 'pages:read',
  annotations: readOnly('Get page layout'),
  input: z.strictObject({ slug: PageSlug }).meta({ examples: [{ slug: 'om-os' }] }),
  output: Layout.nullable(),
  async handler({ slug }, { db }) {
    const page = await findPage(db, slug);
    return readStoredLayout(page.layout);
  },
  // The layout carries no id, so the slug asked for names the page.
  version: async (_layout, { db }, { slug }) => currentVersion(db, pages, (await findPage(db, slug)).id),
});

export const setPageLayout = defineTool({
  name: 'pages.set_layout',
  description: 'Store a Visual Builder layout for a page, or clear it with layout: null so the page renders from its '
    + 'body again. Sections: hero, text, image, cta and columns (2–4 non-columns sections); links must be http(s), '
    + 'a path starting with "/", or mailto:.',
  scope: 'pages:write',
  annotations: write('Set page layout', { idempotent: true }),
  input: z.strictObject({
    slug: PageSlug,
    layout: Layout.nullable().meta({ description: 'The section tree, or null to remove the layout.' }),
  })
    .meta({ examples: [{ slug: 'om-os', layout: { version: 1, sections: [{ type: 'hero', heading: 'Briller med omtanke', subheading: 'Siden 2012', cta: { label: 'Se vores ydelser', href: '/services' } }, { type: 'text', heading: 'Værkstedet', body: 'Vi tilpasser og reparerer alle stel.' }] } }, { slug: 'om-os', layout: null }] }),
  output: z.strictObject({ slug: z.string(), hasLayout: z.boolean() }),
  async handler({ slug, layout }, ctx) {
    const before = await findPage(ctx.db, slug, { lock: true });
    await requireVersion(ctx, {
      table: pages, id: before.id, readTool: 'pages.get_layout', current: () => getPageLayout.handler({ slug: before.slug }, ctx),
    });
    const [after] = await ctx.db.update(pages).set({ layout, updatedAt: ctx.clock() })
      .where(eq(pages.id, before.id)).returning();
    await ctx.audit({ targetType: 'page', targetId: before.id, before, after });
    return { slug: before.slug, hasLayout: layout !== null };
  },
  version: async (_result, { db }, { slug }) => currentVersion(db, pages, (await findPage(db, slug)).id),
});

export const pageTools: AnyTool[] = [listPages, upsertPage, deletePage, getPageLayout, setPageLayout];
