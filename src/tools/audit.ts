import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { auditEntries, categories, discounts, pages, products, services } from '../db/schema.ts';
import type { Queryable } from '../db/client.ts';
import { normalizeCode } from '../schema/discount.ts';
import { Id, JsonObject, SlugRef, Timestamp, jsonObjectOrNull, toIso } from '../schema/common.ts';
import { SESSION_MAX_ENTRIES } from './audit-limits.ts';
import { revertAnyEntry, undoSession } from './audit-session.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';

/** Row snapshots are arbitrary JSON; z.unknown() keeps their JSON Schema the generic `{}`. */
/** A whole row as it was: its columns by name. */
const Snapshot = JsonObject.nullable();

const AuditEntry = z.strictObject({
  id: Id,
  at: Timestamp,
  actor: z.strictObject({
    kind: z.enum(['master', 'key', 'cli', 'anonymous', 'staff']),
    keyId: Id.nullable().meta({ description: 'The API key id when kind is "key", else null.' }),
    name: z.string().meta({ description: 'The key name, "master" / "cli", or a person of the console as "email (role)".' }),
  }),
  channel: z.enum(['rest', 'mcp', 'cli', 'admin']),
  tool: z.string().meta({ description: 'The tool that made the change, e.g. products.update.' }),
  targetType: z.string().meta({ description: 'product, category, discount, page, service, order, settings, feature, announcement …' }),
  targetId: z.string(),
  before: Snapshot.meta({ description: 'The whole row before the change; null when the change created it.' }),
  after: Snapshot.meta({ description: 'The whole row after the change; null when the change removed it.' }),
  revertedBy: Id.nullable().meta({ description: 'The entry that reverted this one, or null.' }),
  revertOf: Id.nullable().meta({ description: 'On an entry written by audit.revert: the entry it undid.' }),
});

export const listAudit = defineTool({
  name: 'audit.list',
  description: 'Read the audit log, newest first: who changed what (actor, channel, tool, target) with the whole row '
    + 'before and after. Use an entry id with audit.revert to undo a change.',
  scope: 'audit:read',
  annotations: readOnly('List audit entries'),
  input: z.strictObject({
    tool: z.string().min(1).max(100).optional().meta({ description: 'Only entries written by this tool.', examples: ['products.update'] }),
    targetId: Id.optional().meta({ description: 'Only entries about this target (a product id, order id, setting key …).' }),
    targetSlug: SlugRef.optional().meta({
      description: 'Only entries about the product, category, page or service with this slug, or the discount with this code '
        + '(deleted ones too). Combines with targetId by AND.',
      examples: ['aviator-classic'],
    }),
    since: Timestamp.optional().meta({ description: 'Only entries at or after this time.' }),
    before: Timestamp.optional().meta({ description: 'Only entries before this time: give the "at" of the last entry of a page to read the next one.' }),
    actorName: z.string().min(1).max(300).optional().meta({ description: 'Only entries by this actor, named as in actor.name.', examples: ['anna@shop.dk (manager)'] }),
    entryId: Id.optional().meta({ description: 'Only this entry.' }),
    limit: z.int().min(1).max(200).default(50).meta({ description: 'At most this many entries (1–200, default 50).' }),
  })
    .meta({ examples: [{ targetSlug: 'aviator-classic', limit: 10 }, { tool: 'products.delete', since: '2026-11-01T00:00:00Z' }] }),
  output: z.array(AuditEntry),
  async handler({ tool, targetId, targetSlug, since, before, actorName, entryId, limit }, { db }) {
    const slugTargets = targetSlug === undefined ? undefined : await idsNamed(db, targetSlug);
    if (slugTargets?.length === 0) return [];
    const rows = await db.select().from(auditEntries)
      .where(and(
        tool === undefined ? undefined : eq(auditEntries.tool, tool),
        targetId === undefined ? undefined : eq(auditEntries.targetId, targetId),
        slugTargets === undefined ? undefined : inArray(auditEntries.targetId, slugTargets),
        since === undefined ? undefined : gte(auditEntries.at, new Date(since)),
        before === undefined ? undefined : lt(auditEntries.at, new Date(before)),
        actorName === undefined ? undefined : eq(auditEntries.actorName, actorName),
        entryId === undefined ? undefined : eq(auditEntries.id, entryId),
      ))
      // NULLS LAST (the same order: both columns are not null) is how the audit indexes are built, so they serve it.
      .orderBy(sql`${desc(auditEntries.at)} nulls last`, sql`${desc(auditEntries.id)} nulls last`)
      .limit(limit);
    return rows.map((row) => ({
      id: row.id,
      at: toIso(row.at),
      actor: { kind: row.actorKind, keyId: row.actorKeyId, name: row.actorName },
      channel: row.channel,
      tool: row.tool,
      targetType: row.targetType,
      targetId: row.targetId,
      before: jsonObjectOrNull(row.before),
      after: jsonObjectOrNull(row.after),
      revertedBy: row.revertedBy,
      revertOf: row.revertOf,
    }));
  },
});

