import { and, desc, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { ucpWebhookOutbox } from '../../db/schema.ts';
import { WEBHOOK_RETRY_WINDOW_MS } from './order-feed.ts';

/**
 * The outbox of order events for platforms' webhooks, as the owner sees it: what the webhooks.list and
 * webhooks.retry tools (tools/webhooks.ts) run on. The composition (app.ts) hands these functions to the tools
 * while UCP is on, so the tools never import the UCP face and the face still loads only when it is used.
 */

type Row = typeof ucpWebhookOutbox.$inferSelect;

/** The events with `status`, newest first, at most `limit`. */
export function webhookEvents(db: Queryable, { status, limit }: { status: Row['status']; limit: number }): Promise<Row[]> {
  return db.select().from(ucpWebhookOutbox).where(eq(ucpWebhookOutbox.status, status))
    .orderBy(desc(ucpWebhookOutbox.createdAt), desc(ucpWebhookOutbox.id)).limit(limit);
}

/**
 * A failed event queued again: tried at once and retried with backoff for another retry window. Only a failed
 * event is; the answer says which event was missing or in which other state it was.
 */
export async function requeueWebhookEvent(
  db: Queryable, id: string, now: Date,
): Promise<{ before: Row; after: Row } | { missing: true } | { notFailed: Row['status'] }> {
  const [before] = await db.select().from(ucpWebhookOutbox).where(eq(ucpWebhookOutbox.id, id)).for('update');
  if (!before) return { missing: true };
  if (before.status !== 'failed') return { notFailed: before.status };
  const [after] = await db.update(ucpWebhookOutbox)
    .set({ status: 'pending', nextAttemptAt: now, giveUpAt: new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS) })
    .where(and(eq(ucpWebhookOutbox.id, id), eq(ucpWebhookOutbox.status, 'failed'))).returning();
  if (!after) throw new Error(`webhook event ${id} changed under its lock`);
  return { before, after };
}
