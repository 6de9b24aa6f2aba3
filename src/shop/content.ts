import { and, asc, eq } from 'drizzle-orm';
import { pages, services } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { Queryable } from '../db/client.ts';

export type PageRow = typeof pages.$inferSelect;
export type ServiceRow = typeof services.$inferSelect;
export type ContentStatus = PageRow['status'];

/** A page is published at /info/<slug>. */
export const pageUrl = (baseUrl: string, slug: string): string => `${baseUrl}/info/${slug}`;
/** Offerings are shown under /services. */
export const serviceUrl = (baseUrl: string, slug: string): string => `${baseUrl}/services/${slug}`;

export async function findPage(db: Queryable, slug: string, options: { lock?: boolean } = {}): Promise<PageRow> {
  const query = db.select().from(pages).where(eq(pages.slug, slug));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) throw new ToolError('not_found', `No page with slug "${slug}"; pages.list shows the existing ones.`);
  return row;
}

export async function findService(db: Queryable, slug: string, options: { lock?: boolean } = {}): Promise<ServiceRow> {
  const query = db.select().from(services).where(eq(services.slug, slug));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) throw new ToolError('not_found', `No service offering with slug "${slug}"; services.list shows the existing ones.`);
  return row;
}

/** The published page with this slug; drafts are as invisible as missing pages (docs/behaviour.md#public-pages). */
export async function findPublishedPage(db: Queryable, slug: string): Promise<PageRow | undefined> {
  const [row] = await db.select().from(pages).where(and(eq(pages.slug, slug), eq(pages.status, 'published')));
  return row;
}

export async function listPublishedPages(db: Queryable): Promise<PageRow[]> {
  return db.select().from(pages).where(eq(pages.status, 'published')).orderBy(asc(pages.title), asc(pages.slug));
}

/** The /services listing is by navOrder ascending; ties by title so the order is stable. */
export async function listServices(db: Queryable, status?: ContentStatus): Promise<ServiceRow[]> {
  return db.select().from(services)
    .where(status ? eq(services.status, status) : undefined)
    .orderBy(asc(services.navOrder), asc(services.title), asc(services.id));
}

export async function findPublishedService(db: Queryable, slug: string): Promise<ServiceRow | undefined> {
  const [row] = await db.select().from(services).where(and(eq(services.slug, slug), eq(services.status, 'published')));
  return row;
}