/**
 * The ids a slug (or discount code) names. Slugs and codes are unique per table and stay taken after a soft
 * delete, so this also finds deleted targets; one slug can name a product and a page at once.
 */
async function idsNamed(db: Queryable, slug: string): Promise<string[]> {
  const rows = await unionAll(
    db.select({ id: products.id }).from(products).where(eq(products.slug, slug)),
    db.select({ id: categories.id }).from(categories).where(eq(categories.slug, slug)),
    db.select({ id: pages.id }).from(pages).where(eq(pages.slug, slug)),
    db.select({ id: services.id }).from(services).where(eq(services.slug, slug)),
    db.select({ id: discounts.id }).from(discounts).where(eq(discounts.code, normalizeCode(slug))),
  );
  return rows.map((row) => row.id);
}

export const revertAudit = defineTool({
  name: 'audit.revert',
  description: 'Undo one audited change by restoring its "before" snapshot: undeletes a product, restores a patched '
    + 'product, category, discount, page, service, setting, feature flag or announcement, removes a row the change '
    + 'created. Refused with 422 not_revertible for order changes, entries already reverted or that record a revert, '
    + 'and targets changed since. Besides audit:revert it needs the scope of the tool that made the entry (403 '
    + 'insufficient_scope names it); entries of the import are the shop owner\'s alone. The revert is itself audited; '
    + 'on an audit.undo_session entry it redoes that session.',
  scope: 'audit:revert',
  annotations: write('Revert audit entry', { idempotent: false, destructive: true }),
  input: z.strictObject({ entryId: Id.meta({ description: 'The id of the entry to undo, from audit.list.' }) })
    .meta({ examples: [{ entryId: '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81' }] }),
  output: z.strictObject({
    revertedEntryId: Id.meta({ description: 'The entry that was undone.' }),
    entryId: Id.meta({ description: 'The new entry that records the revert.' }),
  }),
  handler: ({ entryId }, ctx) => revertAnyEntry(ctx, entryId),
});

const AgentId = z.string().min(5).max(300).meta({ description: 'key:<API key id> or app:<OAuth client id>.' });

export const undoSessionTool = defineTool({
  name: 'audit.undo_session',
  description: 'For people (console, master key): undo chosen entries of one agent in one transaction, newest first, as one entry '
    + 'audit.revert can undo. An entry whose target others changed since needs acceptConflicts, and undoes their changes too.',
  scope: 'audit:revert',
  annotations: write('Undo an agent session', { idempotent: false, destructive: true }),
  input: z.strictObject({
    agent: AgentId,
    entryIds: z.array(Id).min(1).max(SESSION_MAX_ENTRIES).meta({ description: 'The agent\'s entries to undo (audit.list).' }),
    acceptConflicts: z.array(Id).max(SESSION_MAX_ENTRIES).default([]).meta({ description: 'Those of entryIds whose later changes by others may be undone too.' }),
  }).meta({ examples: [{ agent: 'key:0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81', entryIds: ['0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a82'] }] }),
  output: z.strictObject({
    batchEntryId: Id.meta({ description: 'The entry recording the undo; audit.revert on it brings the changes back.' }),
    reverted: z.array(z.strictObject({ entryId: Id, revertEntryId: Id })),
  }),
  handler: (input, ctx) => undoSession(ctx, input),
});

export const auditTools: AnyTool[] = [listAudit, revertAudit, undoSessionTool];
