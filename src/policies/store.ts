import { and, eq } from 'drizzle-orm';
import { appendAudit } from '../access/audit-log.ts';
import type { Actor } from '../access/actor.ts';
import type { Channel } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { cachedRead, markConfigWritten } from '../db/read-cache.ts';
import { auditEntries, policyDocuments } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { EMPTY_POLICY, parsePolicyDocument } from './document.ts';
import type { PolicyDocument } from './document.ts';

/** The shop has one document; its row has this id. */
const SHOP = 1;

/**
 * The document every agent call checks, kept in memory between changes like the settings (src/db/read-cache.ts):
 * a call pays no database round trip for it. A stored document that no longer parses (a tool renamed since) holds
 * nothing rather than failing every call; setting it again names what is wrong.
 */
export const readPolicyDocument: (db: Queryable) => Promise<PolicyDocument> = cachedRead(async (db) => {
  const [row] = await db.select({ document: policyDocuments.document }).from(policyDocuments).where(eq(policyDocuments.id, SHOP));
  return (row?.document as PolicyDocument | undefined) ?? EMPTY_POLICY;
});

/** Only people set the document: an owner in the console, or the master key (the CLI). No agent loosens its own guard. */
export function assertMayEditPolicies(actor: Actor): void {
  if (actor.kind === 'master' || actor.kind === 'cli' || (actor.kind === 'staff' && actor.role === 'owner')) return;
  throw new ToolError('insufficient_scope', 'Only the shop owner (signed in to the console, or with the master key) changes the policy document.', { scope: 'master' });
}

/**
 * Puts back the document an earlier change replaced (its audit entry's `before`), checked again as any new
 * document is, and audited as a revert of that entry. People only, like setting it: `audit.revert` is an agent's
 * tool too, so it does not restore policies.
 */
export async function revertPolicyChange(
  db: Queryable,
  entryId: string,
  change: { toolNames: readonly string[]; actor: Actor; channel: Channel; at: Date },
): Promise<PolicyDocument> {
  assertMayEditPolicies(change.actor);
  const [entry] = await db.select().from(auditEntries).where(and(eq(auditEntries.id, entryId), eq(auditEntries.targetType, 'policies'))).for('update');
  if (!entry) throw new ToolError('not_found', `No change of the policy document has the audit entry id "${entryId}".`);
  if (entry.revertedBy !== null) throw new ToolError('not_revertible', `Entry ${entryId} was already reverted by entry ${entry.revertedBy}.`);
  const document = await writePolicyDocument(db, entry.before ?? EMPTY_POLICY, { ...change, revertOf: entryId });
  return document;
}

/** Replaces the document after checking all of it; audited (targetType `policies`) with the document before and after. */
export async function writePolicyDocument(
  db: Queryable,
  source: unknown,
  change: { toolNames: readonly string[]; actor: Actor; channel: Channel; at: Date; revertOf?: string },
): Promise<PolicyDocument> {
  assertMayEditPolicies(change.actor);
  const document = parsePolicyDocument(source, change.toolNames);
  markConfigWritten(db);
  const [before] = await db.select().from(policyDocuments).where(eq(policyDocuments.id, SHOP)).for('update');
  await db.insert(policyDocuments).values({ id: SHOP, document, updatedAt: change.at })
    .onConflictDoUpdate({ target: policyDocuments.id, set: { document, updatedAt: change.at } });
  const entry = await appendAudit(db, {
    record: { targetType: 'policies', targetId: 'shop', before: before?.document ?? EMPTY_POLICY, after: document, revertOf: change.revertOf },
    actor: change.actor, channel: change.channel, tool: change.revertOf ? 'policies.revert' : 'policies.set', at: change.at,
  });
  if (change.revertOf) await db.update(auditEntries).set({ revertedBy: entry }).where(eq(auditEntries.id, change.revertOf));
  return document;
}
