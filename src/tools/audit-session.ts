import { and, desc, eq, gt, gte, inArray, isNull, ne, notInArray, or } from 'drizzle-orm';
import type { Actor } from '../access/actor.ts';
import { isAgent } from '../access/agent-pauses.ts';
import type { Agent } from '../access/agent-pauses.ts';
import { actorKeyIdsOf } from '../access/agents.ts';
import type { ToolContext } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { auditEntries } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { toIso } from '../schema/common.ts';
import { SESSION_MAX_ENTRIES } from './audit-limits.ts';
import { revertEntry } from './audit-revert.ts';
import { revertTargetFor } from './audit-targets.ts';

type Entry = typeof auditEntries.$inferSelect;

/** The target type of the one entry that records a session undo; its target id is the agent. */
export const BATCH_TARGET = 'audit_batch';

export type LaterChange = { id: string; at: string; actorName: string; tool: string };
export type SessionEntry = {
  id: string; at: string; tool: string; targetType: string; targetId: string;
  /** ready: undone by default; conflict: someone else changed the target since; not_revertible: never undone here. */
  status: 'ready' | 'conflict' | 'not_revertible';
  reason: string | null;
  /** Changes to the same target after this entry, by anyone but this agent, still in effect (reverts not counted). */
  laterChanges: LaterChange[];
  /** The target as the entry found and left it: what the preview names it by. */
  before: unknown;
  after: unknown;
};

/**
 * Undoing an agent's session is a person's call (the console, or the master key): it judges which later
 * changes of other people may be overwritten, and an agent must not sweep away what a person fixed by hand.
 * An agent holding audit:revert still reverts single entries with audit.revert.
 */
export function assertPerson(actor: Actor): void {
  if (actor.kind === 'key') {
    throw new ToolError('insufficient_scope', 'Only a person undoes an agent\'s session: in the console (Agents) or with the master key. '
      + 'An agent reverts single entries with audit.revert.', { scope: 'master' });
  }
}

function agentOf(value: string): Agent {
  if (!isAgent(value)) throw new ToolError('validation_failed', `"${value}" names no agent: give key:<key id> or app:<OAuth client id>.`);
  return value;
}

function whyNot(entry: Entry): string | null {
  if (entry.targetType === 'order') return 'Order changes cannot be reverted: move the order on with orders.update_status.';
  if (!revertTargetFor(entry.targetType)) return `A ${entry.targetType} change cannot be reverted.`;
  return null;
}

async function laterChangesOf(db: Queryable, entry: Entry, agentIds: string[]): Promise<Entry[]> {
  return db.select().from(auditEntries).where(and(
    eq(auditEntries.targetId, entry.targetId),
    eq(auditEntries.targetType, entry.targetType),
    gt(auditEntries.at, entry.at),
    // A change someone took back, and the revert that took it back, leave the target as this entry left it.
    isNull(auditEntries.revertedBy),
    isNull(auditEntries.revertOf),
    agentIds.length === 0 ? undefined : or(isNull(auditEntries.actorKeyId), notInArray(auditEntries.actorKeyId, agentIds)),
  )).orderBy(desc(auditEntries.at), desc(auditEntries.id));
}

/**
 * What undoing `agent`'s changes since `since` would revert, newest first: every entry it made that is still in
 * effect, each marked ready, conflict (someone else changed the target afterwards: left out unless the person
 * takes it, which also reverts those later changes) or not revertible (an order status, for one).
 */
export async function previewSessionUndo(db: Queryable, agentName: string, since: Date): Promise<{ agent: Agent; since: string; entries: SessionEntry[] }> {
  const agent = agentOf(agentName);
  const ids = await actorKeyIdsOf(db, agent);
  const entries = ids.length === 0 ? [] : await db.select().from(auditEntries).where(and(
    inArray(auditEntries.actorKeyId, ids), gte(auditEntries.at, since), isNull(auditEntries.revertedBy), isNull(auditEntries.revertOf),
    ne(auditEntries.targetType, BATCH_TARGET),
  )).orderBy(desc(auditEntries.at), desc(auditEntries.id)).limit(SESSION_MAX_ENTRIES);
  const described = await Promise.all(entries.map(async (entry): Promise<SessionEntry> => {
    const reason = whyNot(entry);
    const later = reason ? [] : await laterChangesOf(db, entry, ids);
    return {
      id: entry.id, at: toIso(entry.at), tool: entry.tool, targetType: entry.targetType, targetId: entry.targetId,
      status: reason ? 'not_revertible' : later.length > 0 ? 'conflict' : 'ready',
      reason: reason ?? (later.length > 0 ? `Changed afterwards by ${[...new Set(later.map((change) => change.actorName))].join(', ')}.` : null),
      laterChanges: later.map((change) => ({ id: change.id, at: toIso(change.at), actorName: change.actorName, tool: change.tool })),
      before: entry.before,
      after: entry.after,
    };
  }));
  return { agent, since: since.toISOString(), entries: described };
}

