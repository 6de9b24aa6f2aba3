import { and, desc, eq, gt, isNull, lte, ne, or } from 'drizzle-orm';
import { announcements } from '../db/schema.ts';
import type { Queryable } from '../db/client.ts';

export type AnnouncementRow = typeof announcements.$inferSelect;
export type ActiveAnnouncement = { text: string; linkUrl: string | null; linkText: string | null };

/** The site-wide banner shown on the public pages now, if any: active and inside its window. */
export async function findActiveAnnouncement(db: Queryable, now: Date): Promise<ActiveAnnouncement | undefined> {
  const [row] = await db.select({ text: announcements.text, linkUrl: announcements.linkUrl, linkText: announcements.linkText })
    .from(announcements)
    .where(and(
      eq(announcements.active, true),
      or(isNull(announcements.startsAt), lte(announcements.startsAt, now)),
      or(isNull(announcements.endsAt), gt(announcements.endsAt, now)),
    ))
    .orderBy(desc(announcements.updatedAt))
    .limit(1);
  return row;
}

/** Whether the public pages show this banner at `now`: the same rule as findActiveAnnouncement. */
export function isLive(row: AnnouncementRow, now: Date): boolean {
  return row.active
    && (row.startsAt === null || row.startsAt <= now)
    && (row.endsAt === null || row.endsAt > now);
}

/** The banner the marketing tools manage: the most recently changed row, locked when inside a write. */
export async function findBanner(db: Queryable, options: { lock?: boolean } = {}): Promise<AnnouncementRow | undefined> {
  const query = db.select().from(announcements).orderBy(desc(announcements.updatedAt), desc(announcements.id)).limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** Active rows other than `keepId` (none when the table holds one banner, as the marketing tools keep it), locked. */
export function lockActiveBanners(db: Queryable, keepId?: string): Promise<AnnouncementRow[]> {
  const others = keepId !== undefined ? ne(announcements.id, keepId) : undefined;
  return db.select().from(announcements).where(and(eq(announcements.active, true), others)).for('update');
}
