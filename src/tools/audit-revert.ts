import { eq } from 'drizzle-orm';
import { markConfigWritten } from '../db/read-cache.ts';
import { auditEntries, featureFlags, promotions, settings, shippingRates } from '../db/schema.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../db/errors.ts';
import { ToolError } from '../errors/tool-error.ts';
import { differingFields, fromSnapshot, isSnapshot, revertTargetFor, toSnapshot } from './audit-targets.ts';
import { revertRefusal } from './revert-rights.ts';
import type { RevertTarget, Snapshot } from './audit-targets.ts';
import type { ToolContext } from '../context.ts';

type Entry = typeof auditEntries.$inferSelect;
type Db = ToolContext['db'];

export type RevertResult = { revertedEntryId: string; entryId: string };

/**
 * `redo`: the entry records a revert, made by a session undo (audit-session.ts), and is itself undone because
 * that whole batch is: the change it reverted comes back, and its entry counts as not reverted again.
 */
export type RevertOptions = { redo?: boolean };

/**
 * Puts the entry's `before` snapshot back, in the caller's transaction, and records that
 * as an entry of its own. The entry and the target row stay locked from the check to the restore,
 * so two reverts of one entry, or a revert racing an edit, cannot both pass.
 */
export async function revertEntry(ctx: ToolContext, entryId: string, options: RevertOptions = {}): Promise<RevertResult> {
  const [entry] = await ctx.db.select().from(auditEntries).where(eq(auditEntries.id, entryId)).for('update');
  if (!entry) {
    throw new ToolError('not_found', `No audit entry with id "${entryId}"; audit.list shows recent entries and their ids.`);
  }
  const target = revertibleTarget(ctx, entry, options);
  const before = snapshotOf(entry, entry.before);
  const after = snapshotOf(entry, entry.after);
  if (before === null && after === null) throw refuse(`Entry ${entry.id} (${entry.tool}) changed nothing that could be restored.`);
  const [current] = await ctx.db.select().from(target.table).where(eq(target.key, entry.targetId)).for('update');
  assertUnchangedSince(entry, target, current, after);

  const restored = await restore(ctx.db, { entry, target, before, exists: current !== undefined });
  const revertId = await ctx.audit({
    targetType: entry.targetType,
    targetId: entry.targetId,
    before: current ?? null,
    after: restored ?? null,
    revertOf: entry.id,
  });
  await ctx.db.update(auditEntries).set({ revertedBy: revertId }).where(eq(auditEntries.id, entry.id));
  if (options.redo && entry.revertOf !== null) {
    await ctx.db.update(auditEntries).set({ revertedBy: null }).where(eq(auditEntries.id, entry.revertOf));
  }
  return { revertedEntryId: entry.id, entryId: revertId };
}

function refuse(detail: string): ToolError {
  return new ToolError('not_revertible', detail);
}

/** The table to restore into, once the entry is one this actor may revert (revert-rights.ts). */
function revertibleTarget(ctx: ToolContext, entry: Entry, options: RevertOptions): RevertTarget {
  const refusal = revertRefusal(ctx.actor, entry, options);
  if (refusal) throw refusal;
  const target = revertTargetFor(entry.targetType);
  if (!target) throw new Error('revertRefusal admits only entries of a revert target');
  return target;
}

function snapshotOf(entry: Entry, value: unknown): Snapshot | null {
  if (value === null || isSnapshot(value)) return value;
  throw refuse(`Entry ${entry.id} (${entry.tool}) holds no row snapshot to restore; make the change with the resource's own tool.`);
}

function describe(target: RevertTarget, snapshot: Snapshot | null, id: string): string {
  const name = target.nameField === undefined ? undefined : snapshot?.[target.nameField];
  return typeof name === 'string' ? `${target.label} "${name}"` : `${target.label} ${id}`;
}

/** "A target changed since": the row must still be exactly what the entry left behind. */
function assertUnchangedSince(entry: Entry, target: RevertTarget, current: object | undefined, after: Snapshot | null): void {
  const what = describe(target, after ?? (current ? toSnapshot(current) : null), entry.targetId);
  const newer = `Revert the newer entries first (audit.list with targetId "${entry.targetId}" lists them, newest first), `
    + `or make the change you want with ${target.editWith}.`;
  if (after === null) {
    if (current) throw refuse(`The ${what} removed by entry ${entry.id} exists again. ${newer}`);
    return;
  }
  if (!current) throw refuse(`The ${what} changed by entry ${entry.id} no longer exists. ${newer}`);
  const changed = differingFields(target.table, current, after);
  if (changed.length > 0) {
    throw refuse(`The ${what} has changed since entry ${entry.id} (fields: ${changed.join(', ')}). ${newer}`);
  }
}

type Restore = { entry: Entry; target: RevertTarget; before: Snapshot | null; exists: boolean };

/** Deletes the row an entry created, or writes its `before` snapshot back (re-inserting a deleted row). */
async function restore(db: Db, { entry, target, before, exists }: Restore): Promise<object | null> {
  const where = eq(target.key, entry.targetId);
  const values = before === null ? null : fromSnapshot(target.table, before);
  // Settings, feature flags, shipping rates and promotions are kept in memory: this transaction reads its own
  // restore, and drops them when it ends.
  if (target.table === settings || target.table === featureFlags || target.table === shippingRates || target.table === promotions) {
    markConfigWritten(db);
  }
  const unmet = values === null ? undefined : await target.guard?.(db, values);
  if (unmet !== undefined) {
    throw refuse(`The ${describe(target, before, entry.targetId)} of entry ${entry.id} cannot be restored: ${unmet}.`);
  }
  try {
    if (values === null) {
      await db.delete(target.table).where(where);
      return null;
    }
    const [row] = exists
      ? await db.update(target.table).set(values).where(where).returning()
      : await db.insert(target.table).values(values).returning();
    if (!row) throw new Error('restore returned no row');
    return row;
  } catch (error) {
    const what = describe(target, before ?? toSnapshotOrNull(entry.after), entry.targetId);
    if (isForeignKeyViolation(error)) {
      throw refuse(`The ${what} created by entry ${entry.id} is now used by other records (order lines, cart lines or `
        + `products), so it cannot be un-created. ${target.whenInUse ?? `Change it with ${target.editWith} instead.`}`);
    }
    if (isUniqueViolation(error)) {
      throw refuse(`Another ${target.label} now uses the ${target.nameField ?? 'identifier'} of the ${what}, so entry `
        + `${entry.id} cannot be reverted. Rename or remove that one first, or make the change with ${target.editWith}.`);
    }
    throw error;
  }
}

function toSnapshotOrNull(value: unknown): Snapshot | null {
  return isSnapshot(value) ? value : null;
}
