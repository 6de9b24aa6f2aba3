import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { announcements } from '../db/schema.ts';
import { Confirm, Id, Timestamp, Url, toIso } from '../schema/common.ts';
import { findBanner, isLive, lockActiveBanners } from '../shop/announcements.ts';
import type { AnnouncementRow } from '../shop/announcements.ts';
import type { ToolContext } from '../context.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';
import { getProductContent, updateProductContent } from './product-content.ts';

/** A path on this site, such as /info/fragt; "//host" is another site and not a path. */
const SitePath = z.string().regex(/^\/(?!\/)\S*$/, 'a relative link is a path starting with a single "/"');

const Banner = z.strictObject({
  id: Id,
  text: z.string(),
  linkUrl: z.string().nullable(),
  linkText: z.string().nullable(),
  startsAt: Timestamp.nullable().meta({ description: 'Shown from this time; null: at once.' }),
  endsAt: Timestamp.nullable().meta({ description: 'Shown until just before this time; null: until cleared.' }),
  active: z.boolean(),
  live: z.boolean().meta({ description: 'Whether the public pages show the banner right now (active and inside its window).' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

function toBanner(row: AnnouncementRow, now: Date): z.input<typeof Banner> {
  return {
    id: row.id,
    text: row.text,
    linkUrl: row.linkUrl,
    linkText: row.linkText,
    startsAt: toIso(row.startsAt),
    endsAt: toIso(row.endsAt),
    active: row.active,
    live: isLive(row, now),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

/** Switches off every active banner but `keepId`, each audited, so the site has one banner at most. */
async function switchOffBanners(ctx: ToolContext, keepId?: string): Promise<number> {
  const others = await lockActiveBanners(ctx.db, keepId);
  for (const before of others) {
    const [after] = await ctx.db.update(announcements).set({ active: false, updatedAt: ctx.clock() })
      .where(eq(announcements.id, before.id)).returning();
    await ctx.audit({ targetType: 'announcement', targetId: before.id, before, after });
  }
  return others.length;
}

export const getAnnouncement = defineTool({
  name: 'marketing.get_announcement',
  description: 'Read the site-wide announcement banner (text, link, schedule, active) and whether it is live now; '
    + 'null when none was ever set. Scope marketing:write, as there is no marketing read scope (the live banner is '
    + 'public on every page anyway).',
  scope: 'marketing:write',
  annotations: readOnly('Get announcement banner'),
  input: z.strictObject({}).meta({ examples: [{}] }),
  output: Banner.nullable(),
  async handler(_input, { db, clock }) {
    const row = await findBanner(db);
    return row ? toBanner(row, clock()) : null;
  },
});

export const setAnnouncement = defineTool({
  name: 'marketing.set_announcement',
  description: 'Set the one site-wide announcement banner shown at the top of the public pages. Replaces the whole '
    + 'banner: optional fields left out are cleared. linkUrl is an http(s) URL or a path on this site such as '
    + '/info/fragt; linkText needs linkUrl. startsAt/endsAt schedule it (endsAt must be after startsAt); active: false '
    + 'keeps the text but hides it. Audited (targetType "announcement") and revertible with audit.revert.',
  scope: 'marketing:write',
  annotations: write('Set announcement banner', { idempotent: true }),
  input: z.strictObject({
    text: z.string().trim().min(1).max(280).meta({ description: 'Banner text, 1..280 characters.', examples: ['Fri fragt i hele december'] }),
    linkUrl: z.union([Url.max(2000), SitePath.max(2000)]).optional()
      .meta({ description: 'Where the banner links: an http(s) URL or a path on this site.', examples: ['/info/fragt'] }),
    linkText: z.string().trim().min(1).max(80).optional().meta({ description: 'Link label, 1..80 characters; needs linkUrl.', examples: ['Læs mere'] }),
    startsAt: Timestamp.optional().meta({ description: 'Show from this time; omitted: at once.' }),
    endsAt: Timestamp.optional().meta({ description: 'Hide from this time on; omitted: until cleared.' }),
    active: z.boolean().meta({ description: 'true shows the banner (inside its window); false hides it.' }),
  }).refine((input) => input.linkText === undefined || input.linkUrl !== undefined, {
    message: 'linkText needs a linkUrl',
    path: ['linkText'],
  }).refine((input) => !input.startsAt || !input.endsAt || Date.parse(input.endsAt) > Date.parse(input.startsAt), {
    message: 'endsAt must be after startsAt',
    path: ['endsAt'],
  }).meta({ examples: [{ text: 'Fri fragt i hele december', linkUrl: '/info/fragt', linkText: 'Læs mere', endsAt: '2026-12-31T23:00:00Z', active: true }] }),
  output: Banner,
  async handler(input, ctx) {
    const now = ctx.clock();
    const values = {
      text: input.text,
      linkUrl: input.linkUrl ?? null,
      linkText: input.linkText ?? null,
      startsAt: input.startsAt !== undefined ? new Date(input.startsAt) : null,
      endsAt: input.endsAt !== undefined ? new Date(input.endsAt) : null,
      active: input.active,
      updatedAt: now,
    };
    const before = await findBanner(ctx.db, { lock: true });
    const [after] = before
      ? await ctx.db.update(announcements).set(values).where(eq(announcements.id, before.id)).returning()
      : await ctx.db.insert(announcements).values({ ...values, createdAt: now }).returning();
    if (!after) throw new Error('announcement write returned no row');
    await ctx.audit({ targetType: 'announcement', targetId: after.id, before: before ?? null, after });
    await switchOffBanners(ctx, after.id);
    return toBanner(after, now);
  },
});

export const clearAnnouncement = defineTool({
  name: 'marketing.clear_announcement',
  description: 'Take the announcement banner off the public pages at once (it is switched off, its text kept for '
    + 'marketing.get_announcement). Requires confirm: true. cleared is false when no banner was active. Revertible with audit.revert.',
  scope: 'marketing:write',
  annotations: write('Clear announcement banner', { idempotent: true, destructive: true }),
  input: z.strictObject({ confirm: Confirm }).meta({ examples: [{ confirm: true }] }),
  output: z.strictObject({
    ok: z.literal(true),
    cleared: z.boolean().meta({ description: 'true when an active banner was switched off.' }),
  }),
  async handler(_input, ctx) {
    const cleared = await switchOffBanners(ctx);
    return { ok: true as const, cleared: cleared > 0 };
  },
});

export const marketingTools: AnyTool[] = [getAnnouncement, setAnnouncement, clearAnnouncement, getProductContent, updateProductContent];