export type BatchItem = { entryId: string; revertEntryId: string };
export type BatchResult = { batchEntryId: string; reverted: BatchItem[] };

/**
 * Reverts the chosen entries of one agent in the caller's transaction (all or nothing), newest first, through
 * audit.revert's own function, and records the whole as one entry (target type audit_batch) that audit.revert
 * can undo. `acceptConflicts` are chosen entries whose target someone else changed since: those later changes
 * are reverted first. A chosen entry with later changes that is not among them is refused: the preview the
 * person saw is out of date.
 */
export async function undoSession(ctx: ToolContext, input: { agent: string; entryIds: string[]; acceptConflicts: string[] }): Promise<BatchResult> {
  assertPerson(ctx.actor);
  const agent = agentOf(input.agent);
  const ids = await actorKeyIdsOf(ctx.db, agent);
  const chosen = input.entryIds.length === 0 ? [] : await ctx.db.select().from(auditEntries).where(inArray(auditEntries.id, input.entryIds));
  const accepted = new Set(input.acceptConflicts);
  const toRevert = new Map<string, Entry>();
  for (const id of input.entryIds) {
    const entry = chosen.find((row) => row.id === id);
    if (!entry || entry.actorKeyId === null || !ids.includes(entry.actorKeyId)) {
      throw new ToolError('not_found', `Entry ${id} is no change of ${agent}; preview the session again.`);
    }
    toRevert.set(entry.id, entry);
    const later = await laterChangesOf(ctx.db, entry, ids);
    if (later.length > 0 && !accepted.has(entry.id)) {
      throw new ToolError('not_revertible', `The ${entry.targetType} ${entry.targetId} of entry ${entry.id} was changed afterwards by `
        + `${later.map((change) => change.actorName).join(', ')}. Preview the session again, and tick it if those changes may be undone too.`);
    }
    for (const change of later) toRevert.set(change.id, change);
  }
  if (toRevert.size === 0) throw new ToolError('validation_failed', 'Choose at least one entry to undo.');
  const newestFirst = [...toRevert.values()].sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1));
  const reverted: BatchItem[] = [];
  for (const entry of newestFirst) {
    const result = await revertEntry(ctx, entry.id);
    reverted.push({ entryId: result.revertedEntryId, revertEntryId: result.entryId });
  }
  const batchEntryId = await ctx.audit({ targetType: BATCH_TARGET, targetId: agent, before: null, after: { agent, reverted } });
  return { batchEntryId, reverted };
}

/**
 * Undoes a session undo: its reverts are reverted in the opposite order, so every change of the agent comes back
 * and counts as not reverted again (a later session undo may take it). Refused when a target changed since.
 */
export async function revertBatch(ctx: ToolContext, batch: Entry): Promise<{ revertedEntryId: string; entryId: string }> {
  assertPerson(ctx.actor);
  if (batch.revertOf !== null) {
    throw new ToolError('not_revertible', `Entry ${batch.id} records the undo of session undo ${batch.revertOf}: the agent's changes are back, `
      + 'and a new session undo can take them again.');
  }
  if (batch.revertedBy !== null) {
    throw new ToolError('not_revertible', `The session undo of entry ${batch.id} was already undone by entry ${batch.revertedBy}.`);
  }
  const items = (batch.after as { reverted?: BatchItem[] } | null)?.reverted ?? [];
  const redone: BatchItem[] = [];
  for (const item of [...items].reverse()) {
    const result = await revertEntry(ctx, item.revertEntryId, { redo: true });
    redone.push({ entryId: result.revertedEntryId, revertEntryId: result.entryId });
  }
  const entryId = await ctx.audit({ targetType: BATCH_TARGET, targetId: batch.targetId, before: batch.after, after: { agent: batch.targetId, reverted: redone }, revertOf: batch.id });
  await ctx.db.update(auditEntries).set({ revertedBy: entryId }).where(eq(auditEntries.id, batch.id));
  return { revertedEntryId: batch.id, entryId };
}

/** audit.revert's way in: a session undo is reverted as the batch it is, any other entry on its own. */
export async function revertAnyEntry(ctx: ToolContext, entryId: string): Promise<{ revertedEntryId: string; entryId: string }> {
  const [entry] = await ctx.db.select().from(auditEntries).where(eq(auditEntries.id, entryId)).for('update');
  return entry?.targetType === BATCH_TARGET ? revertBatch(ctx, entry) : revertEntry(ctx, entryId);
}
