import { and, desc, eq, gt, isNull, lte, or } from 'drizzle-orm';
import { announcements } from '../db/schema.ts';
import type { ToolContext } from './context.ts';

export type ActiveAnnouncement = { text: string; linkUrl: string | null; linkText: string | null };

/** The site-wide banner shown on the public pages now, if any: active and inside its window. */
export async function findActiveAnnouncement(db: ToolContext['db'], now: Date): Promise<ActiveAnnouncement | undefined> {
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
