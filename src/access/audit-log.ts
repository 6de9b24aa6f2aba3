import type { Queryable } from '../db/client.ts';
import { preparedInsert } from '../db/prepared.ts';
import { auditEntries } from '../db/schema.ts';
import type { AuditRecord, Channel } from '../context.ts';
import { actorName } from './actor.ts';
import type { Actor } from './actor.ts';

/** Every write appends one, so it is a prepared statement. */
const insertAuditEntry = preparedInsert(auditEntries, 'audit_insert_entry', { id: auditEntries.id });

/**
 * Appends one audit entry through the caller's transaction, so the entry exists exactly when the write does
 * (docs/behaviour.md#audit-and-revert). Tools reach it through their context; `butik import` calls it for each row it changes.
 */
export async function appendAudit(
  db: Queryable,
  entry: { record: AuditRecord; actor: Actor; channel: Channel; tool: string; at: Date; actorName?: string; approvedBy?: string },
): Promise<string> {
  const [row] = await insertAuditEntry(db, [{
    at: entry.at,
    actorKind: entry.actor.kind,
    actorKeyId: entry.actor.kind === 'key' ? entry.actor.keyId : null,
    // A UCP platform calls without a key; its entries name the platform's profile instead of "anonymous".
    actorName: entry.actorName ?? actorName(entry.actor),
    channel: entry.channel,
    tool: entry.tool,
    targetType: entry.record.targetType,
    targetId: entry.record.targetId,
    before: entry.record.before ?? null,
    after: entry.record.after ?? null,
    revertOf: entry.record.revertOf ?? null,
    approvedBy: entry.approvedBy ?? null,
  }]);
  if (!row) throw new Error('audit insert returned no row');
  return row.id;
}
